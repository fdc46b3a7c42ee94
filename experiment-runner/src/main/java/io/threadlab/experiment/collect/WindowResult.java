package io.threadlab.experiment.collect;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.List;
import java.util.Map;

/**
 * One row of results.csv and one window of results.json: one variant, one scenario, one repetition, on one JVM
 * start, at one downstream delay. Fields added after format 1 are null in older runs.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record WindowResult(
        String variant,
        String scenario,
        int repetition,
        int jvm,
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
        @JsonProperty("started_at") String startedAt,
        // the compiler during the window: a finished JIT neither runs nor waits to run
        @JsonProperty("compiler_cpu_ms") double compilerCpuMs,
        @JsonProperty("compiler_share") double compilerShare,
        @JsonProperty("compiler_wait_ms") double compilerWaitMs,
        @JsonProperty("heap_live_mb") Double heapLiveMb,
        @JsonProperty("heap_used_mb") Double heapUsedMb,
        @JsonProperty("live_threads") Double liveThreads,
        /** Load before the window until the compiler was quiet (seconds), and whether it was. */
        @JsonProperty("settle_seconds") double settleSeconds,
        @JsonProperty("settle_quiet") boolean settleQuiet,
        /** Per thread group: threads, CPU and run-queue wait seconds, voluntary and involuntary switches. */
        @JsonProperty("thread_groups") Map<String, Map<String, Number>> threadGroups,
        /** Requests answered in each second of the measured interval (from the delay service's counter). */
        @JsonProperty("per_second") List<Double> perSecond,
        List<OpenStep> steps,
        /** Mean latency (closed model), for Little's law: users = throughput x mean response time. */
        @JsonProperty("mean_ms") Double meanMs,
        /** Failed requests by cause: timeout, refused, reset, network, http_4xx, http_500, http_502, ... */
        @JsonProperty("error_causes") Map<String, Long> errorCauses,
        /** Requests sent and not yet answered when the window ended (closed model). */
        @JsonProperty("in_flight") Long inFlight,
        /** The closed model's users (null for the open model). */
        Integer users,
        /** The downstream delay the delay service served in this window, and the JVM's own knobs. */
        @JsonProperty("delay_ms") Integer delayMs,
        @JsonProperty("cpu_quota") Double cpuQuota,
        @JsonProperty("worker_max") Integer workerMax,
        @JsonProperty("pool_size") Integer poolSize,
        /** When the measured interval began (the first edge), so a recording's seconds can be matched to it. */
        @JsonProperty("measured_at") String measuredAt,
        /** The JVM's name: the variant and its setup where the map varies one (imperative-w512). */
        @JsonProperty("jvm_label") String jvmLabel,
        /** Where k6 and the delay service ran: "shared" (with the variant) or "separate" (a CPU of their own). */
        @JsonProperty("load_cpus") String loadCpus) {

    public static final List<String> CSV_COLUMNS = List.of("variant", "scenario", "repetition", "jvm",
            "requests_per_second", "p50_ms", "p90_ms", "p99_ms", "max_ms", "errors", "cpu_seconds",
            "cpu_ms_per_request", "rss_mb", "threads", "k6_cpu_seconds", "dropped_iterations", "throttled_periods",
            "requests", "window_seconds", "detailed_recording", "periods", "cpu_cores", "confinement_held",
            "delay_cpu_seconds", "delay_served_mean_ms", "jfr_file", "started_at", "compiler_cpu_ms",
            "compiler_share", "compiler_wait_ms", "heap_live_mb", "heap_used_mb", "live_threads", "settle_seconds",
            "settle_quiet", "mean_ms", "in_flight", "error_causes", "users", "delay_ms", "cpu_quota", "worker_max",
            "pool_size", "measured_at", "jvm_label", "load_cpus");

    List<Object> csvValues() {
        return List.of(variant, scenario, repetition, jvm, requestsPerSecond, nullable(p50Ms), nullable(p90Ms),
                nullable(p99Ms), nullable(maxMs), errors, cpuSeconds, cpuMsPerRequest, rssMb, threads, k6CpuSeconds,
                droppedIterations, throttledPeriods, requests, windowSeconds, detailedRecording, periods, cpuCores,
                nullable(confinementHeld), delayCpuSeconds, delayServedMeanMs, nullable(jfrFile), startedAt,
                compilerCpuMs, compilerShare, compilerWaitMs, nullable(heapLiveMb), nullable(heapUsedMb),
                nullable(liveThreads), settleSeconds, settleQuiet, nullable(meanMs), nullable(inFlight),
                errorCauses == null ? "" : errorCauses.entrySet().stream().map(e -> e.getKey() + ":" + e.getValue())
                        .collect(java.util.stream.Collectors.joining(";")), nullable(users), nullable(delayMs),
                nullable(cpuQuota), nullable(workerMax), nullable(poolSize), nullable(measuredAt),
                nullable(jvmLabel), nullable(loadCpus));
    }

    private static Object nullable(Object value) {
        return value == null ? "" : value;
    }

    /** The JVM's name, for runs before it was recorded: the variant's. */
    public String jvmName() {
        return jvmLabel != null ? jvmLabel : variant;
    }
}
