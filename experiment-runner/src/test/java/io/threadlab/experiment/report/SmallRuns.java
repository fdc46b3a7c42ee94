package io.threadlab.experiment.report;

import io.threadlab.experiment.collect.Json;
import io.threadlab.experiment.collect.RunResults;
import io.threadlab.experiment.collect.WarmUpResult;
import io.threadlab.experiment.collect.WindowResult;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Small results directories, written as a runner of this format writes them, for tests that need a run with one
 * thing in it: its windows and warm-ups, a manifest (confined to 0.5 CPU on a 2-CPU machine with the local engine,
 * JDK 25.0.1, one step as run) whose fields a test may replace, and an analysis.json where one is given.
 */
final class SmallRuns {

    private SmallRuns() {
    }

    /** @param analysis analysis.json's content, or null for a run without a thread analysis */
    static Path write(Path dir, List<WindowResult> windows, List<WarmUpResult> warmUps, Map<String, Object> changed,
                      Object analysis) {
        Json.write(dir.resolve("results.json"), new RunResults(windows, warmUps, List.of()));
        Set<String> variants = new LinkedHashSet<>();
        Set<Integer> users = new LinkedHashSet<>();
        for (WindowResult w : windows) {
            variants.add(w.variant());
            if (w.users() != null) {
                users.add(w.users());
            }
        }
        Map<String, Object> manifest = new LinkedHashMap<>();
        manifest.put("format", 3);
        manifest.put("completed", true);
        manifest.put("status", "completed");
        manifest.put("lab", Map.of("runner_java_version", "25.0.1", "quarkus_version", "3.27.2", "machine_cores", 2));
        manifest.put("confinement", Map.of("engine", "local", "method", "cgroup-v2", "limits_cpu", true,
                "variant_cpu_quota", 0.5, "warm_up_cpu_quota", 2.0, "delay_service_cpu_quota", "none"));
        manifest.put("plan", Map.of("mode", "run", "delays_ms", List.of(10), "variants", List.copyOf(variants),
                "closed_model_vus", List.copyOf(users)));
        manifest.put("schedule_as_run", List.of(step("window", "the only window", 0, 13, null)));
        manifest.put("warnings", List.of());
        manifest.putAll(changed);
        Json.write(dir.resolve("manifest.json"), manifest);
        if (analysis != null) {
            Json.write(dir.resolve("analysis.json"), analysis);
        }
        return dir;
    }

    static Map<String, Object> step(String kind, String what, double startedAt, double seconds, String outcome) {
        Map<String, Object> step = new LinkedHashMap<>(Map.of("kind", kind, "what", what, "started_at_seconds",
                startedAt, "seconds", seconds));
        if (outcome != null) {
            step.put("outcome", outcome);
        }
        return step;
    }

    static WarmUpResult warmUp(String variant, boolean finished, Map<String, Object> before,
                               Map<String, Object> after, List<String> changed) {
        return new WarmUpResult(variant + "-jvm1", variant, 1, "boosted to 2.0 CPUs", 0.5, 2.0, finished, 80, 40,
                3.0, null, List.of(new WarmUpResult.Level(100, 12, finished, finished ? "finished"
                : "compile queue not empty", 0.01, 0.0, 1000)), List.of(),
                new WarmUpResult.Ergonomics(before, after, changed, Map.of(), Map.of()), 60);
    }
}
