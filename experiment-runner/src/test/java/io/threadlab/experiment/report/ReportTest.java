package io.threadlab.experiment.report;

import io.threadlab.experiment.collect.Json;
import io.threadlab.experiment.collect.ResultsWriter;
import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.collect.CompilerSample;
import io.threadlab.experiment.collect.OpenStep;
import io.threadlab.experiment.collect.WarmUpResult;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Two results directories written as the runner writes them (windows and warm-ups through {@link ResultsWriter}), with
 * chosen numbers: a clean run, and the same run with flaws the validity checks must catch. Their reports are read back
 * against numbers computed by hand.
 *
 * <p>Every throughput is a variant's level times 1.02^k, k a noise pattern over the four repetitions (2 JVM starts x
 * 2 repetitions; repetition r ran on JVM start (r - 1) % 2 + 1). CPU per request and latency carry 1.02^-k. Patterns:
 * NONE (0, 0, 0, 0); P1 (1, -1, -1, 1); P2 (1, 1, -1, -1). A paired ratio's logs then differ by a pattern too:
 * <ul>
 * <li>P1 or P2 (or minus either): each JVM start's two logs are +-e (e = ln 1.02 = 0.0198026), JVM means equal, so
 * the within-JVM variance 4e^2 / (4 - 2) = 2e^2 is used: se = sqrt(2e^2 / 4) = 0.0140026, t(2) = 4.303, half-width
 * h1 = 0.0602531 -> the ratio times 0.941526 .. 1.062105;</li>
 * <li>P2 - P1 = (0, 2, 0, -2): within 8e^2 / 2 = 4e^2, se = e, half-width h2 = 4.303e = 0.0852107 -> times
 * 0.918319 .. 1.088946;</li>
 * <li>equal patterns: the exact ratio, with a collapsed interval.</li>
 * </ul>
 */
class ReportTest {

    private static final List<String> VARIANTS = List.of("imperative", "reactive", "virtual-thread",
            "imperative-rest", "blocking-event-loop");
    private static final List<Integer> LEVELS = List.of(100, 500);
    private static final int REPETITIONS = 4;
    private static final int[] NONE = {0, 0, 0, 0};
    private static final int[] P1 = {1, -1, -1, 1};
    private static final int[] P2 = {1, 1, -1, -1};
    /** RSS per repetition around a variant's own: the median of +-4, 0, +10 is +2. */
    private static final int[] RSS_OFFSET = {-4, 4, 0, 10};
    private static final Instant RUN_START = Instant.parse("2026-11-22T09:30:00Z");

    /** What a variant measured, at 100 and 500 users. */
    private record Profile(double[] rps, double[] cpuMs, double p99, double rssMb, double heapUsedMb,
                           double heapLiveMb, double liveThreads, int threads, int[] noise, long errors) {
    }

    private static final Map<String, Profile> PROFILES = Map.of(
            "imperative", new Profile(new double[] {1000, 2000}, new double[] {0.40, 0.50}, 80, 320, 180, 60, 230,
                    250, NONE, 0),
            "reactive", new Profile(new double[] {3000, 7000}, new double[] {0.16, 0.15}, 40, 250, 120, 40, 30, 45,
                    P1, 0),
            "virtual-thread", new Profile(new double[] {1000, 4000}, new double[] {0.30, 0.25}, 52, 260, 130, 45, 32,
                    50, P1, 0),
            "imperative-rest", new Profile(new double[] {1500, 3000}, new double[] {0.24, 0.30}, 60, 300, 150, 50,
                    228, 248, P2, 0),
            "blocking-event-loop", new Profile(new double[] {750, 1750}, new double[] {0.48, 0.60}, 400, 250, 120,
                    40, 30, 45, NONE, 12));

    @TempDir
    static Path root;

    static Path clean;
    static Path flawed;
    static Report.Written report;
    static Report.Written flawedReport;

