package io.threadlab.experiment.process;

import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Environment variables a runtime reads as options of its own: set in the shell that starts the runner, they would
 * reach every JVM and k6 it starts and change what the lab measures with no trace in the manifest (a run of
 * 2026-12-04 with {@code GOGC=400} in its shell measured the reactive variant 23 % faster at 50 ms × 1,000 users, k6's
 * collector having less to do). The lab's knobs live in .env and the flags (k6's collector too: {@code LAB_K6_GOGC},
 * {@code LAB_K6_MEMORY_LIMIT}); these are taken out of every process the runner starts on this machine, and a run that
 * found any says so.
 */
public final class InheritedOptions {

    /** What the JVM reads as flags, before the command line's own. */
    static final List<String> JVM = List.of("JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS", "_JAVA_OPTIONS");
    /** What Go's runtime, and so k6, reads: its collector, its memory limit, its threads, its debug switches. */
    static final List<String> GO = List.of("GOGC", "GOMEMLIMIT", "GOMAXPROCS", "GODEBUG");
    /** k6 reads any of its options from K6_*: the runner sets its own on the command line. */
    static final String K6_PREFIX = "K6_";

    private InheritedOptions() {
    }

    /** Takes the runtimes' options out of a process's environment (a caller sets its own after). */
    public static void remove(Map<String, String> environment) {
        environment.keySet().removeIf(InheritedOptions::isOption);
    }

    /** The runtimes' options set in an environment (the runner's own, as a run starts), by name. */
    public static List<String> found(Map<String, String> environment) {
        return List.copyOf(new TreeSet<>(environment.keySet().stream().filter(InheritedOptions::isOption).toList()));
    }

    /** The warning a run gives where its shell set any. */
    public static String warning(List<String> names) {
        return "the shell sets " + String.join(", ", names) + ": runtime options the runner does not pass to the JVMs"
                + " or k6 it starts (a knob belongs in .env or a flag, where the manifest records it: k6's collector"
                + " is --k6-gogc and --k6-memory-limit)";
    }

    private static boolean isOption(String name) {
        return JVM.contains(name) || GO.contains(name) || name.startsWith(K6_PREFIX);
    }
}
