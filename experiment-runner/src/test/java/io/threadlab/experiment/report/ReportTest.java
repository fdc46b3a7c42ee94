package io.threadlab.experiment.report;

import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.Point;
import io.threadlab.experiment.report.landscape.SloCapacity;

import io.threadlab.experiment.collect.Json;
import io.threadlab.experiment.plan.Variant;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The reports of {@link TwoRuns}, a clean run and a flawed one, read back against numbers computed by hand (see
 * {@link TwoRuns} for how they were chosen and what the intervals come to).
 */
class ReportTest {

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
        TwoRuns.write(clean, false);
        TwoRuns.write(flawed, true);
        report = Report.write(clean);
        flawedReport = Report.write(flawed);
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
    void theHeadlineGivesEachVariantsRatioFromTheJvmStartsOfEachAndSaysWithinNoiseWhereItsIntervalContainsOne()
            throws IOException {
        // throughput: reactive 3 and 3.5, virtual-thread 1 and 2, imperative-rest 1.5 and 1.5 times imperative's
        // (intervals: reactive and virtual-thread x 0.978768 .. 1.021693, imperative-rest x 0.949851 .. 1.052797);
        // CPU per request 0.16 / 0.40, 0.30 / 0.40, 0.24 / 0.40 at 100 users and 0.15 / 0.50, 0.25 / 0.50,
        // 0.30 / 0.50 at 500
        assertThat(markdown(report)).contains("**At 100 users: "
                + "reactive 3.00× (95 % CI 2.94–3.07) the imperative throughput"
                + " at 0.40× (95 % CI 0.39–0.41) the CPU per request; "
                + "virtual-thread 1.00× (95 % CI 0.98–1.02) the imperative throughput (within noise)"
                + " at 0.75× (95 % CI 0.73–0.77) the CPU per request; "
                + "imperative-rest 1.50× (95 % CI 1.42–1.58) the imperative throughput"
                + " at 0.60× (95 % CI 0.57–0.63) the CPU per request.**",
                "**At 500 users: "
                + "reactive 3.50× (95 % CI 3.43–3.58) the imperative throughput"
                + " at 0.30× (95 % CI 0.29–0.31) the CPU per request; "
                + "virtual-thread 2.00× (95 % CI 1.96–2.04) the imperative throughput"
                + " at 0.50× (95 % CI 0.49–0.51) the CPU per request; "
                + "imperative-rest 1.50× (95 % CI 1.42–1.58) the imperative throughput"
                + " at 0.60× (95 % CI 0.57–0.63) the CPU per request.**");
    }

    @Test
    void theRatiosAgainstImperativeComeFromEachSidesJvmStartsAndTheMistakesAreNotAmongThem() throws IOException {
        String md = markdown(report);
        // p99: 52 / 80 = 0.65 and 40 / 80 = 0.5, with the same intervals
        assertThat(md).contains(
                "| 100 | virtual-thread | 1.00× (95 % CI 0.98–1.02), within noise | 0.65× (95 % CI 0.64–0.66)"
                        + " | 0.75× (95 % CI 0.73–0.77) |",
                "| 500 | reactive | 3.50× (95 % CI 3.43–3.58) | 0.50× (95 % CI 0.49–0.51) | 0.30× (95 % CI 0.29–0.31) |");
        assertThat(section(md, "## Against the imperative variant")).contains("| 100 | reactive | ")
                .doesNotContain("blocking-event-loop");
        assertThat(html(report)).contains("<td class=\"noise\">1.00× (95 % CI 0.98–1.02), within noise</td>");
    }

