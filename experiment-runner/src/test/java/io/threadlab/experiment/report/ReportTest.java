package io.threadlab.experiment.report;

import io.threadlab.experiment.collect.Json;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** A results directory with known numbers, its report, and that report in a real browser. */
class ReportTest {

    @TempDir
    static Path dir;

    static Report.Written written;

    @BeforeAll
    static void writeAResultsDirectoryAndItsReport() throws IOException {
        List<Map<String, Object>> rows = new ArrayList<>();
        // reactive clearly ahead of imperative; virtual-thread indistinguishable from imperative at 100 users
        double[][] imperative = {{1000, 1010, 990}, {2000, 2100, 1900}};
        double[][] reactive = {{3000, 3100, 2900}, {5000, 5200, 4800}};
        double[][] virtual = {{1000, 1100, 900}, {4000, 4100, 3900}};
        int[] levels = {100, 500};
        for (int l = 0; l < 2; l++) {
            for (int rep = 1; rep <= 3; rep++) {
                rows.add(row("imperative", "closed-" + levels[l], rep, imperative[l][rep - 1], 0.40));
                rows.add(row("reactive", "closed-" + levels[l], rep, reactive[l][rep - 1], 0.15));
                rows.add(row("virtual-thread", "closed-" + levels[l], rep, virtual[l][rep - 1], 0.20));
            }
            rows.add(row("reactive", "closed-" + levels[l] + "-jfr", 1, reactive[l][0] / 2, 0.3));
        }
        Map<String, Object> open = row("reactive", "open", 1, 2000, 0.2);
        open.put("steps", List.of(step(250, 250, 12), step(1000, 1000, 15), step(4000, 2500, 900)));
        rows.add(open);
        Json.write(dir.resolve("results.json"), rows);

        Map<String, Object> manifest = new LinkedHashMap<>();
        manifest.put("completed", true);
        manifest.put("status", "completed");
        manifest.put("lab", Map.of("quarkus_version", "3.34.2", "runner_java_version", "25.0.3", "k6_version",
                "k6 v1.8.1", "kernel", "Linux 6", "cpu_model", "Test CPU", "machine_cores", 2,
                "machine_memory_mb", 24000, "git_sha", "0123456789abcdef", "git_dirty", false));
        manifest.put("confinement", Map.of("method", "cgroup-v1", "limits_cpu", true, "variant_cpu_quota", 0.5,
                "delay_service_cpu_quota", "none"));
        manifest.put("jvm_flags", List.of("-Xms512m", "-Xmx512m", "-XX:+UseSerialGC"));
        manifest.put("knobs", Map.of("lab.delay.ms", 10, "quarkus.rest-client.delay.connection-pool-size", 1000));
        manifest.put("plan", Map.of("variants", List.of("imperative", "reactive", "virtual-thread"),
                "closed_model_vus", List.of(100, 500), "window_seconds", 12, "settle_seconds", 3, "repetitions", 3));
        Map<String, Object> variants = new LinkedHashMap<>();
        variants.put("imperative", Map.of("runtime", Map.of("availableProcessors", 1),
                "warm_up", Map.of("steady", false, "seconds", 90)));
        variants.put("reactive", Map.of("runtime", Map.of("availableProcessors", 1),
                "warm_up", Map.of("steady", true, "seconds", 61)));
        variants.put("virtual-thread", Map.of("runtime", Map.of("availableProcessors", 1),
                "warm_up", Map.of("steady", true, "seconds", 55)));
        manifest.put("variants", variants);
        manifest.put("warnings", List.of());
        Json.write(dir.resolve("manifest.json"), manifest);
        written = Report.write(dir);
    }

