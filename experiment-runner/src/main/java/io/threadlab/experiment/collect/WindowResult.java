package io.threadlab.experiment.collect;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.threadlab.experiment.load.K6Summary;

import java.util.List;

/** One row of results.csv: one variant, one scenario, one repetition. */
public record WindowResult(
        String variant,
        String scenario,
        int repetition,
        @JsonProperty("requests_per_second") double requestsPerSecond,
        @JsonProperty("p50_ms") Double p50Ms,
        @JsonProperty("p90_ms") Double p90Ms,
        @JsonProperty("p99_ms") Double p99Ms,
        @JsonProperty("max_ms") Double maxMs,
        long errors,
        @JsonProperty("cpu_seconds") double cpuSeconds,
        @JsonProperty("cpu_ms_per_request") double cpuMsPerRequest,
        @JsonProperty("rss_mb") double rssMb,
        int threads,
        @JsonProperty("k6_cpu_seconds") double k6CpuSeconds,
        @JsonProperty("dropped_iterations") long droppedIterations,
        @JsonProperty("throttled_periods") long throttledPeriods,
        // beyond the required columns
        long requests,
        @JsonProperty("window_seconds") double windowSeconds,
        @JsonProperty("detailed_recording") boolean detailedRecording,
        long periods,
        @JsonProperty("cpu_cores") double cpuCores,
        @JsonProperty("confinement_held") Boolean confinementHeld,
        @JsonProperty("delay_cpu_seconds") double delayCpuSeconds,
        @JsonProperty("delay_served_mean_ms") double delayServedMeanMs,
        @JsonProperty("jfr_file") String jfrFile,
        List<K6Summary.Step> steps) {

    public static final List<String> CSV_COLUMNS = List.of("variant", "scenario", "repetition",
            "requests_per_second", "p50_ms", "p90_ms", "p99_ms", "max_ms", "errors", "cpu_seconds",
            "cpu_ms_per_request", "rss_mb", "threads", "k6_cpu_seconds", "dropped_iterations", "throttled_periods",
            "requests", "window_seconds", "detailed_recording", "periods", "cpu_cores", "confinement_held",
            "delay_cpu_seconds", "delay_served_mean_ms", "jfr_file");

    List<Object> csvValues() {
        return List.of(variant, scenario, repetition, requestsPerSecond, nullable(p50Ms), nullable(p90Ms),
                nullable(p99Ms), nullable(maxMs), errors, cpuSeconds, cpuMsPerRequest, rssMb, threads, k6CpuSeconds,
                droppedIterations, throttledPeriods, requests, windowSeconds, detailedRecording, periods, cpuCores,
                nullable(confinementHeld), delayCpuSeconds, delayServedMeanMs, nullable(jfrFile));
    }

    private static Object nullable(Object value) {
        return value == null ? "" : value;
    }
}