    @Test
    void aSummaryCellIsTheMedianWithTheIntervalOfTheGeometricMean() throws IOException {
        String md = markdown(report);
        // imperative-rest at 100 users: 1530, 1530, 1470.59, 1470.59 -> median 1500.29; from the spread within its
        // JVM starts (their means agree): 1500 x 0.949851 .. 1.052797; CV: sd 34.30 of 1500.29 = 2.3 %
        String withinJvms = line(md, "| 100 | imperative-rest | ");
        assertThat(withinJvms).startsWith("| 100 | imperative-rest | 1,500 [1,412–1,593] | ")
                .endsWith("| 2.3 % | 4 (2) |");
        // reactive at 100 users: JVM means 3015 and 2985.07, from the spread between them (1 degree of freedom)
        assertThat(line(md, "| 100 | reactive | ")).startsWith("| 100 | reactive | 3,000 [2,816–3,196] | ")
                .endsWith("| 0.6 % | 4 (2) |");
        // imperative's repetitions are equal: a collapsed interval shows the median alone
        assertThat(line(md, "| 100 | imperative | ")).startsWith("| 100 | imperative | 1,000 | ");
        assertThat(html(report)).contains("within JVM starts (no excess spread between them)");
    }

    @Test
    void theStackAndTheThreadingModelSplitTheImperativeVariantsCost() throws IOException {
        String md = markdown(report);
        assertThat(md).contains("## Stack or threading model?");
        // throughput, 100 users: imperative / reactive 1/3 (x 0.978768 .. 1.021693), imperative / imperative-rest
        // 1/1.5 (x 0.949851 .. 1.052797), imperative-rest / reactive 0.5 (x 0.948327 .. 1.054489); stack's share
        // ln(2/3) / ln(1/3) = 36.9 %
        assertThat(md).contains("| 100 | throughput vs reactive | 0.33× (95 % CI 0.33–0.34) | 0.67× (95 % CI 0.63–0.70)"
                + " | 0.50× (95 % CI 0.47–0.53) | 36.9 % |");
        // CPU per request, 100 users: 0.40 / 0.16 = 2.5, 0.40 / 0.24 = 1.667, 0.24 / 0.16 = 1.5;
        // share ln(1.6667) / ln(2.5) = 55.7 %
        assertThat(md).contains("| 100 | CPU per request vs reactive | 2.50× (95 % CI 2.45–2.55) | 1.67× (95 % CI"
                + " 1.58–1.75) | 1.50× (95 % CI 1.42–1.58) | 55.7 % |");
        // CPU per request, 500 users: 0.50 / 0.15 = 3.333 (x 0.978768 .. 1.021693), 0.50 / 0.30 = 1.667
        // (x 0.949851 .. 1.052797), 0.30 / 0.15 = 2 (x 0.948327 .. 1.054489);
        // share ln(1.6667) / ln(3.3333) = 42.4 %
        assertThat(md).contains("| 500 | CPU per request vs reactive | 3.33× (95 % CI 3.26–3.41) | 1.67× (95 % CI"
                + " 1.58–1.75) | 2.00× (95 % CI 1.90–2.11) | 42.4 % |");
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
        List<String> checks = md.lines().dropWhile(l -> !l.equals("## Validity checks"))
                .dropWhile(l -> !l.startsWith("| check |")).skip(2).takeWhile(l -> l.startsWith("| ")).toList();
        assertThat(checks).hasSize(19).allSatisfy(c -> assertThat(c).contains(" | passed | "));
        assertThat(md).contains(
                "| Every JVM's compiler finished before its first window | passed | compile queue empty and compiler"
                        + " threads at most 2.0 % of the quota at every level, after imperative-jvm1 80 s, ",
                "| The warm-up's boost changed nothing the JVM sized at the quota | passed | availableProcessors,",
                "identical before and after the boost to 2.0 CPUs, in every JVM |",
                "| The compiler stayed quiet in every measured window | passed |",
                "| Every cell's throughput CV is at most 5.0 % | passed |",
                "| No cell's repetitions only ever rise (still warming up) | passed | none of 10 cells (a cell needs"
                        + " three windows to be judged) |",
                "| The machine kept its speed (the runner's fixed piece of work within 15 % of its fastest window's"
                        + " CPU in every window) | passed | 66 of 66 windows within 15 % of the fastest, 1020 CPU-µs a"
                        + " piece |",
                "| JVM starts agree within 10.0 % | passed | largest over smallest JVM mean, minus 1: imperative@100"
                        + " 0.0 %, reactive@100 1.0 %,",
                "| Every step ended by itself: within its ceiling, its services answering | passed | 3 steps, each within"
                        + " its ceiling |",
                "| The run took at most 15 min | passed | 14.5 min from the first step to the last (build excluded) |",
                // the twins: 0.98 of their plain window, reactive's at 500 users with noise P2
                "reactive@100 0.98× (1 pair), reactive@500 0.98× (95 % CI 0.92–1.04) (4 pairs)",
                "| No errors | passed | 0 failed requests in 53 windows of the variants (the mistakes' own are in"
                        + " their cards) |",
                // 5 variants x (8 plain + 5 recorded) windows in the closed model
                "| No window stalled | passed | no closed-model window had a second below 25 % of its window's"
                        + " steady rate (65 windows) |",
                "| Every planned point was measured | passed | no point lost |");
    }

