package io.threadlab.experiment.process;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Per thread group of a running JVM, what the scheduler did to its threads, read from {@code /proc/<pid>/task}: CPU
 * time and time spent runnable but waiting for a CPU (schedstat), and context switches. Costs the JVM nothing, so
 * it can watch measured windows: a compiler thread that runs or waits to run during a window means the JIT was not
 * finished. Threads are grouped by their OS name, which Linux cuts to 15 characters ("C2 CompilerThre").
 */
public record ThreadGroupTimes(Map<String, Times> groups, Map<Long, Task> tasks) {

    /** A reading that names no threads, only groups: what a thread did between two of them cannot be told. */
    public ThreadGroupTimes(Map<String, Times> groups) {
        this(groups, Map.of());
    }

    /** One thread's cumulative reading, and its group. */
    public record Task(String group, Times times) {
    }

    /** Cumulative readings of one group; subtract two readings to get an interval. */
    public record Times(int threads, long cpuNanos, long waitNanos, long voluntarySwitches, long involuntarySwitches) {

        Times plus(Times o) {
            return new Times(threads + o.threads, cpuNanos + o.cpuNanos, waitNanos + o.waitNanos,
                    voluntarySwitches + o.voluntarySwitches, involuntarySwitches + o.involuntarySwitches);
        }

        /** The interval from {@code earlier} to this reading (thread count: this reading's). */
        public Times minus(Times earlier) {
            return new Times(threads, cpuNanos - earlier.cpuNanos, waitNanos - earlier.waitNanos,
                    voluntarySwitches - earlier.voluntarySwitches, involuntarySwitches - earlier.involuntarySwitches);
        }
    }

    public static final String COMPILER = "JIT compiler";
    /** The groups whose threads run requests: a worker pool, event loops, virtual threads' carriers. */
    public static final Set<String> SERVING = Set.of("worker pool", "event loops", "carriers");
    static final Times NONE = new Times(0, 0, 0, 0, 0);

    /** A missing or ended process reads as empty: threads that ended took their counters with them. */
    public static ThreadGroupTimes of(long pid) {
        Map<Long, Task> tasks = new LinkedHashMap<>();
        try (DirectoryStream<Path> dir = Files.newDirectoryStream(Path.of("/proc", String.valueOf(pid), "task"))) {
            for (Path task : dir) {
                try {
                    String name = Files.readString(task.resolve("comm")).trim();
                    Times times = parse(Files.readString(task.resolve("schedstat")),
                            Files.readString(task.resolve("status")));
                    tasks.put(Long.parseLong(task.getFileName().toString()), new Task(groupOf(name), times));
                } catch (NoSuchFileException e) {
                    // the thread ended while we read
                }
            }
        } catch (IOException e) {
            return new ThreadGroupTimes(Map.of());
        }
        return ofTasks(tasks);
    }

    private static ThreadGroupTimes ofTasks(Map<Long, Task> tasks) {
        Map<String, Times> groups = new LinkedHashMap<>();
        tasks.values().forEach(t -> groups.merge(t.group(), t.times(), Times::plus));
        return new ThreadGroupTimes(groups, tasks);
    }

    /**
     * The same, from what {@link #DUMP} printed inside a container: a line {@code @task <tid> <comm>} per thread, then
     * its schedstat and the context-switch lines of its status. A thread cut short (it ended while read) is left out.
     */
    static ThreadGroupTimes fromDump(String dump) {
        Map<Long, Task> tasks = new LinkedHashMap<>();
        for (String block : dump.split("(^|\n)@task ")) {
            String[] lines = block.split("\n", 3);
            String[] task = lines[0].trim().split(" ", 2);
            if (lines.length < 3 || task.length < 2 || !task[0].matches("\\d+")
                    || !lines[1].trim().matches("\\d+ \\d+ \\d+")) {
                continue;
            }
            tasks.put(Long.parseLong(task[0]), new Task(groupOf(task[1].trim()), parse(lines[1], lines[2])));
        }
        return ofTasks(tasks);
    }

    /** A shell script that prints, for the container's PID 1, what {@link #fromDump} reads. */
    static final String DUMP = "cd /proc/1/task && for t in *; do printf '@task %s %s\\n' \"$t\" \"$(cat $t/comm)\";"
            + " cat $t/schedstat; grep ctxt_switches $t/status; done 2>/dev/null; true";

    static Times parse(String schedstat, String status) {
        String[] f = schedstat.trim().split("\\s+");
        long voluntary = 0;
        long involuntary = 0;
        for (String line : status.split("\n")) {
            if (line.startsWith("voluntary_ctxt_switches:")) {
                voluntary = Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
            } else if (line.startsWith("nonvoluntary_ctxt_switches:")) {
                involuntary = Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
            }
        }
        return new Times(1, Long.parseLong(f[0]), Long.parseLong(f[1]), voluntary, involuntary);
    }

    /** The lab's thread groups by OS thread name; numbered pools collapse into one group. */
    static String groupOf(String name) {
        if (name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre")) {
            return COMPILER;
        }
        if (name.startsWith("executor-thread")) {
            return "worker pool";
        }
        if (name.startsWith("vert.x-eventloo")) {
            return "event loops";
        }
        if (name.startsWith("ForkJoinPool-")) {
            return "carriers";
        }
        if (name.startsWith("GC Thread") || name.equals("VM Thread") || name.startsWith("VM Periodic")) {
            return "GC and VM";
        }
        if (name.startsWith("JFR ")) {
            return "JFR";
        }
        return "other";
    }

    public Times group(String name) {
        return groups.getOrDefault(name, NONE);
    }

    /** Threads per group at this reading. */
    public Map<String, Integer> threadCounts() {
        Map<String, Integer> counts = new LinkedHashMap<>();
        groups.forEach((name, times) -> counts.put(name, times.threads()));
        return counts;
    }

    /**
     * The voluntary context switches of these groups' threads from {@code earlier} to this reading, thread by thread (a
     * thread started since counts whole): each is a thread going to sleep, for it had nothing to do, and being woken
     * later. Empty where that cannot be told: a thread of theirs ended between the two readings (its switches ended
     * with it; an idle worker pool lets its threads go), or a reading names no threads.
     */
    public OptionalLong voluntarySwitchesSince(ThreadGroupTimes earlier, Set<String> of) {
        if (tasks.isEmpty() || earlier.tasks.isEmpty()) {
            return OptionalLong.empty();
        }
        boolean ended = earlier.tasks.entrySet().stream().anyMatch(e -> of.contains(e.getValue().group())
                && !tasks.containsKey(e.getKey()));
        if (ended) {
            return OptionalLong.empty();
        }
        long switches = 0;
        for (Map.Entry<Long, Task> e : tasks.entrySet()) {
            if (of.contains(e.getValue().group())) {
                Task before = earlier.tasks.get(e.getKey());
                switches += e.getValue().times().voluntarySwitches()
                        - (before == null ? 0 : before.times().voluntarySwitches());
            }
        }
        return OptionalLong.of(switches);
    }

    /** Per group, this reading minus {@code earlier}. */
    public Map<String, Times> since(ThreadGroupTimes earlier) {
        Map<String, Times> interval = new LinkedHashMap<>();
        groups.forEach((name, times) -> interval.put(name, times.minus(earlier.group(name))));
        return interval;
    }
}
