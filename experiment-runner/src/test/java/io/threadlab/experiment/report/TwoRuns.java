package io.threadlab.experiment.report;

import io.threadlab.experiment.collect.CompilerSample;
import io.threadlab.experiment.collect.Json;
import io.threadlab.experiment.collect.OpenStep;
import io.threadlab.experiment.collect.ResultsWriter;
import io.threadlab.experiment.collect.WarmUpResult;
import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.testing.Windows;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Two results directories written as the runner writes them (windows and warm-ups through {@link ResultsWriter}), with
 * chosen numbers: a clean run, and the same run with flaws the validity checks must catch. 2 JVM starts x 2
 * repetitions of five variants at 100 and 500 users.
 *
 * <p>Every throughput is a variant's level times a noise factor per repetition (repetition r ran on JVM start
 * (r - 1) % 2 + 1, so JVM start 1 ran repetitions 1 and 3); CPU per request and latency carry its inverse. Patterns:
 * NONE (1, 1, 1, 1); JVM (1.005, 1/1.005, 1.005, 1/1.005): JVM start 1 0.5 % above the level and start 2 below, the
 * same in both its repetitions; WITHIN (1.02, 1.02, 1/1.02, 1/1.02): each JVM start's two repetitions 2 % either side
 * of the level, both JVM means the level. A ratio between two variants takes each side's JVM means on the log scale
 * (j = ln 1.005, w = ln 1.02):
 * <ul>
 * <li>NONE: the JVM means exact, no variance (1 degree of freedom);</li>
 * <li>JVM: JVM means +-j, the variance of one JVM mean 2j^2 with 1 degree of freedom;</li>
 * <li>WITHIN: JVM means equal, but never more certain than their windows: the within-JVM variance 4w^2 / 2 = 2w^2,
 * over 2 windows per JVM, one JVM mean's w^2 with 2 degrees of freedom.</li>
 * </ul>
 * Two sides pool those variances by their degrees of freedom (Student's t with 2 JVM starts each), and the standard
 * error is never below Welch's. So against NONE, a JVM side pools 2j^2 / 2 = j^2, t(2) = 4.303, half-width 4.303j =
 * 0.021461 (x 0.978768 .. 1.021693); a WITHIN side pools 2w^2 / 3, t(3) = 3.182, half-width 3.182w * sqrt(2/3) =
 * 0.051450 (x 0.949851 .. 1.052797); JVM against WITHIN pools (2j^2 + 2w^2) / 3, above Welch's j^2 + w^2 / 2, t(3):
 * half-width 0.053056 (x 0.948327 .. 1.054489); JVM against JVM, 2j^2 with 2 degrees of freedom: half-width
 * 4.303j * sqrt 2 = 0.030351 (x 0.970105 .. 1.030816). A
 * recorded twin over its plain window is paired by repetition on its own JVM, where the JVM's level cancels.
 */
final class TwoRuns {

    static final List<String> VARIANTS = List.of("imperative", "reactive", "virtual-thread",
            "imperative-rest", "blocking-event-loop");
    private static final List<Integer> LEVELS = List.of(100, 500);
    private static final int REPETITIONS = 4;
    private static final double[] NONE = {1, 1, 1, 1};
    /** Noise as factors per repetition: a JVM start 0.5 % either side of the level, or windows 2 % either side. */
    private static final double[] JVM = {1.005, 1 / 1.005, 1.005, 1 / 1.005};
    private static final double[] WITHIN = {1.02, 1.02, 1 / 1.02, 1 / 1.02};
    /** RSS per repetition around a variant's own: the median of +-4, 0, +10 is +2. */
    private static final int[] RSS_OFFSET = {-4, 4, 0, 10};
    private static final Instant RUN_START = Instant.parse("2026-11-22T09:30:00Z");

    /** What a variant measured, at 100 and 500 users. */
    private record Profile(double[] rps, double[] cpuMs, double p99, double rssMb, double heapUsedMb,
                           double heapLiveMb, double liveThreads, int threads, double[] noise, long errors) {
    }

    private static final Map<String, Profile> PROFILES = Map.of(
            "imperative", new Profile(new double[] {1000, 2000}, new double[] {0.40, 0.50}, 80, 320, 180, 60, 230,
                    250, NONE, 0),
            "reactive", new Profile(new double[] {3000, 7000}, new double[] {0.16, 0.15}, 40, 250, 120, 40, 30, 45,
                    JVM, 0),
            "virtual-thread", new Profile(new double[] {1000, 4000}, new double[] {0.30, 0.25}, 52, 260, 130, 45, 32,
                    50, JVM, 0),
            "imperative-rest", new Profile(new double[] {1500, 3000}, new double[] {0.24, 0.30}, 60, 300, 150, 50,
                    228, 248, WITHIN, 0),
            "blocking-event-loop", new Profile(new double[] {750, 1750}, new double[] {0.48, 0.60}, 400, 250, 120,
                    40, 30, 45, NONE, 12));

    private TwoRuns() {
    }

    // ---- the runs ----------------------------------------------------------------------------------------------

    /**
     * The flawed run differs in: reactive's second JVM never finished its warm-up and changed its sizes with the
     * boost; one window of virtual-thread at 500 users had a busy compiler; virtual-thread at 500 users only ever
     * rose; imperative-rest at 100 users is noisy; one window of imperative-rest failed requests; one window of
     * reactive stalled for 2 s; the run took 16 minutes.
     */
    static void write(Path dir, boolean flaws) throws IOException {
        ResultsWriter results = new ResultsWriter(dir);
        for (int rep = 1; rep <= REPETITIONS; rep++) {
            List<String> order = new ArrayList<>(VARIANTS);
            Collections.rotate(order, -(rep - 1));
            for (int position = 0; position < order.size(); position++) {
                String variant = order.get(position);
                for (int l = 0; l < LEVELS.size(); l++) {
                    int level = LEVELS.get(l);
                    int seconds = 300 + (rep - 1) * 200 + position * 30 + l * 10;
                    double rps = throughput(variant, level, rep, flaws);
                    double share = flaws && variant.equals("virtual-thread") && level == 500 && rep == 3 ? 0.05
                            : 0.008;
                    WindowResult plain = window(variant, level, "closed-" + level, rep, rps, seconds, share, null);
                    results.add(flaws ? flawed(plain) : plain);
                    if (level == 500 || rep == 1) { // recorded twins as the plan has them
                        double cost = variant.equals("reactive") && level == 500 ? WITHIN[rep - 1] : 1;
                        results.add(window(variant, level, "closed-" + level + "-jfr", rep, rps * 0.98 * cost,
                                seconds + 5, 0.008, null));
                    }
                }
                if (rep == 1 && variant.equals("reactive")) {
                    results.add(window(variant, 500, "open", 1, 1250, 300 + position * 30 + 20, 0.008, List.of(
                            new OpenStep(250, 1500, 250, 5.0, 8.0, 12.0, 30.0, 0),
                            new OpenStep(1000, 6000, 1000, 6.0, 10.0, 15.0, 40.0, 0),
                            new OpenStep(4000, 15000, 2500, 200.0, 600.0, 900.0, 1500.0, 900))));
                }
            }
        }
        for (int start = 1; start <= 2; start++) {
            for (String variant : VARIANTS) {
                results.warmUp(warmUp(variant, start, flaws && variant.equals("reactive") && start == 2));
            }
        }
        results.timeToPeak(timeToPeak("imperative", null, 1500));
        results.timeToPeak(timeToPeak("reactive", 95.0, 7000));
        Json.write(dir.resolve("manifest.json"), manifest(flaws));
        Json.write(dir.resolve("analysis.json"), Map.of("recordings", List.of(
                Map.of("variant", "blocking-event-loop", "window", "blocking-event-loop-closed-500-jfr-1",
                        "verdicts", List.of("the event loop waited in Thread.sleep"), "unexpected", List.of(),
                        "mistakes", List.of(Map.of("name", "blocking-event-loop", "harmful", true, "group",
                                "event loops", "evidence",
                                "vert.x-eventloop-thread-0 blocked 9.8 ms per request in Thread.sleep"))),
                Map.of("variant", "reactive", "window", "reactive-closed-500-jfr-1",
                        "verdicts", List.of("no thread waited for the downstream"), "unexpected", List.of(),
                        "mistakes", List.of()),
                // 12,345 virtual threads in 10 s and 13,579 in 10 s: a median of 1,296 per second
                Map.of("variant", "virtual-thread", "window", "virtual-thread-closed-500-jfr-1", "seconds", 10.0,
                        "virtual_threads_started", 12345, "verdicts", List.of(), "unexpected", List.of(),
                        "mistakes", List.of()),
                Map.of("variant", "virtual-thread", "window", "virtual-thread-closed-500-jfr-2", "seconds", 10.0,
                        "virtual_threads_started", 13579, "verdicts", List.of(), "unexpected", List.of(),
                        "mistakes", List.of())),
                "failures", List.of()));
    }

    private static double throughput(String variant, int level, int rep, boolean flaws) {
        if (flaws && variant.equals("virtual-thread") && level == 500) {
            return 3700 + 100 * rep; // 3800, 3900, 4000, 4100: CV 3.3 %, but only ever rising
        }
        if (flaws && variant.equals("imperative-rest") && level == 100) {
            return rep % 2 == 1 ? 1650 : 1350; // mean 1500, sd 173.2: CV 11.5 %
        }
        Profile p = PROFILES.get(variant);
        return p.rps()[LEVELS.indexOf(level)] * p.noise()[rep - 1];
    }

    /** The failed requests and the stall of the flawed run, in their windows. */
    private static WindowResult flawed(WindowResult w) {
        if (w.variant().equals("imperative-rest") && w.scenario().equals("closed-500") && w.repetition() == 2) {
            return with(w, 3, Map.of("timeout", 2L, "reset", 1L), w.load().perSecond());
        }
        if (w.variant().equals("reactive") && w.scenario().equals("closed-100") && w.repetition() == 2) {
            // seconds 4 and 5 at 200 and 100 req/s, against a median of 3,000: one stall of 2 s
            return with(w, w.load().errors(), w.load().errorCauses(), List.of(3000.0, 3000.0, 3000.0, 200.0, 100.0,
                    3000.0,
                    3000.0, 3000.0, 3000.0, 3000.0));
        }
        return w;
    }

    private static WindowResult with(WindowResult w, long errors, Map<String, Long> causes, List<Double> perSecond) {
        WindowResult.Load l = w.load();
        return new WindowResult(w.window(), w.at(), new WindowResult.Load(l.requests(), l.windowSeconds(),
                l.requestsPerSecond(), l.p50Ms(), l.p90Ms(), l.p99Ms(), l.maxMs(), l.meanMs(), errors, causes,
                l.inFlight(), l.droppedIterations(), perSecond, l.steps()), w.cpu(), w.memory(), w.instruments(),
                w.compiler(), w.gc(), w.threadGroups(), w.prediction());
    }

    private static WindowResult window(String variant, int level, String scenario, int rep, double rps,
                                       int startedAfter, double compilerShare, List<OpenStep> steps) {
        Profile p = PROFILES.get(variant);
        double down = 1 / p.noise()[rep - 1]; // CPU and latency go down when throughput goes up
        double cpuMs = p.cpuMs()[LEVELS.indexOf(level)] * down;
        double p99 = p.p99() * down;
        Windows w = steps != null ? Windows.open(variant, steps) : Windows.closed(variant, level, rps);
        if (scenario.endsWith("-jfr")) {
            w.recorded();
        }
        return w.repetition(rep).jvm((rep - 1) % 2 + 1).cpuMs(cpuMs).cpuCores(0.49).latency(p99 / 4, p99 / 2, p99,
                        p99 * 2.5).errors(p.errors(), p.errors() > 0 ? Map.of("timeout", p.errors()) : Map.of())
                .memory(p.rssMb() + RSS_OFFSET[rep - 1], p.threads(), p.heapUsedMb(), p.heapLiveMb(), p.liveThreads())
                .k6Cores(0.35).delayCores(0.1).delayServed(10.6).compilerShare(compilerShare)
                .yardstick(1000 + rep * 20) // the machine within 8 % of its fastest throughout
                .startedAt(RUN_START.plusSeconds(startedAfter)).build();
    }

    private static List<CompilerSample> samples(double peak) {
        List<CompilerSample> samples = new ArrayList<>();
        for (int i = 1; i <= 6; i++) {
            samples.add(new CompilerSample(2 * i, i <= 2 ? 2 : 0.5, 500, peak * Math.min(1, i / 4.0),
                    Math.max(0, 6 - 2 * i), Math.max(0, 40 - 10 * i), 4000 + 300 * i, 5_000_000 + 100_000 * i,
                    Math.max(4, 400 - 100 * i), 1));
        }
        return samples;
    }

    private static WarmUpResult warmUp(String variant, int start, boolean unfinished) {
        Profile p = PROFILES.get(variant);
        Map<String, Object> before = Map.of("availableProcessors", 1, "eventLoops", 1, "workerPoolMax", 200);
        Map<String, Object> after = unfinished ? Map.of("availableProcessors", 2, "eventLoops", 1,
                "workerPoolMax", 200) : before;
        WarmUpResult.Level top = unfinished
                ? new WarmUpResult.Level(500, 90, false, "compile queue not empty (C2 up to 12, C1 up to 0)", 0.06, 0.05,
                6500).again()
                : new WarmUpResult.Level(500, 24, true, "finished", 0.01, 0.02, p.rps()[1]);
        return new WarmUpResult(variant + "-jvm" + start, variant, start, "boosted to 2.0 CPUs at 500 users until"
                + " the compile queue drained, then each level at 0.50 CPU until the compiler was quiet", 0.5, 2.0,
                !unfinished, unfinished ? 260 : 80, unfinished ? 150 : 40, 3.0, unfinished ? null : 70.0,
                List.of(top, new WarmUpResult.Level(100, 12, true, "finished", 0.008, -0.01, p.rps()[0])),
                samples(p.rps()[1]), new WarmUpResult.Ergonomics(before, after, unfinished
                        ? List.of("availableProcessors: 1 -> 2") : List.of(), Map.of("JIT compiler", 2),
                        Map.of("JIT compiler", 2)), 60);
    }

    private static WarmUpResult timeToPeak(String variant, Double secondsToPeak, double peakRate) {
        return new WarmUpResult(variant + "-jvm3", variant, 3, "at 0.50 CPU from the JVM's start", 0.5, 0.5,
                secondsToPeak != null, 300, 0, 1.5, secondsToPeak,
                List.of(new WarmUpResult.Level(500, 300, secondsToPeak != null, secondsToPeak != null ? "finished"
                        : "compiler threads used 9.0 % of the quota", 0.01, 0.0, peakRate)),
                samples(peakRate), new WarmUpResult.Ergonomics(Map.of("availableProcessors", 1),
                        Map.of("availableProcessors", 1), List.of(), Map.of(), Map.of()), 60);
    }

    private static Map<String, Object> manifest(boolean flaws) {
        Map<String, Object> manifest = new LinkedHashMap<>();
        manifest.put("format", 3);
        manifest.put("completed", true);
        manifest.put("status", "completed");
        manifest.put("lab", Map.of("quarkus_version", "3.34.2", "runner_java_version", "25.0.1", "k6_version",
                "k6 v1.8.1", "kernel", "Linux 6.1", "cpu_model", "Test CPU", "machine_cores", 2,
                "machine_memory_mb", 8000, "git_sha", "0123456789abcdef", "git_dirty", false));
        manifest.put("confinement", Map.of("engine", "local", "method", "cgroup-v2", "limits_cpu", true,
                "variant_cpu_quota", 0.5, "warm_up_cpu_quota", 2.0, "delay_service_cpu_quota", "none"));
        manifest.put("jvm_flags", List.of("-Xms512m", "-Xmx512m", "-XX:+UseSerialGC"));
        manifest.put("knobs", Map.of("lab.delay.ms", 10, "quarkus.rest-client.delay.connection-pool-size", 1000));
        Map<String, Object> plan = new LinkedHashMap<>();
        plan.put("mode", "run");
        plan.put("delays_ms", List.of(10));
        plan.put("variants", VARIANTS);
        plan.put("closed_model_vus", LEVELS);
        plan.put("window_seconds", 10);
        plan.put("settle_seconds", 3);
        plan.put("jvm_starts", 2);
        plan.put("repetitions_per_jvm", 2);
        plan.put("repetitions", 4);
        plan.put("mistakes", Map.of("blocking-event-loop", "reactive"));
        manifest.put("plan", plan);
        manifest.put("schedule_as_run", List.of(
                step("start", "Starting 10 JVMs", 0.0, 14.2),
                step("warm-up", "Warming up reactive (JVM 2)", 14.2, 150.3),
                step("window", "reactive-closed-500-1 on reactive (JVM 1)", 857.0, flaws ? 103.0 : 13.0)));
        manifest.put("warnings", List.of());
        return manifest;
    }

    private static Map<String, Object> step(String kind, String what, double startedAt, double seconds) {
        return Map.of("kind", kind, "what", what, "started_at_seconds", startedAt, "seconds", seconds);
    }

}