    @BeforeAll
    static void writeTwoRunsAndTheirReports() throws IOException {
        clean = Files.createDirectories(root.resolve("2026-11-22T09-30-00Z"));
        flawed = Files.createDirectories(root.resolve("2026-11-22T10-30-00Z"));
        writeRun(clean, false);
        writeRun(flawed, true);
        report = Report.write(clean);
        flawedReport = Report.write(flawed);
    }

    // ---- the runs ----------------------------------------------------------------------------------------------

    /**
     * The flawed run differs in: reactive's second JVM never finished its warm-up and changed its sizes with the
     * boost; one window of virtual-thread at 500 users had a busy compiler; virtual-thread at 500 users only ever
     * rose; imperative-rest at 100 users is noisy; the run took 16 minutes.
     */
    private static void writeRun(Path dir, boolean flaws) throws IOException {
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
                    results.add(window(variant, level, "closed-" + level, rep, rps, seconds, share, null));
                    if (level == 500 || rep == 1) { // recorded twins as the plan has them
                        double cost = variant.equals("reactive") && level == 500 ? Math.pow(1.02, P2[rep - 1]) : 1;
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
        return p.rps()[LEVELS.indexOf(level)] * Math.pow(1.02, p.noise()[rep - 1]);
    }

    private static WindowResult window(String variant, int level, String scenario, int rep, double rps,
                                       int startedAfter, double compilerShare, List<OpenStep> steps) {
        Profile p = PROFILES.get(variant);
        double down = Math.pow(1.02, -p.noise()[rep - 1]); // CPU and latency go down when throughput goes up
        double cpuMs = p.cpuMs()[LEVELS.indexOf(level)] * down;
        double p99 = p.p99() * down;
        boolean twin = scenario.endsWith("-jfr");
        String jfrFile = twin ? "jfr/" + variant + "-" + scenario + "-" + rep + ".jfr" : null;
        return new WindowResult(variant, scenario, rep, (rep - 1) % 2 + 1, rps, p99 / 4, p99 / 2, p99, p99 * 2.5,
                p.errors(), rps * 10 * cpuMs / 1000, cpuMs, p.rssMb() + RSS_OFFSET[rep - 1], p.threads(), 3.5, 0,
                100, Math.round(rps * 10), 10.0, twin, 100, 0.49, true, 1.0, 10.6, jfrFile,
                RUN_START.plusSeconds(startedAfter).toString(), compilerShare * 0.5 * 10_000, compilerShare, 2.0,
                p.heapLiveMb(), p.heapUsedMb(), p.liveThreads(), 6.0, true, Map.of(), List.of(), steps, null, Map.of(), null,
                null, null, null, null, null, null, null, null);
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
                6500)
                : new WarmUpResult.Level(500, 24, true, "finished", 0.01, 0.02, p.rps()[1]);
        return new WarmUpResult(variant + "-jvm" + start, variant, start, "boosted to 2.0 CPUs at 500 users until"
                + " the compile queue drained, then each level at 0.50 CPU until the compiler was quiet", 0.5, 2.0,
                !unfinished, unfinished ? 260 : 80, unfinished ? 150 : 40, 3.0, unfinished ? null : 70.0,
                List.of(top, new WarmUpResult.Level(100, 12, true, "finished", 0.008, -0.01, p.rps()[0])),
                samples(p.rps()[1]), before, after, unfinished ? List.of("availableProcessors: 1 -> 2") : List.of(),
                Map.of("JIT compiler", 2), Map.of("JIT compiler", 2));
    }

    private static WarmUpResult timeToPeak(String variant, Double secondsToPeak, double peakRate) {
        return new WarmUpResult(variant + "-jvm3", variant, 3, "at 0.50 CPU from the JVM's start", 0.5, 0.5,
                secondsToPeak != null, 300, 0, 1.5, secondsToPeak,
                List.of(new WarmUpResult.Level(500, 300, secondsToPeak != null, secondsToPeak != null ? "finished"
                        : "compiler threads used 9.0 % of the quota", 0.01, 0.0, peakRate)),
                samples(peakRate), Map.of("availableProcessors", 1), Map.of("availableProcessors", 1), List.of(),
                Map.of(), Map.of());
    }