    @Test
    void theFlawsFailTheirChecksAndAnUnfinishedJvmIsNotAFinding() throws IOException {
        String md = markdown(flawedReport);
        assertThat(md).contains(
                "| Every JVM's compiler finished before its first window | **FAILED** | NOT FINISHED: [reactive-jvm2"
                        + " (500 users: compile queue not empty (C2 up to 12, C1 up to 0))]; ",
                "| The warm-up's boost changed nothing the JVM sized at the quota | **FAILED** | CHANGED:"
                        + " [reactive-jvm2 [availableProcessors: 1 -> 2]] |",
                "| The compiler stayed quiet in every measured window | **FAILED** | 1 windows above 2.0 %:"
                        + " virtual-thread closed-500 rep 3 (5.0 %) |",
                "| Every cell's throughput CV is at most 5.0 % | **FAILED** | ABOVE: [imperative-rest@100]; ",
                "imperative-rest@100 11.5 %",
                "| No cell's repetitions only ever rise (still warming up) | **FAILED** | virtual-thread@500"
                        + " [3800, 3900, 4000, 4100] |",
                "| The run took at most 15 min | **FAILED** | 16.0 min");
        assertThat(md).contains("| Confinement held | passed |", "| Run completed | passed |");
        assertThat(line(md, "**At 100 users: ")).contains("reactive 3.00× (95 % CI 2.94–3.07) the imperative"
                + " throughput at 0.40× (95 % CI 0.39–0.41) the CPU per request — NOT A FINDING: its compiler had not"
                + " finished;").doesNotContain("virtual-thread 1.00× (95 % CI 0.98–1.02) the imperative throughput"
                + " (within noise) at 0.75× (95 % CI 0.73–0.77) the CPU per request — NOT A FINDING");
        assertThat(html(flawedReport)).contains("<p class=\"alarm\">Not a finding: the compiler of reactive had not"
                + " finished when its warm-up gave up");
        assertThat(html(report)).doesNotContain("class=\"alarm\"");
    }

    @Test
    void failedRequestsAreBrokenDownByCauseWhereverErrorsAreReported() throws IOException {
        String md = markdown(flawedReport);
        assertThat(md).contains("| No errors | **FAILED** | 3 failed requests in 53 windows of the variants:"
                + " imperative-rest closed-500 rep 2: 3 failed (timeout 2, reset 1) (the mistakes' own are in their"
                + " cards) |");
        assertThat(section(md, "## Summary")).contains("Failed requests, by window and cause:",
                "- imperative-rest closed-500 rep 2: 3 failed (timeout 2, reset 1)",
                "- blocking-event-loop closed-100 rep 1: 12 failed (timeout 12)");
        assertThat(section(md, "### blocking-event-loop")).contains(
                "- failures: blocking-event-loop closed-100 rep 1: 12 failed (timeout 12)");
        assertThat(html(flawedReport)).contains("<li>imperative-rest closed-500 rep 2: 3 failed (timeout 2, reset 1)"
                + "</li>");
    }

