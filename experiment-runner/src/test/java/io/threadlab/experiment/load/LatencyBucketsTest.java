package io.threadlab.experiment.load;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class LatencyBucketsTest {

    @Test
    void theRunnerBucketsLatenciesExactlyAsTheK6ScriptDoes() throws IOException {
        String lib = Files.readString(labHome().resolve("k6/lib.js"));
        assertThat(constant(lib, "FIRST_BUCKET_MS")).isEqualTo(String.valueOf(LatencyBuckets.FIRST_BUCKET_MS));
        assertThat(constant(lib, "BUCKETS_PER_DECADE")).isEqualTo(String.valueOf(LatencyBuckets.PER_DECADE));
        assertThat(Double.valueOf(constant(lib, "LAST_BUCKET_MS"))).isEqualTo(LatencyBuckets.LAST_BUCKET_MS);
        assertThat(lib).contains("Math.log10(LAST_BUCKET_MS / FIRST_BUCKET_MS)");
        assertThat(lib).contains("Math.min(BUCKETS - 1, 1 + Math.floor(Math.log10(ms / FIRST_BUCKET_MS) * BUCKETS_PER_DECADE))");
    }

    @Test
    void theRunnerReadsTheFailureCausesTheK6ScriptCounts() throws IOException {
        String lib = Files.readString(labHome().resolve("k6/lib.js"));
        Matcher m = Pattern.compile("export const ERROR_CAUSES = \\[([^\\]]*)\\]").matcher(lib);
        assertThat(m.find()).as("ERROR_CAUSES in k6/lib.js").isTrue();
        assertThat(Pattern.compile("'([a-z_0-9]+)'").matcher(m.group(1)).results().map(r -> r.group(1)).toList())
                .isEqualTo(LoadCounters.ERROR_CAUSES);
        // read one by one without the histogram, in either order: every counter the script keeps
        assertThat(LoadCounters.IN_FLIGHT_AT_LEAST).contains("lab_sent", "lab_done", "lab_latency_ms_total",
                "lab_error_timeout", "lab_error_http_5xx").containsExactlyInAnyOrderElementsOf(
                LoadCounters.IN_FLIGHT_AT_MOST);
    }

    @Test
    void bucketsAreLogarithmicFromATenthOfAMillisecond() {
        assertThat(LatencyBuckets.bucketOf(0.05)).isZero();
        assertThat(LatencyBuckets.bucketOf(Double.NaN)).isZero();
        assertThat(LatencyBuckets.bucketOf(0.1)).isEqualTo(1);
        assertThat(LatencyBuckets.bucketOf(1.0)).isEqualTo(1 + LatencyBuckets.PER_DECADE);
        assertThat(LatencyBuckets.bucketOf(10.0)).isEqualTo(1 + 2 * LatencyBuckets.PER_DECADE);
        assertThat(LatencyBuckets.bucketOf(1e9)).isEqualTo(LatencyBuckets.BUCKETS - 1);
        for (double ms : new double[] {0.3, 7.7, 10.4, 312.0, 4999.0}) {
            int b = LatencyBuckets.bucketOf(ms);
            assertThat(ms).isBetween(LatencyBuckets.lowerEdge(b), LatencyBuckets.upperEdge(b));
        }
    }

    @Test
    void percentilesOfAKnownDistributionWithinABucketsResolution() {
        long[] counts = new long[LatencyBuckets.BUCKETS];
        for (int i = 1; i <= 1000; i++) { // uniform 1..1000 ms
            counts[LatencyBuckets.bucketOf(i)]++;
        }
        LatencyBuckets h = new LatencyBuckets(counts);
        assertThat(h.total()).isEqualTo(1000);
        assertThat(h.percentile(0.50)).isCloseTo(500.0, within(500 * 0.025));
        assertThat(h.percentile(0.99)).isCloseTo(990.0, within(990 * 0.025));
        assertThat(h.max()).isBetween(1000.0, 1000 * 1.024);
        assertThat(LatencyBuckets.empty().percentile(0.5)).isNull();
        assertThat(LatencyBuckets.empty().max()).isNull();
    }

    @Test
    void twoReadingsSubtractToWhatCompletedBetweenThem() {
        LoadCounters before = LoadCounters.of(1_000_000_000L, Map.of("lab_sent", 110.0, "lab_done", 100.0,
                "lab_latency_0201", 100.0, "lab_latency_ms_total", 1000.0, "lab_error_http_504", 1.0));
        LoadCounters after = LoadCounters.of(3_000_000_000L, Map.of("lab_sent", 330.0, "lab_done", 300.0,
                "lab_latency_0201", 300.0, "lab_latency_ms_total", 3200.0, "lab_error_http_504", 1.0,
                "lab_error_timeout", 2.0));
        LoadFigures window = LoadFigures.between(before, after);
        assertThat(window.requests()).isEqualTo(200);
        assertThat(window.requestsPerSecond()).isEqualTo(100.0);
        assertThat(window.meanMs()).isEqualTo(11.0);
        assertThat(window.errors()).isEqualTo(2);
        assertThat(window.errorCauses()).containsExactly(Map.entry("timeout", 2L));
        assertThat(window.inFlight()).isEqualTo(30);
        assertThat(window.p50Ms()).isBetween(LatencyBuckets.lowerEdge(201), LatencyBuckets.upperEdge(201));
    }

    @Test
    void aLoadWithoutTheHistogramCountsItsRequestsAndMeanAndMeasuresNoPercentile() {
        LoadCounters before = LoadCounters.of(1_000_000_000L, Map.of("lab_sent", 110.0, "lab_done", 100.0,
                "lab_latency_ms_total", 1000.0));
        LoadCounters after = LoadCounters.of(3_000_000_000L, Map.of("lab_sent", 330.0, "lab_done", 300.0,
                "lab_latency_ms_total", 3200.0));
        LoadFigures window = LoadFigures.between(before, after);
        assertThat(window.requests()).isEqualTo(200);
        assertThat(window.requestsPerSecond()).isEqualTo(100.0);
        assertThat(window.meanMs()).isEqualTo(11.0);
        assertThat(window.inFlight()).isEqualTo(30);
        assertThat(window.p50Ms()).as("not measured, never a number").isNull();
        assertThat(window.p99Ms()).isNull();
        assertThat(window.maxMs()).isNull();
    }

    private static String constant(String js, String name) {
        Matcher m = Pattern.compile("export const " + name + " = ([0-9.]+);").matcher(js);
        assertThat(m.find()).as(name + " in k6/lib.js").isTrue();
        return m.group(1).contains(".") ? String.valueOf(Double.parseDouble(m.group(1))) : m.group(1);
    }

    private static Path labHome() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.isDirectory(dir.resolve("k6"))) {
            dir = dir.getParent();
        }
        assertThat(dir).as("the lab's root (with k6/)").isNotNull();
        return dir;
    }
}