    static Map<String, Object> row(String variant, String scenario, int rep, double rps, double cpuMs) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("variant", variant);
        r.put("scenario", scenario);
        r.put("repetition", rep);
        r.put("requests_per_second", rps);
        r.put("p50_ms", 20.0);
        r.put("p90_ms", 40.0);
        r.put("p99_ms", 80.0);
        r.put("max_ms", 200.0);
        r.put("errors", 0);
        r.put("cpu_seconds", 6.0);
        r.put("cpu_ms_per_request", cpuMs);
        r.put("rss_mb", 300.0);
        r.put("threads", 40);
        r.put("k6_cpu_seconds", 4.0);
        r.put("dropped_iterations", 0);
        r.put("throttled_periods", 100);
        r.put("window_seconds", 12.0);
        r.put("detailed_recording", scenario.endsWith("-jfr"));
        r.put("cpu_cores", 0.49);
        r.put("confinement_held", true);
        r.put("delay_cpu_seconds", 1.0);
        r.put("delay_served_mean_ms", 10.6);
        return r;
    }

    static Map<String, Object> step(int offered, double achieved, double p99) {
        return Map.of("offered_rate", offered, "requests", (long) achieved * 6, "achieved_rate", achieved,
                "p50_ms", p99 / 4, "p99_ms", p99, "dropped_iterations", achieved < offered ? 900 : 0);
    }

    @Test
    void theHeadlineAndRatiosComeFromTheNumbersAndSayWithinNoiseWhenTheyMust() throws IOException {
        String md = Files.readString(written.markdown());
        // reactive/imperative at 100 users: 3000/1000 = 3.00x, clearly
        assertThat(md).contains("At 100 users: reactive 3.00× (95 % CI");
        assertThat(md).containsPattern("\\| 100 \\| virtual-thread \\| 1\\.00× \\(95 % CI [0-9.]+–[0-9.]+\\), within noise");
        assertThat(md).contains("| 500 | reactive | 2.50× (95 % CI");
        // median [CI of the mean] in the summary table: imperative at 100 users
        assertThat(md).contains("| 100 | imperative | 1,000 [975–1,025] |");
    }

    @Test
    void validityChecksPassAndFailOnTheirNumbers() throws IOException {
        String md = Files.readString(written.markdown());
        assertThat(md).contains("| Confinement held | passed |", "| No errors | passed |",
                "| Warm-up reached steady state | **FAILED** | NOT steady: [imperative]", "| Run completed | passed |");
    }

    @Test
    void publishedClaimsStandBesideThisRun() throws IOException {
        String md = Files.readString(written.markdown());
        assertThat(md).contains("reactive ≈ +30 % throughput over imperative", "(claim 1.30×)",
                "virtual threads +71.6 % over platform threads at 100 users", "(claim 1.72×)",
                "virtual threads ≈ WebFlux");
    }

    @Test
    void theOpenModelKneeAndTheJfrOverheadAreCharted() throws IOException {
        assertThat(Findings.knee(new Findings(RunData.read(dir)).openSteps().get("reactive"))).contains(1000);
        assertThat(new Findings(RunData.read(dir)).jfrOverhead().get("reactive")).containsEntry(100, 0.5);
        assertThat(dir.resolve("charts/latency-vs-offered-load.svg")).isNotEmptyFile();
        assertThat(dir.resolve("charts/jfr-overhead.svg")).isNotEmptyFile();
    }

    @Test
    void theHtmlIsSelfContained() throws IOException {
        String html = Files.readString(written.html());
        assertThat(html).startsWith("<!DOCTYPE html>").contains("<style>");
        Matcher figures = Pattern.compile("<figure class=\"chart\"[^>]*><svg").matcher(html);
        int charts = 0;
        while (figures.find()) {
            charts++;
        }
        assertThat(charts).isEqualTo(6); // throughput, CPU, latency x 2 levels, open model, JFR overhead
        assertThat(html).doesNotContainPattern("(src|href)=\"https?://");
        assertThat(html).doesNotContain("<script src", "<link rel=\"stylesheet\"");
    }

    @Test
    void theHtmlRendersInARealBrowser() throws Exception {
        Path chromium = List.of(Path.of("/usr/bin/chromium"), Path.of("/usr/bin/chromium-browser"),
                Path.of("/usr/bin/google-chrome")).stream().filter(Files::isExecutable).findFirst().orElse(null);
        Assumptions.assumeTrue(chromium != null,
                "the browser check of report.html needs Chromium on this machine (apt-get install chromium)");
        Path profile = Files.createTempDirectory("chromium-profile");
        Path screenshot = Path.of("target/report-screenshot.png").toAbsolutePath();
        List<String> flags = List.of("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--user-data-dir=" + profile, "--window-size=1340,2400", "--virtual-time-budget=5000");
        String dom = run(chromium, flags, "--dump-dom", written.html().toUri().toString());
        Matcher rendered = Pattern.compile("data-charts-rendered=\"(\\d+)\"").matcher(dom);
        assertThat(rendered.find()).as("the page's check ran").isTrue();
        assertThat(Integer.parseInt(rendered.group(1))).as("charts drawn with a size").isEqualTo(6);
        assertThat(dom).doesNotContain("data-errors=");
        run(chromium, flags, "--screenshot=" + screenshot, written.html().toUri().toString());
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