    @Test
    void aStalledWindowFailsItsCheckAndIsCountedPerVariant() throws IOException {
        String md = markdown(flawedReport);
        assertThat(md).contains("| No window stalled | **FAILED** | 1 windows had a second below 25 % of its window's"
                + " steady rate: reactive closed-100 rep 2: 2 s from second 4 at 150 req/s (steady 3,000) |");
        assertThat(section(md, "## Summary")).contains("Windows with a stall (a second below 25 % of its window's"
                + " steady rate): imperative none of 13; reactive 1 of 13 (2 s stalled); virtual-thread none of 13;");
        assertThat(section(markdown(report), "## Summary")).contains("reactive none of 13;");
    }

    // ---- warm-up, the recording's cost, mistakes ---------------------------------------------------------------------

    @Test
    void theWarmUpTableShowsEachJvmsLevelsAndWhetherItFinished() throws IOException {
        // the compiler in the boost: the mean of the two samples at 2 CPUs (ran 300 and 200 ms a second, waited 1)
        assertThat(markdown(report)).contains("| imperative-jvm1 | 40 | 250 / 1 | 500 users: quiet in 24 s, 2,000"
                + " req/s; 100 users: quiet in 12 s, 1,000 req/s | yes |");
        assertThat(markdown(flawedReport)).contains("| reactive-jvm2 | 150 | 250 / 1 | 500 users: its queue filled,"
                + " boosted again, then not quiet (compile queue not empty (C2 up to 12, C1 up to 0)); 100 users: quiet"
                + " in 12 s, 3,000 req/s | **NO** |");
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
    void theRecordingsCostIsAPairedRatioPerVariantAndPoint() throws IOException {
        Map<Point, Stats.Ratio> reactive = new Ratios(Run.read(clean)).recordingCosts().get("reactive");
        // 100 users: the twin of repetition 1 only, no interval; 500 users: 4 pairs, 0.98 x 0.949851 .. 1.052797
        Stats.Ratio at100 = reactive.get(Point.of(Axis.DELAY_MS, 10).with(Axis.USERS, 100));
        Stats.Ratio at500 = reactive.get(Point.of(Axis.DELAY_MS, 10).with(Axis.USERS, 500));
        assertThat(at100.pairs()).isEqualTo(1);
        assertThat(at100.ratio()).isCloseTo(0.98, within(1e-9));
        assertThat(at100.low()).isNaN();
        assertThat(at500.pairs()).isEqualTo(4);
        assertThat(at500.low()).isCloseTo(0.922696, within(1e-6));
        assertThat(at500.high()).isCloseTo(1.040863, within(1e-6));
    }

    @Test
    void aMistakesCardComparesItWithWhatItSpoilsAndQuotesTheAnalysisEvidence() throws IOException {
        // against reactive: throughput 750 / 3000 = 0.25, p99 400 / 40 = 10, CPU 0.48 / 0.16 = 3 (all x 0.978768 ..
        // 1.021693, reactive's JVM starts against its exact ones)
        assertThat(markdown(report)).contains("### blocking-event-loop (against reactive)",
                "- at 100 users: throughput 0.25× (95 % CI 0.24–0.26), p99 10.00× (95 % CI 9.79–10.22),"
                        + " CPU per request 3.00× (95 % CI 2.94–3.07)",
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
    void theOpenModelsSloCapacityComesFromTheRun() throws IOException {
        List<SloCapacity> open = SloCapacity.of(Run.read(clean).windows());
        assertThat(open).extracting(SloCapacity::jvm).containsExactly("reactive");
        assertThat(open.getFirst().capacity()).isEqualTo(1000);
    }

    @Test
    void eachPublishedClaimIsComparedAtItsOwnRegimeOnly() throws IOException {
        String claims = section(markdown(report), "## Published claims versus this run");
        // 10 ms: the Quarkus team's claim at the most users, the Spring benchmark's at 100 and 500 users
        assertThat(claims).contains("reactive / imperative throughput at 500 users: 3.50× (95 % CI 3.43–3.58)"
                        + " (claim 1.30×)",
                "virtual-thread / imperative throughput at 100 users: 1.00× (95 % CI 0.98–1.02), within noise"
                        + " (claim 1.72×)",
                "virtual-thread / imperative throughput at 500 users: 2.00× (95 % CI 1.96–2.04) (claim 1.34×)",
                "virtual-thread / reactive throughput at 300 ms, 3,000 users: not measured at this regime (run"
                        + " ./experiment map --delay-ms 300 --levels 3000) (claim 1.00×)");
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
        Run run = Run.read(gallery);
        assertThat(run.mainVariants()).containsExactly("imperative", "reactive");
        assertThat(Headline.sentences(run, new Ratios(run))).isNotEmpty().noneMatch(h -> h.contains("cpu-on-worker"));
        assertThat(markdown(Report.write(gallery))).contains("### cpu-on-event-loop (against cpu-on-worker)");
    }

    @Test
    void oneRepetitionGivesARatioWithoutAnIntervalAndSaysSo() {
        Stats.Ratio one = Stats.pairedRatio(List.of(new Stats.Pair(1.03, 1.0, 1)));
        assertThat(Numbers.ratio(one)).isEqualTo("1.03×, no interval (one repetition)");
        assertThat(RatioCell.of(one).noise()).as("no interval is no finding either").isTrue();
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
        assertThat(figures.stream().filter(f -> f.equals("warm-up"))).hasSize(TwoRuns.VARIANTS.size());
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
    void everyVariantHasItsOwnColourInTheHtml() throws IOException {
        String html = html(report);
        for (Variant v : List.of(Variant.IMPERATIVE, Variant.REACTIVE, Variant.VIRTUAL_THREAD,
                Variant.IMPERATIVE_REST)) {
            assertThat(html).contains("<span class=\"dot\" style=\"background:" + v.colour() + "\"></span>"
                    + v.label() + "</td>");
        }
    }

    @Test
    void theTemplatesEscapeWhatTheRunWrote() throws IOException {
        Path failed = Files.createDirectories(root.resolve("failed"));
        Json.write(failed.resolve("results.json"), Map.of("windows", List.of(Map.of("variant", "imperative",
                "scenario", "closed-100", "repetition", 1, "jvm", 1, "requests_per_second", 900.0))));
        Json.write(failed.resolve("manifest.json"), Map.of("completed", false, "status", "failed",
                "failure", "k6 exited: <b>boom</b> | see k6.log", "plan", Map.of("variants", List.of("imperative"),
                        "closed_model_vus", List.of(100))));
        Report.Written written = Report.write(failed);
        // a pipe would end the markdown table's cell; a tag would be markup in the html
        assertThat(markdown(written)).contains("| Run completed | **FAILED** | status failed: k6 exited: <b>boom</b>"
                + " \\| see k6.log |");
        assertThat(html(written)).contains("status failed: k6 exited: &lt;b&gt;boom&lt;/b&gt; | see k6.log</li>")
                .doesNotContain("<b>boom</b>");
    }

    @Test
    void theHtmlRendersInARealBrowser(@TempDir Path profile) throws Exception {
        Path chromium = Stream.of("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")
                .map(Path::of).filter(Files::isExecutable).findFirst().orElse(null);
        Assumptions.assumeTrue(chromium != null,
                "the browser check of report.html needs Chromium on this machine (apt-get install chromium)");
        // the browser's profile in a directory JUnit removes: one per run had been left in /tmp
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
}