    private static Map<String, Object> manifest(boolean flaws) {
        Map<String, Object> manifest = new LinkedHashMap<>();
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

    private static String markdown(Report.Written written) throws IOException {
        return Files.readString(written.markdown());
    }

    private static String html(Report.Written written) throws IOException {
        return Files.readString(written.html());
    }

    /** From a heading to the next one. */
    private static String section(String markdown, String heading) {
        int start = markdown.indexOf(heading);
        assertThat(start).as(heading).isNotNegative();
        int end = markdown.indexOf("\n## ", start + heading.length());
        return markdown.substring(start, end < 0 ? markdown.length() : end);
    }

    /** The first line of the markdown that starts with the given text. */
    private static String line(String markdown, String start) {
        return markdown.lines().filter(l -> l.startsWith(start)).findFirst()
                .orElseThrow(() -> new AssertionError("no line starting with " + start + " in\n" + markdown));
    }

    // ---- the answer ----------------------------------------------------------------------------------------------

    @Test
    void theHeadlineGivesEachVariantsPairedRatiosAndSaysWithinNoiseWhereTheIntervalContainsOne() throws IOException {
        // throughput: reactive 3 and 3.5, virtual-thread 1 and 2, imperative-rest 1.5 and 1.5 times imperative's
        // (intervals: x 0.941526 .. 1.062105); CPU per request 0.16 / 0.40, 0.30 / 0.40, 0.24 / 0.40 at 100 users
        // and 0.15 / 0.50, 0.25 / 0.50, 0.30 / 0.50 at 500
        assertThat(markdown(report)).contains("**At 100 users: "
                + "reactive 3.00× (95 % CI 2.82–3.19) the imperative throughput"
                + " at 0.40× (95 % CI 0.38–0.42) the CPU per request; "
                + "virtual-thread 1.00× (95 % CI 0.94–1.06) the imperative throughput (within noise)"
                + " at 0.75× (95 % CI 0.71–0.80) the CPU per request; "
                + "imperative-rest 1.50× (95 % CI 1.41–1.59) the imperative throughput"
                + " at 0.60× (95 % CI 0.56–0.64) the CPU per request.**",
                "**At 500 users: "
                + "reactive 3.50× (95 % CI 3.30–3.72) the imperative throughput"
                + " at 0.30× (95 % CI 0.28–0.32) the CPU per request; "
                + "virtual-thread 2.00× (95 % CI 1.88–2.12) the imperative throughput"
                + " at 0.50× (95 % CI 0.47–0.53) the CPU per request; "
                + "imperative-rest 1.50× (95 % CI 1.41–1.59) the imperative throughput"
                + " at 0.60× (95 % CI 0.56–0.64) the CPU per request.**");
    }

    @Test
    void theRatiosAgainstImperativeArePairedAndTheMistakesAreNotAmongThem() throws IOException {
        String md = markdown(report);
        // p99: 52 / 80 = 0.65 and 40 / 80 = 0.5, with the same intervals
        assertThat(md).contains(
                "| 100 | virtual-thread | 1.00× (95 % CI 0.94–1.06), within noise | 0.65× (95 % CI 0.61–0.69)"
                        + " | 0.75× (95 % CI 0.71–0.80) |",
                "| 500 | reactive | 3.50× (95 % CI 3.30–3.72) | 0.50× (95 % CI 0.47–0.53) | 0.30× (95 % CI 0.28–0.32) |");
        assertThat(section(md, "## Against the imperative variant")).contains("| 100 | reactive | ")
                .doesNotContain("blocking-event-loop");
        assertThat(html(report)).contains("<td class=\"noise\">1.00× (95 % CI 0.94–1.06), within noise</td>");
    }

    @Test
    void aSummaryCellIsTheMedianWithTheIntervalOfTheGeometricMean() throws IOException {
        String md = markdown(report);
        // reactive at 100 users: 3060, 2941.18, 2941.18, 3060 -> median 3000.59; 3000 x 0.941526 .. 1.062105;
        // CV: sd 68.60 of 3000.59 = 2.3 %; 4 repetitions from 2 JVM starts
        String reactive = line(md, "| 100 | reactive | ");
        assertThat(reactive).startsWith("| 100 | reactive | 3,001 [2,825–3,186] | ").endsWith("| 2.3 % | 4 (2) |");
        // imperative's repetitions are equal: a collapsed interval shows the median alone
        assertThat(line(md, "| 100 | imperative | ")).startsWith("| 100 | imperative | 1,000 | ");
        assertThat(html(report)).contains("within JVM starts (no excess spread between them)");
    }

    @Test
    void theStackAndTheThreadingModelSplitTheImperativeVariantsCost() throws IOException {
        String md = markdown(report);
        assertThat(md).contains("## Stack or threading model?");
        // throughput, 100 users: imperative / reactive 1/3 (x h1), imperative / imperative-rest 1/1.5 (x h1),
        // imperative-rest / reactive 0.5 (P2 - P1: x 0.918319 .. 1.088946); stack's share ln(2/3) / ln(1/3) = 36.9 %
        assertThat(md).contains("| 100 | throughput vs reactive | 0.33× (95 % CI 0.31–0.35) | 0.67× (95 % CI 0.63–0.71)"
                + " | 0.50× (95 % CI 0.46–0.54) | 36.9 % |");
        // CPU per request, 100 users: 0.40 / 0.16 = 2.5, 0.40 / 0.24 = 1.667, 0.24 / 0.16 = 1.5;
        // share ln(1.6667) / ln(2.5) = 55.7 %
        assertThat(md).contains("| 100 | CPU per request vs reactive | 2.50× (95 % CI 2.35–2.66) | 1.67× (95 % CI"
                + " 1.57–1.77) | 1.50× (95 % CI 1.38–1.63) | 55.7 % |");
        // CPU per request, 500 users: 0.50 / 0.15 = 3.333, 0.50 / 0.30 = 1.667, 0.30 / 0.15 = 2;
        // share ln(1.6667) / ln(3.3333) = 42.4 %
        assertThat(md).contains("| 500 | CPU per request vs reactive | 3.33× (95 % CI 3.14–3.54) | 1.67× (95 % CI"
                + " 1.57–1.77) | 2.00× (95 % CI 1.84–2.18) | 42.4 % |");
    }

    @Test
    void theStacksShareOfATotalWithinNoiseIsNotGiven() throws IOException {
        assertThat(line(markdown(report), "| 100 | throughput vs virtual-thread | ")).endsWith("| – |");
    }

    @Test
    void memoryAndThreadsAreTheMediansOfTheRepetitions() throws IOException {
        String md = markdown(report);
        assertThat(md).contains("| users | variant | RSS (MB) | heap used (MB) | live after GC (MB) | platform threads"
                + " | OS threads | ");
        // RSS 320 + (-4, 4, 0, 10): median 322
        assertThat(md).contains("| 100 | imperative | 322 | 180 | 60 | 230 | 250 | ",
                "| 500 | reactive | 252 | 120 | 40 | 30 | 45 | ");
    }

    @Test
    void virtualThreadsStartedPerSecondComeFromTheRecordedWindows() throws IOException {
        String md = markdown(report);
        md = md.substring(md.indexOf("## Memory and threads"));
        assertThat(md).contains(" | OS threads | virtual threads started /s (recorded windows) |");
        assertThat(line(md, "| 500 | virtual-thread | ")).endsWith("| 1,296 |");
        assertThat(line(md, "| 500 | reactive | ")).endsWith("| – |");
        assertThat(line(md, "| 100 | virtual-thread | ")).endsWith("| – |");
    }

    // ---- validity -------------------------------------------------------------------------------------------------

    @Test
    void everyValidityCheckOfTheCleanRunPassesOnItsNumbers() throws IOException {
        String md = markdown(report);
        List<String> checks = md.lines().dropWhile(l -> !l.equals("## Validity checks")).skip(4)
                .takeWhile(l -> l.startsWith("| ")).toList();
        assertThat(checks).hasSize(14).allSatisfy(c -> assertThat(c).contains(" | passed | "));
        assertThat(md).contains(
                "| Every JVM's compiler finished before its first window | passed | compile queue empty and compiler"
                        + " threads at most 2.0 % of the quota at every level, after imperative-jvm1 80 s, ",
                "| The warm-up's boost changed nothing the JVM sized at the quota | passed | availableProcessors,",
                "identical before and after the boost to 2.0 CPUs, in every JVM |",
                "| The compiler stayed quiet in every measured window | passed |",
                "| Every cell's throughput CV is at most 5.0 % | passed |",
                "| No cell's repetitions only ever rise (still warming up) | passed | none |",
                "| The run took at most 15 min | passed | 14.5 min from the first step to the last (build excluded) |",
                // the twins: 0.98 of their plain window, reactive's at 500 users with noise P2
                "reactive@100 0.98× (1 pairs), reactive@500 0.98× (95 % CI 0.92–1.04) (4 pairs)");
    }

    @Test
    void theFlawsFailTheirChecksAndAnUnfinishedJvmIsNotAFinding() throws IOException {
        String md = markdown(flawedReport);
        assertThat(md).contains(
                "| Every JVM's compiler finished before its first window | **FAILED** | NOT FINISHED: [reactive-jvm2"
                        + " (500 users: compile queue not empty (C2 up to 12, C1 up to 0))]; ",
                "| The warm-up's boost changed nothing the JVM sized at the quota | **FAILED** | CHANGED:"
                        + " [reactive-jvm2 [\"availableProcessors: 1 -> 2\"]] |",
                "| The compiler stayed quiet in every measured window | **FAILED** | 1 windows above 2.0 %:"
                        + " virtual-thread closed-500 rep 3 (5.0 %) |",
                "| Every cell's throughput CV is at most 5.0 % | **FAILED** | ABOVE: [imperative-rest@100]; ",
                "imperative-rest@100 11.5 %",
                "| No cell's repetitions only ever rise (still warming up) | **FAILED** | virtual-thread@500"
                        + " [3800, 3900, 4000, 4100] |",
                "| The run took at most 15 min | **FAILED** | 16.0 min");
        assertThat(md).contains("| Confinement held | passed |", "| No errors | passed |", "| Run completed | passed |");
        assertThat(line(md, "**At 100 users: ")).contains("reactive 3.00× (95 % CI 2.82–3.19) the imperative"
                + " throughput at 0.40× (95 % CI 0.38–0.42) the CPU per request — NOT A FINDING: its compiler had not"
                + " finished;").doesNotContain("virtual-thread 1.00× (95 % CI 0.94–1.06) the imperative throughput"
                + " (within noise) at 0.75× (95 % CI 0.71–0.80) the CPU per request — NOT A FINDING");
        assertThat(html(flawedReport)).contains("<p class=\"alarm\">Not a finding: the compiler of reactive had not"
                + " finished when its warm-up gave up");
        assertThat(html(report)).doesNotContain("class=\"alarm\"");
    }

    // ---- warm-up, the recording's cost, mistakes ---------------------------------------------------------------------

    @Test
    void theWarmUpTableShowsEachJvmsLevelsAndWhetherItFinished() throws IOException {
        assertThat(markdown(report)).contains("| imperative-jvm1 | 40 | 500 users: quiet in 24 s, 2,000 req/s;"
                + " 100 users: quiet in 12 s, 1,000 req/s | yes |");
        assertThat(markdown(flawedReport)).contains("| reactive-jvm2 | 150 | 500 users: not quiet (compile queue not"
                + " empty (C2 up to 12, C1 up to 0)); 100 users: quiet in 12 s, 3,000 req/s | **NO** |");
    }

    @Test
    void timeToPeakHasItsTableAndChart() throws IOException {
        assertThat(markdown(report)).contains("### Time to peak at the quota",
                "| imperative | not within the ceiling | 1,500 |", "| reactive | 95 | 7,000 |");
        assertThat(html(report)).contains("<figure class=\"chart\" id=\"chart-time-to-peak\"><svg",
                "<td>95 s</td><td>7,000</td>");
        assertThat(clean.resolve("charts/time-to-peak.svg")).isNotEmptyFile();
    }

    @Test
    void theRecordingsCostIsAPairedRatioPerVariantAndLevel() {
        Map<Integer, Stats.Ratio> reactive = new Findings(read(clean)).jfrOverhead().get("reactive");
        // 100 users: the twin of repetition 1 only, no interval; 500 users: 4 pairs, 0.98 x 0.941526 .. 1.062105
        assertThat(reactive.get(100).pairs()).isEqualTo(1);
        assertThat(reactive.get(100).ratio()).isCloseTo(0.98, within(1e-9));
        assertThat(reactive.get(100).low()).isNaN();
        assertThat(reactive.get(500).pairs()).isEqualTo(4);
        assertThat(reactive.get(500).low()).isCloseTo(0.922696, within(1e-6));
        assertThat(reactive.get(500).high()).isCloseTo(1.040863, within(1e-6));
    }

    @Test
    void aMistakesCardComparesItWithWhatItSpoilsAndQuotesTheAnalysisEvidence() throws IOException {
        // against reactive: throughput 750 / 3000 = 0.25, p99 400 / 40 = 10, CPU 0.48 / 0.16 = 3 (all x h1)
        assertThat(markdown(report)).contains("### blocking-event-loop (against reactive)",
                "- at 100 users: throughput 0.25× (95 % CI 0.24–0.27), p99 10.00× (95 % CI 9.42–10.62),"
                        + " CPU per request 3.00× (95 % CI 2.82–3.19)",
                "- evidence: blocking-event-loop-closed-500-jfr-1: vert.x-eventloop-thread-0 blocked 9.8 ms per"
                        + " request in Thread.sleep");
        assertThat(html(report)).contains("<li>blocking-event-loop-closed-500-jfr-1: vert.x-eventloop-thread-0"
                + " blocked 9.8 ms per request in Thread.sleep</li>");
    }

    @Test
    void theScheduleAsRunIsInTheSetup() throws IOException {
        assertThat(html(report)).contains("<summary>The schedule, as run</summary>",
                "<tr><td>warm-up</td><td>Warming up reactive (JVM 2)</td><td>14 s</td><td>150 s</td></tr>");
    }

    @Test
    void theOpenModelKneeAndThePublishedClaimsComeFromTheRun() throws IOException {
        assertThat(Findings.knee(new Findings(read(clean)).openSteps().get("reactive"))).contains(1000);
        assertThat(markdown(report)).contains("reactive / imperative throughput at 500 users: 3.50× (95 % CI 3.30–3.72)"
                + " (claim 1.30×)");
    }

    @Test
    void aMistakesReferenceIsNotOneOfTheVariantsThatAnswerTheQuestion() throws IOException {
        Path gallery = Files.createDirectories(root.resolve("gallery"));
        List<Map<String, Object>> windows = new ArrayList<>();
        for (String variant : List.of("imperative", "reactive", "cpu-on-worker", "cpu-on-event-loop")) {
            for (int rep = 1; rep <= 2; rep++) {
                windows.add(Map.of("variant", variant, "scenario", "closed-100", "repetition", rep, "jvm", 1,
                        "requests_per_second", 1000.0 * rep, "cpu_ms_per_request", 0.4));
            }
        }
        Json.write(gallery.resolve("results.json"), Map.of("windows", windows));
        Json.write(gallery.resolve("manifest.json"), Map.of("plan", Map.of("variants",
                List.of("imperative", "reactive", "cpu-on-worker", "cpu-on-event-loop"), "closed_model_vus",
                List.of(100), "mistakes", Map.of("cpu-on-event-loop", "cpu-on-worker"), "roles", Map.of(
                "imperative", "MODEL", "reactive", "MODEL", "cpu-on-worker", "REFERENCE",
                "cpu-on-event-loop", "MISTAKE"))));
        Findings findings = new Findings(RunData.read(gallery));
        assertThat(findings.mainVariants()).containsExactly("imperative", "reactive");
        assertThat(findings.headline()).noneMatch(h -> h.contains("cpu-on-worker"));
    }

    // ---- the html -----------------------------------------------------------------------------------------------

    /** Every chart figure of the html, by id; the warm-up pictures have none. */
    private static List<String> chartFigures(String html) {
        Matcher figures = Pattern.compile("<figure class=\"chart\"(?: id=\"chart-([^\"]+)\")?><svg").matcher(html);
        List<String> ids = new ArrayList<>();
        while (figures.find()) {
            ids.add(figures.group(1) == null ? "warm-up" : figures.group(1));
        }
        return ids;
    }

    @Test
    void theHtmlIsSelfContainedWithEveryChartInline() throws IOException {
        String html = html(report);
        assertThat(html).startsWith("<!DOCTYPE html>").contains("<style>");
        assertThat(html).doesNotContainPattern("(src|href)=\"(https?:)?//");
        assertThat(html).doesNotContain("<script src", "<link rel=\"stylesheet\"", "<img");
        // Charts.all's 7, the time to peak, and a warm-up picture per variant (the first JVM's)
        List<String> figures = chartFigures(html);
        assertThat(figures.stream().distinct()).containsExactlyInAnyOrder("throughput-100", "throughput-500",
                "cpu-per-request", "latency-100", "latency-500", "jfr-overhead", "latency-vs-offered-load",
                "time-to-peak", "warm-up");
        assertThat(figures.stream().filter(f -> f.equals("warm-up"))).hasSize(VARIANTS.size());
        try (Stream<Path> files = Files.list(clean.resolve("charts"))) {
            assertThat(files.map(f -> f.getFileName().toString())).containsExactlyInAnyOrder("throughput-100.svg",
                    "throughput-500.svg", "cpu-per-request.svg", "latency-100.svg", "latency-500.svg",
                    "jfr-overhead.svg", "latency-vs-offered-load.svg", "time-to-peak.svg");
        }
    }

    @Test
    void everyChartIsInTheHtmlOnce() throws IOException {
        List<String> figures = chartFigures(html(report));
        assertThat(figures).hasSize(13); // 8 charts, and 5 warm-up pictures
        assertThat(figures.stream().filter(f -> !f.equals("warm-up"))).doesNotHaveDuplicates();
    }

    @Test
    void theHtmlRendersInARealBrowser() throws Exception {
        Path chromium = Stream.of("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")
                .map(Path::of).filter(Files::isExecutable).findFirst().orElse(null);
        Assumptions.assumeTrue(chromium != null,
                "the browser check of report.html needs Chromium on this machine (apt-get install chromium)");
        Path profile = Files.createTempDirectory("chromium-profile");
        Path screenshot = Path.of("target/report-screenshot.png").toAbsolutePath();
        Files.deleteIfExists(screenshot);
        List<String> flags = List.of("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--user-data-dir=" + profile, "--window-size=1340,2400", "--virtual-time-budget=5000");
        String dom = run(chromium, flags, "--dump-dom", report.html().toUri().toString());
        Matcher rendered = Pattern.compile("data-charts-rendered=\"(\\d+)\"").matcher(dom);
        assertThat(rendered.find()).as("the page's check ran").isTrue();
        assertThat(Integer.parseInt(rendered.group(1))).as("chart figures drawn with a size")
                .isEqualTo(chartFigures(html(report)).size()).isGreaterThanOrEqualTo(13);
        assertThat(dom).doesNotContain("data-errors=");
        run(chromium, flags, "--screenshot=" + screenshot, report.html().toUri().toString());
        assertThat(screenshot).isNotEmptyFile();
    }

    private static String run(Path chromium, List<String> flags, String... more) throws Exception {
        List<String> command = new ArrayList<>(List.of(chromium.toString()));
        command.addAll(flags);
        command.addAll(List.of(more));
        Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(process.getInputStream().readAllBytes());
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return out;
    }

    private static RunData read(Path dir) {
        try {
            return RunData.read(dir);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }
}
