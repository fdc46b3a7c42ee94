package io.threadlab.experiment;

import io.threadlab.experiment.collect.PlanFacts;
import io.threadlab.experiment.collect.RunManifest;
import io.threadlab.experiment.collect.RunResults;
import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.plan.ExperimentPlan;
import io.threadlab.experiment.plan.Schedule;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * {@code --extend}: JVM starts may be added to an earlier run only if they measure the same thing the same way —
 * the same plan (variants, users, delays, timing, repetitions, warm-up, recording), the same knobs, and the same
 * versions and machine. Anything else is refused, naming every difference, before anything starts. What is added is
 * numbered on from the earlier run (JVM starts, and with them repetitions and window names), so that the merged
 * results.json holds every window once and no file of the earlier run is written over.
 */
final class Extending {

    private Extending() {
    }

    /** The first JVM start an extension adds: the one after the earlier run's last. */
    static int firstStart(RunResults earlier) {
        return earlier.windows().stream().mapToInt(WindowResult::jvm).max().orElse(0) + 1;
    }

    /** What an extension measures: one more JVM start of every variant, each in its block. */
    static Schedule schedule(ExperimentPlan plan, RunResults earlier) {
        return new Schedule(plan.block(firstStart(earlier), plan.variants()));
    }

    /**
     * Refuses an extension that would not measure what the earlier run did: another plan, knobs, k6 collector,
     * machine or versions, each difference named.
     */
    static void requireSame(RunManifest earlier, RunManifest.Lab now, PlanFacts plan, Map<String, Object> knobs,
                            Map<String, String> k6Environment) {
        List<String> differences = new ArrayList<>();
        PlanFacts then = earlier.plan();
        if (then == null) {
            throw new IllegalArgumentException("--extend: the run's manifest has no plan; it cannot be extended");
        }
        same(differences, "mode", then.mode(), plan.mode());
        same(differences, "variants", then.variants(), plan.variants());
        same(differences, "users (--levels)", then.closedModelVus(), plan.closedModelVus());
        same(differences, "delays (--delay-ms)", then.delaysMs(), plan.delaysMs());
        same(differences, "--window", then.sampling().windowSeconds(), plan.sampling().windowSeconds());
        same(differences, "--settle", then.sampling().settleSeconds(), plan.sampling().settleSeconds());
        same(differences, "--settle-max", then.sampling().settleMaxSeconds(),
                plan.sampling().settleMaxSeconds());
        same(differences, "--repetitions", then.sampling().repetitionsPerJvm(),
                plan.sampling().repetitionsPerJvm());
        same(differences, "the warm-up", then.warmUp(), plan.warmUp());
        same(differences, "recorded twins (--no-jfr)", then.jfrWindows(), plan.jfrWindows());
        same(differences, "--load-cpus", then.loadCpus(), plan.loadCpus());
        same(differences, "--fan-out", then.fanOut() == null ? null : then.fanOut().get("calls"),
                plan.fanOut() == null ? null : plan.fanOut().get("calls"));
        same(differences, "--fan-out-mode", then.fanOut() == null ? null : then.fanOut().get("modes"),
                plan.fanOut() == null ? null : plan.fanOut().get("modes"));
        same(differences, "knobs", earlier.knobs().toString(), knobs.toString());
        same(differences, "k6's collector (--k6-gogc, --k6-memory-limit)", collector(earlier.k6Environment()),
                collector(k6Environment));
        RunManifest.Lab lab = earlier.lab();
        if (lab != null) {
            same(differences, "Quarkus", lab.quarkusVersion(), now.quarkusVersion());
            same(differences, "JDK", lab.runnerJavaVersion(), now.runnerJavaVersion());
            same(differences, "k6", lab.k6Version(), now.k6Version());
            same(differences, "CPU", lab.cpuModel(), now.cpuModel());
            same(differences, "cores", lab.machineCores(), now.machineCores());
        }
        if (!differences.isEmpty()) {
            throw new IllegalArgumentException("--extend: this run would not measure what the earlier one did: "
                    + String.join("; ", differences) + ". Give the same flags, on the same machine and versions.");
        }
    }

    /** k6's environment in words: Go's defaults where a run set none. */
    private static String collector(Map<?, ?> environment) {
        return environment.isEmpty() ? "Go's defaults" : new TreeMap<>(environment).toString();
    }

    private static void same(List<String> differences, String what, Object then, Object now) {
        if (!Objects.equals(String.valueOf(then), String.valueOf(now))) {
            differences.add(what + " was " + then + ", now " + now);
        }
    }
}
