package io.threadlab.experiment.report;

import io.threadlab.experiment.collect.WindowResult;

import java.util.List;
import java.util.function.ToDoubleFunction;

/** What a cell summarises of its windows: a heading, a unit, the digits shown, and the value of one window. */
enum Metric {
    THROUGHPUT("req/s", "", 0, w -> w.load().requestsPerSecond()),
    P50("p50", "ms", 1, w -> orNaN(w.load().p50Ms())),
    P90("p90", "ms", 1, w -> orNaN(w.load().p90Ms())),
    P99("p99", "ms", 1, w -> orNaN(w.load().p99Ms())),
    MAX("max", "ms", 0, w -> orNaN(w.load().maxMs())),
    ERRORS("errors", "", 0, w -> w.load().errors()),
    CPU_PER_REQUEST("CPU per request", "ms", 3, w -> w.cpu().cpuMsPerRequest()),
    REQUESTS_PER_CPU_SECOND("req per CPU-s", "", 0,
            w -> w.cpu().cpuMsPerRequest() > 0 ? 1000.0 / w.cpu().cpuMsPerRequest() : Double.NaN),
    RSS("RSS", "MB", 0, w -> w.memory().rssMb()),
    HEAP_USED("heap used", "MB", 0, w -> orNaN(w.memory().heapUsedMb())),
    HEAP_LIVE("live after GC", "MB", 0, w -> orNaN(w.memory().heapLiveMb())),
    PLATFORM_THREADS("platform threads", "", 0, w -> orNaN(w.memory().liveThreads())),
    OS_THREADS("OS threads", "", 0, w -> w.memory().threads()),
    DB_CPU_PER_REQUEST("database CPU per request", "ms", 3, w -> w.instruments().dbCpuSeconds() == null
            || w.load().requests() <= 0 ? Double.NaN : w.instruments().dbCpuSeconds() * 1000 / w.load().requests()),
    DB_CORES("database CPU", "CPUs", 2, w -> w.instruments().dbCpuSeconds() == null ? Double.NaN
            : w.instruments().dbCpuSeconds() / Math.max(1e-9, w.load().windowSeconds())),
    DB_CONNECTIONS("connections", "at the end", 0, w -> orNaN(w.instruments().dbConnections())),
    DB_ACTIVE("running a query", "at the end", 0, w -> orNaN(w.instruments().dbActive()));

    /** The summary table's columns. */
    static final List<Metric> SUMMARY = List.of(THROUGHPUT, P50, P90, P99, MAX, ERRORS, CPU_PER_REQUEST,
            REQUESTS_PER_CPU_SECOND);
    /** Memory and threads. */
    static final List<Metric> MEMORY = List.of(RSS, HEAP_USED, HEAP_LIVE, PLATFORM_THREADS, OS_THREADS);
    /** The lab's PostgreSQL beside the windows that waited on it. */
    static final List<Metric> DATABASE = List.of(DB_CPU_PER_REQUEST, DB_CORES, DB_CONNECTIONS, DB_ACTIVE);

    private final String heading;
    private final String unit;
    private final int digits;
    private final ToDoubleFunction<WindowResult> value;

    Metric(String heading, String unit, int digits, ToDoubleFunction<WindowResult> value) {
        this.heading = heading;
        this.unit = unit;
        this.digits = digits;
        this.value = value;
    }

    public String heading() {
        return heading;
    }

    public String unit() {
        return unit;
    }

    int digits() {
        return digits;
    }

    double of(WindowResult w) {
        return value.applyAsDouble(w);
    }

    private static double orNaN(Number n) {
        return n == null ? Double.NaN : n.doubleValue();
    }
}
