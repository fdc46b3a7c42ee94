package io.threadlab.experiment.load;

import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.confine.CpuReading;
import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.record.DatabaseReading;
import io.threadlab.experiment.plan.Downstream;
import io.threadlab.experiment.plan.Database;
import io.threadlab.experiment.plan.Jvm;
import io.threadlab.experiment.plan.Knobs;
import io.threadlab.experiment.plan.Point;
import io.threadlab.experiment.plan.Variant;
import io.threadlab.experiment.plan.Window;
import io.threadlab.experiment.record.DelayHeadroom;
import io.threadlab.experiment.record.Yardstick;
import io.threadlab.experiment.process.ProcessStats;
import io.threadlab.experiment.process.ThreadGroupTimes;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;
import static org.assertj.core.api.Assertions.within;

/**
 * A window's numbers from fixture edges, against numbers computed by hand. The fixture: imperative at 10 ms and 100
 * users on 0.5 CPU, measured for 10.24 s between its edges (not the plan's 10 s), after a settle that left slow
 * requests, errors and CPU in the cumulative counters: every figure must be the difference across the two edges.
 *
 * <p>Latencies sit in two buckets of {@link LatencyBuckets}: bucket 200 holds [10^0.99, 10^1) ms (9.77 to 10 ms),
 * bucket 300 [10^1.99, 10^2) ms. A percentile inside a bucket is interpolated geometrically, so the q-th share of
 * bucket 300 is at 10^(1.99 + 0.01 q) ms.
 */
class WindowFiguresTest {

    private static final long T0 = 2_000_000_000_000L;
    private static final long WINDOW_NANOS = 10_240_000_000L;
    private static final Instant MEASURED_AT = Instant.parse("2026-11-24T21:55:44.771Z");
    private static final Window WINDOW = new Window(new Jvm(Variant.IMPERATIVE, 1, 8081),
            Point.of(Axis.DELAY_MS, 10).with(Axis.USERS, 100), new Window.Closed(3, 40, 10), false, 1);
    private static final Knobs KNOBS = new Knobs(0.5, "512m", "Serial", 1000, 1000, 5000, 200, false);
    private static final Settled SETTLED = new Settled(5.0714, true, true);
    /** 100 pieces of the machine's yardstick before the window, 20 more in it at 1,260 CPU-µs each. */
    private static final Yardstick.Reading YARDSTICK_BEFORE = new Yardstick.Reading(100, 105_000_000L);
    private static final Yardstick.Reading YARDSTICK_AFTER = new Yardstick.Reading(120, 105_000_000L + 20 * 1_260_000L);

    /**
     * jvm_gc_live_data_size_bytes 68 MiB; two heap pools of 100 and 105 MiB (205 MiB) beside a non-heap pool that
     * must not count; 117 live threads.
     */
    private static final String METRICS = """
            # HELP jvm_gc_live_data_size_bytes Size of long-lived heap memory pool after reclamation
            # TYPE jvm_gc_live_data_size_bytes gauge
            jvm_gc_live_data_size_bytes 7.1303168E7
            jvm_memory_used_bytes{area="heap",id="eden space"} 1.048576E8
            jvm_memory_used_bytes{area="heap",id="tenured gen"} 1.1010048E8
            jvm_memory_used_bytes{area="nonheap",id="Metaspace"} 6.0E7
            jvm_threads_live_threads 117.0
            """;

    // ---- the fixture's two edges -----------------------------------------------------------------------------

    /** Before: the settle's 5,000 requests all in bucket 300 (99 ms each), 100 in flight, 3 timeouts, 5 resets. */
    private static final LoadCounters LOAD_BEFORE = counters(T0, 5_100, Map.of(300, 5_000L), 5_000 * 99.0,
            Map.of("timeout", 3L, "reset", 5L));
    /**
     * After: 40,000 more answered, 20,000 at 9.9 ms (bucket 200) and 20,000 at 99 ms (bucket 300): latency total
     * 20,000 x 9.9 + 20,000 x 99 = 2,178,000 ms more; still 100 in flight; 7 more timeouts, 4 refused, 2 http_502, no
     * more resets.
     */
    private static final LoadCounters LOAD_AFTER = counters(T0 + WINDOW_NANOS, 45_100,
            Map.of(200, 20_000L, 300, 25_000L), 5_000 * 99.0 + 2_178_000.0,
            Map.of("timeout", 10L, "refused", 4L, "http_502", 2L, "reset", 5L));

    @Test
    void aDatabaseWindowCountsK6sRequestsAndCarriesTheDatabasesFigures() {
        // The same edges on the database: the delay service served nothing of it, so the variant's CPU per request is
        // over k6's 40,000 answers: 5.12 s x 1000 / 40,000 = 0.128 ms. The database's group used 56.144 - 50 =
        // 6.144 s (0.6 of a CPU over 10.24 s), ran 140,500 - 100,000 = 40,500 transactions, and had 20 connections of
        // the services, 12 running a query, at the closing edge.
        Window onDb = new Window(new Jvm(Variant.IMPERATIVE, 1, 8081), Point.of(Axis.DOWNSTREAM, Downstream.DB)
                .with(Axis.DELAY_MS, 10).with(Axis.USERS, 100), new Window.Closed(3, 40, 10), false, 1);
        Knobs withPool = new Knobs(0.5, "512m", "Serial", 1000, 1000, 5000, 200, false)
                .withDatabase(new Database(1.0, 200, "128MB", true), 20);
        Edge before = withDatabase(before(), new DatabaseReading(new CpuReading(50_000_000_000L, 0, 0, 0), 100_000,
                20, 5));
        Edge after = withDatabase(after(), new DatabaseReading(new CpuReading(56_144_000_000L, 0, 0, 0), 140_500, 20,
                12));
        WindowResult row = WindowFigures.of(new WindowFigures.Context(onDb, withPool, true, "2026-11-24T21:55:38.931Z",
                false, new Database(1.0, 200, "128MB", true)), before, after, LoadFigures.between(before.load(),
                after.load()), List.of(), List.of(), SETTLED);
        assertThat(row.cpu().cpuMsPerRequest()).isCloseTo(0.128, within(1e-9));
        assertThat(row.instruments().dbCpuSeconds()).isCloseTo(6.144, within(1e-9));
        assertThat(row.instruments().downstreamServed()).as("the database's count is k6's").isNull();
        assertThat(row.countsAgree()).isNull();
        assertThat(row.instruments().dbTransactions()).isEqualTo(40_500L);
        assertThat(row.instruments().dbConnections()).isEqualTo(20);
        assertThat(row.instruments().dbActive()).isEqualTo(12);
        assertThat(row.at().get(Axis.DB_CPUS)).isEqualTo(1.0);
        assertThat(row.at().get(Axis.DB_POOL_SIZE)).isEqualTo(20);
        assertThat(row.at().get(Axis.DOWNSTREAM)).isEqualTo(Downstream.DB);
        // and a window on the delay service carries none of it
        assertThat(figures(before(), after(), true, List.of(), List.of()).instruments().dbCpuSeconds()).isNull();
    }

    private static Edge withDatabase(Edge e, DatabaseReading db) {
        return new Edge(e.nanos(), e.at(), e.cpu(), e.delayCpu(), e.k6(), e.delayServed(), e.stats(), e.threads(),
                e.load(), e.metrics(), db, e.yardstick());
    }

    private static Edge before() {
        return new Edge(T0, MEASURED_AT, new CpuReading(100_000_000_000L, 1_000, 400, 20_000_000_000L),
                new CpuReading(10_000_000_000L, 0, 0, 0), new CpuReading(30_000_000_000L, 0, 0, 0),
                new DelayHeadroom.Counters(50_000, 500.0, T0 + 2_000_000L), new ProcessStats(650.0, 120),
                threads(9_000_000_000L, 1_000_000_000L, 20_000_000_000L), LOAD_BEFORE, METRICS, null,
                YARDSTICK_BEFORE);
    }

    /**
     * After 10.24 s: the variant used 5.12 s of CPU over 102 CFS periods, 90 of them throttled; the delay service
     * served 40,960 calls (960 more than k6's 40,000 answers: more than its 100 users' requests in flight explain) for
     * 430.08 s of waits; k6 used 3.072 s, the delay service 1.024 s; the compiler 51.2 ms, waiting 250 ms; the worker
     * pool 3.047 s.
     */
    private static Edge after(CpuReading cpu, String metrics, LoadCounters load) {
        return new Edge(T0 + WINDOW_NANOS, MEASURED_AT.plusNanos(WINDOW_NANOS), cpu,
                new CpuReading(11_024_000_000L, 0, 0, 0), new CpuReading(33_072_000_000L, 0, 0, 0),
                new DelayHeadroom.Counters(90_960, 930.08, T0 + WINDOW_NANOS + 3_000_000L),
                new ProcessStats(691.5, 124),
                threads(9_051_200_000L, 1_250_000_000L, 23_047_000_000L), load, metrics, null, YARDSTICK_AFTER);
    }

    private static Edge after() {
        return after(new CpuReading(105_120_000_000L, 1_102, 490, 21_000_000_000L), METRICS, LOAD_AFTER);
    }

    private static WindowResult figures(Edge before, Edge after, boolean confined, List<Double> perSecond,
                                        List<Double> cpuPerSecond) {
        return WindowFigures.of(new WindowFigures.Context(WINDOW, KNOBS, confined, "2026-11-24T21:55:38.931Z", false,
                null),
                before, after, LoadFigures.between(before.load(), after.load()), perSecond, cpuPerSecond, SETTLED);
    }

    private static WindowResult figures(Edge before, Edge after) {
        return figures(before, after, true, List.of(), List.of());
    }

    // ---- a normal window -------------------------------------------------------------------------------------

    @Test
    void theLoadsFiguresAreWhatHappenedBetweenTheEdges() {
        WindowResult.Load load = figures(before(), after()).load();
        assertThat(load.windowSeconds()).isEqualTo(10.24);
        assertThat(load.requests()).isEqualTo(40_000);
        // 40,000 / 10.24 s = 3,906.25 req/s (over the plan's 10 s it would be 4,000)
        assertThat(load.requestsPerSecond()).isEqualTo(3_906.25);
        // p50: rank 20,000 is the last of bucket 200, its upper edge 10 ms (with the settle's 5,000 slow requests
        // left in, rank 22,500 would fall in bucket 300)
        assertThat(load.p50Ms()).isCloseTo(10.0, within(1e-9));
        // p90: rank 36,000 is 16,000 of bucket 300's 20,000 -> q = 0.8 -> 10^1.998 = 99.54054
        assertThat(load.p90Ms()).isCloseTo(99.54054, within(1e-5));
        // p99: rank 39,600 -> q = 0.98 -> 10^1.9998 = 99.95396
        assertThat(load.p99Ms()).isCloseTo(99.95396, within(1e-5));
        assertThat(load.maxMs()).isCloseTo(100.0, within(1e-9));
        // the window's own latency total over its own requests: 2,178,000 / 40,000 = 54.45 ms
        assertThat(load.meanMs()).isCloseTo(54.45, within(1e-9));
        assertThat(load.inFlight()).isEqualTo(100L); // 45,100 sent - 45,000 answered
        assertThat(load.droppedIterations()).isZero();
    }

    @Test
    void theVariantsCpuPerRequestIsOverTheCallsTheDelayServiceAnsweredInTheInterval() {
        WindowResult.Cpu cpu = figures(before(), after()).cpu();
        assertThat(cpu.cpuSeconds()).isCloseTo(5.12, within(1e-12)); // 105.12 s - 100 s
        // 5,120 ms / 40,960 calls = 0.125 ms (over k6's 40,000 it would be 0.128)
        assertThat(cpu.cpuMsPerRequest()).isCloseTo(0.125, within(1e-12));
        assertThat(cpu.cpuCores()).isCloseTo(0.5, within(1e-12)); // 5.12 s / 10.24 s
        assertThat(cpu.periods()).isEqualTo(102);
        assertThat(cpu.throttledPeriods()).isEqualTo(90);
    }

    @Test
    void theInstrumentsTheCompilerAndTheMemoryAreReadAtAndAcrossTheEdges() {
        WindowResult row = figures(before(), after());
        assertThat(row.instruments().k6CpuSeconds()).isCloseTo(3.072, within(1e-12));
        assertThat(row.instruments().delayCpuSeconds()).isCloseTo(1.024, within(1e-12));
        // k6's counters unread at either edge: its CPU is unknown, not 0 (its headroom then reads "not measured")
        assertThat(figures(before().withK6(CpuReading.NONE), after()).instruments().k6CpuSeconds()).isNaN();
        assertThat(figures(before(), after().withK6(CpuReading.NONE)).instruments().k6CpuSeconds()).isNaN();
        // 430.08 s of waits / 40,960 calls = 10.5 ms each
        assertThat(row.instruments().delayServedMeanMs()).isCloseTo(10.5, within(1e-9));
        assertThat(row.compiler().compilerCpuMs()).isCloseTo(51.2, within(1e-9));
        // 0.0512 s of the quota's 0.5 CPU x 10.24 s = 5.12 CPU-seconds: 1 %
        assertThat(row.compiler().compilerShare()).isCloseTo(0.01, within(1e-12));
        assertThat(row.compiler().compilerWaitMs()).isCloseTo(250.0, within(1e-9));
        assertThat(row.compiler().settleSeconds()).isEqualTo(5.071);
        assertThat(row.compiler().settleQuiet()).isTrue();
        // at the closing edge, not the opening one
        assertThat(row.memory().rssMb()).isEqualTo(691.5);
        assertThat(row.memory().threads()).isEqualTo(124);
        assertThat(row.memory().heapLiveMb()).isEqualTo(68.0);
        assertThat(row.memory().heapUsedMb()).isEqualTo(205.0); // 100 + 105 MiB; Metaspace is not heap
        assertThat(row.memory().liveThreads()).isEqualTo(117.0);
        assertThat(row.threadGroups().get("worker pool")).containsEntry("cpu_seconds", 3.047)
                .containsEntry("threads", 101);
        assertThat(row.threadGroups().get(ThreadGroupTimes.COMPILER)).containsEntry("cpu_seconds", 0.051)
                .containsEntry("wait_seconds", 0.25);
    }

    @Test
    void theRowNamesItsWindowAndWhenItsIntervalBegan() {
        WindowResult row = figures(before(), after());
        assertThat(row.window().id()).isEqualTo("imperative-10ms-closed-100-1");
        assertThat(row.variant()).isEqualTo("imperative");
        assertThat(row.jvm()).isEqualTo(1);
        assertThat(row.repetition()).isEqualTo(1);
        assertThat(row.scenario()).isEqualTo("closed-100");
        assertThat(row.window().role()).isEqualTo("measured");
        assertThat(row.window().jfrFile()).isNull();
        assertThat(row.window().startedAt()).isEqualTo("2026-11-24T21:55:38.931Z");
        assertThat(row.window().measuredAt()).isEqualTo("2026-11-24T21:55:44.771Z"); // the opening edge
        assertThat(row.window().loadCpus()).isEqualTo("shared");
        assertThat(row.users()).isEqualTo(100);
        assertThat(row.delayMs()).isEqualTo(10);
        assertThat(row.at().get(Axis.CPUS)).isEqualTo(0.5);
        assertThat(row.at().get(Axis.WORKER_MAX)).isEqualTo(200);
        assertThat(row.prediction()).isNull();
    }

    // ---- the variant's metrics did not answer ------------------------------------------------------------------

    @Test
    void whenTheVariantsMetricsDidNotAnswerOnlyWhatTheyWouldHaveSaidIsUnknown() {
        WindowResult row = figures(before(), after(new CpuReading(105_120_000_000L, 1_102, 490, 0), "", LOAD_AFTER));
        assertThat(row.memory().heapLiveMb()).isNull();
        assertThat(row.memory().heapUsedMb()).isNull();
        assertThat(row.memory().liveThreads()).isNull();
        // /proc, the cgroup, k6 and the delay service do not depend on the variant answering
        assertThat(row.memory().rssMb()).isEqualTo(691.5);
        assertThat(row.memory().threads()).isEqualTo(124);
        assertThat(row.load().requestsPerSecond()).isEqualTo(3_906.25);
        assertThat(row.cpu().cpuMsPerRequest()).isCloseTo(0.125, within(1e-12));
        assertThat(row.instruments().delayServedMeanMs()).isCloseTo(10.5, within(1e-9));
    }

    // ---- the collector ----------------------------------------------------------------------------------------

    @Test
    void theCollectorsPausesAreTheDifferenceAcrossTheEdgesAndUnknownWhereAScrapeWentUnanswered() {
        String before = METRICS + """
                jvm_gc_pause_seconds_count{action="end of minor GC",cause="Allocation Failure",gc="Copy"} 51.0
                jvm_gc_pause_seconds_sum{action="end of minor GC",cause="Allocation Failure",gc="Copy"} 12.428
                """;
        String after = METRICS + """
                jvm_gc_pause_seconds_count{action="end of minor GC",cause="Allocation Failure",gc="Copy"} 54.0
                jvm_gc_pause_seconds_sum{action="end of minor GC",cause="Allocation Failure",gc="Copy"} 13.362
                jvm_gc_pause_seconds_count{action="end of major GC",cause="Allocation Failure",gc="MarkSweepCompact"} 1.0
                jvm_gc_pause_seconds_sum{action="end of major GC",cause="Allocation Failure",gc="MarkSweepCompact"} 0.58
                """;
        Edge opening = before();
        opening = new Edge(opening.nanos(), opening.at(), opening.cpu(), opening.delayCpu(), opening.k6(),
                opening.delayServed(), opening.stats(), opening.threads(), opening.load(), before, null, opening.yardstick());
        CpuReading cpu = new CpuReading(105_120_000_000L, 1_102, 490, 21_000_000_000L);
        WindowResult row = figures(opening, after(cpu, after, LOAD_AFTER), true, List.of(), List.of());
        assertThat(row.gc().minorCollections()).isEqualTo(3);
        assertThat(row.gc().minorPauseSeconds()).isCloseTo(0.934, within(1e-9));
        assertThat(row.gc().majorCollections()).isEqualTo(1);
        assertThat(row.gc().majorPauseSeconds()).isCloseTo(0.58, within(1e-9));
        // 1.514 s of 10.24
        assertThat(row.gc().pauseShare(row.load().windowSeconds())).isCloseTo(1.514 / 10.24, within(1e-9));
        // the closing scrape unanswered: not measured, never 0
        assertThat(figures(opening, after(cpu, "", LOAD_AFTER), true, List.of(), List.of()).gc()).isNull();
    }

    // ---- errors ------------------------------------------------------------------------------------------------

    @Test
    void errorsAreCountedByCauseOverTheWindowOnly() {
        WindowResult.Load load = figures(before(), after()).load();
        // timeout 10 - 3 = 7, refused 4, http_502 2; reset 5 - 5 = 0 is left out
        assertThat(load.errorCauses()).containsOnly(entry("timeout", 7L), entry("refused", 4L),
                entry("http_502", 2L));
        assertThat(load.errors()).isEqualTo(13);
    }

    // ---- zero requests ---------------------------------------------------------------------------------------

    @Test
    void aWindowInWhichNothingWasAnsweredHasNoCpuPerRequestAndNoLatencyRatherThanADivisionByZero() {
        // the variant hung: 100 users' requests timed out, none was answered, the delay service served nothing,
        // while the variant still burnt 0.4 s of CPU
        LoadCounters hung = counters(T0 + WINDOW_NANOS, 5_200, Map.of(300, 5_000L), 5_000 * 99.0,
                Map.of("timeout", 103L, "reset", 5L));
        Edge after = after(new CpuReading(100_400_000_000L, 1_102, 0, 0), METRICS, hung);
        Edge stalled = new Edge(after.nanos(), after.at(), after.cpu(), after.delayCpu(), after.k6(),
                before().delayServed(), after.stats(), after.threads(), hung, after.metrics(), null, after.yardstick());
        List<Double> perSecond = new ArrayList<>();
        List<Double> cpuPerSecond = new ArrayList<>();
        WindowFigures.Second second = WindowFigures.second(LOAD_BEFORE, before().cpu(), hung, stalled.cpu(), null);
        perSecond.add(second.requestsPerSecond());
        cpuPerSecond.add(second.cpuMsPerRequest());

        WindowResult row = figures(before(), stalled, true, perSecond, cpuPerSecond);
        assertThat(row.load().requests()).isZero();
        assertThat(row.load().requestsPerSecond()).isZero();
        assertThat(row.load().p50Ms()).isNull();
        assertThat(row.load().p99Ms()).isNull();
        assertThat(row.load().maxMs()).isNull();
        assertThat(row.load().meanMs()).isNull();
        assertThat(row.load().errorCauses()).containsOnly(entry("timeout", 100L));
        assertThat(row.cpu().cpuSeconds()).isCloseTo(0.4, within(1e-12));
        assertThat(row.cpu().cpuMsPerRequest()).as("no call served: not a number, not infinity").isNaN();
        assertThat(row.cpu().perSecondMsPerRequest()).containsExactly((Double) null);
        assertThat(row.cpu().medianMsPerRequest()).isNaN();
        assertThat(row.instruments().delayServedMeanMs()).isNaN();
        assertThat(row.load().perSecond()).containsExactly(0.0);
    }

    // ---- the CPU counter across the edges ----------------------------------------------------------------------

    @Test
    void theQuotaIsHeldOrBrokenByTheCpuAcrossTheEdgesWithinItsTolerance() {
        // 0.5 CPU x 1.05 = 0.525 cores allowed. 5.12 s / 10.24 s = 0.500: held.
        assertThat(figures(before(), after()).cpu().confinementHeld()).isTrue();
        // 5.5296 s / 10.24 s = 0.540 cores: broken
        Edge greedy = after(new CpuReading(105_529_600_000L, 1_102, 0, 0), METRICS, LOAD_AFTER);
        WindowResult.Cpu cpu = figures(before(), greedy).cpu();
        assertThat(cpu.cpuCores()).isCloseTo(0.54, within(1e-12));
        assertThat(cpu.confinementHeld()).isFalse();
        // unconfined, there is no quota to hold
        assertThat(figures(before(), greedy, false, List.of(), List.of()).cpu().confinementHeld()).isNull();
    }

    @Test
    void theOpeningEdgesCountersDoNotCount() {
        // the same window after a JVM that had used 1,000 s of CPU before it: the same figures
        Edge before = before();
        Edge later = new Edge(before.nanos(), before.at(), new CpuReading(1_000_000_000_000L, 90_000, 9_000, 0),
                before.delayCpu(), before.k6(), before.delayServed(), before.stats(), before.threads(), before.load(),
                before.metrics(), null, before.yardstick());
        Edge after = after(new CpuReading(1_005_120_000_000L, 90_102, 9_090, 0), METRICS, LOAD_AFTER);
        WindowResult.Cpu cpu = figures(later, after).cpu();
        assertThat(cpu.cpuSeconds()).isCloseTo(5.12, within(1e-9));
        assertThat(cpu.cpuMsPerRequest()).isCloseTo(0.125, within(1e-12));
        assertThat(cpu.periods()).isEqualTo(102);
        assertThat(cpu.throttledPeriods()).isEqualTo(90);
    }

    // ---- k6's count against the downstream's --------------------------------------------------------------------

    @Test
    void theDelayServicesOwnCountStandsBesideK6sAndTheyMayDifferOnlyByWhatWasInFlight() {
        WindowResult row = figures(before(), after());
        // 90,960 - 50,000 calls, one per request; read 2 ms and 3 ms after k6's counters at the two edges
        assertThat(row.instruments().downstreamServed()).isEqualTo(40_960L);
        assertThat(row.instruments().countsApartSeconds()).isCloseTo(0.005, within(1e-12));
        // 100 users + 13 failures + 3,906.25 req/s x (0.005 s + k6's 0.1 s of batching) + 1 = 524.16; the fixture's
        // counts are 960 apart
        assertThat(row.countsMayDiffer()).isCloseTo(524.15625, within(1e-9));
        assertThat(row.countsAgree()).isFalse();
        assertThat(row.countsDescribed()).contains("k6 counted 40,000 answers", "40,960 requests served: 960 apart (-2 %)",
                "at most 524", "100 users, 13 failures");

        // 80 apart: the requests in flight at the edges explain it
        Edge close = after(after().cpu(), METRICS, LOAD_AFTER);
        close = new Edge(close.nanos(), close.at(), close.cpu(), close.delayCpu(), close.k6(),
                new DelayHeadroom.Counters(90_080, 930.08, close.nanos() + 3_000_000L), close.stats(),
                close.threads(), close.load(), close.metrics(), null, close.yardstick());
        assertThat(figures(before(), close).countsAgree()).isTrue();
    }

    @Test
    void aWindowWithoutFailuresIsCountedByWhatTheDownstreamServed() {
        // the fixture's edges with no failure in the window: 40,960 requests served between the delay service's two
        // readings, 10.241 s apart (read 2 ms and 3 ms after k6's), where k6 counted 40,000 in its 10.24 s
        LoadCounters clean = counters(T0 + WINDOW_NANOS, 45_100, Map.of(200, 20_000L, 300, 25_000L),
                5_000 * 99.0 + 2_178_000.0, Map.of("timeout", 3L, "reset", 5L));
        WindowResult row = figures(before(), after(after().cpu(), METRICS, clean));
        assertThat(row.load().errors()).isZero();
        assertThat(row.load().requests()).as("k6's own count stays").isEqualTo(40_000L);
        assertThat(row.load().requestsPerSecond()).isCloseTo(40_960 / 10.241, within(0.001));
        // with the fixture's 13 failures a request may have failed before its call: k6's count of the answers
        assertThat(figures(before(), after()).load().requestsPerSecond()).isEqualTo(3_906.25);
    }

    @Test
    void aSecondIsCountedByWhatTheDownstreamServedInItWhereItCounts() {
        // 4,000 answered by k6's counters, 5,000 served by the delay service (k6's lagged), 0.5 s of CPU
        LoadCounters last = counters(T0, 0, Map.of(200, 0L), 0, Map.of());
        LoadCounters now = counters(T0 + 1_000_000_000L, 4_000, Map.of(200, 4_000L), 0, Map.of());
        CpuReading cpuBefore = new CpuReading(0, 0, 0, 0);
        CpuReading cpuAfter = new CpuReading(500_000_000L, 0, 0, 0);
        WindowFigures.Second served = WindowFigures.second(last, cpuBefore, now, cpuAfter, 5_000.0);
        assertThat(served.requestsPerSecond()).isEqualTo(5_000.0);
        assertThat(served.cpuMsPerRequest()).isCloseTo(0.1, within(1e-12));
        WindowFigures.Second k6s = WindowFigures.second(last, cpuBefore, now, cpuAfter, null);
        assertThat(k6s.requestsPerSecond()).as("no downstream count: k6's").isEqualTo(4_000.0);
        assertThat(k6s.cpuMsPerRequest()).isCloseTo(0.125, within(1e-12));
        // a request failed in the second: it may not have reached the downstream, so k6's count of the answers
        LoadCounters failed = counters(T0 + 1_000_000_000L, 4_000, Map.of(200, 4_000L), 0, Map.of("timeout", 1L));
        assertThat(WindowFigures.second(last, cpuBefore, failed, cpuAfter, 5_000.0).requestsPerSecond())
                .isEqualTo(4_000.0);
        assertThat(WindowFigures.second(last, cpuBefore, now, cpuAfter, 0.0).cpuMsPerRequest())
                .as("nothing served: no CPU per request").isNull();
    }

    // ---- each second -----------------------------------------------------------------------------------------

    @Test
    void eachSecondHasItsOwnRateAndCpuPerRequestAndTheirMedianIgnoresAStall() {
        // readings: answered (cumulative), nanos, CPU (cumulative). Seconds:
        //   1: 4,000 in 1 s, 0.50 s CPU -> 4,000 req/s, 0.125 ms
        //   2: 5,000 in 1.25 s (a late reading), 0.65 s -> 4,000 req/s, 0.13 ms
        //   3: none in 1 s, 0.01 s -> 0 req/s, no CPU per request
        //   4: 500 in 1 s, 0.50 s -> 500 req/s, 1.0 ms (the second after the stall)
        //   5: 4,000 in 1 s, 0.48 s -> 4,000 req/s, 0.12 ms
        long[] answered = {0, 4_000, 9_000, 9_000, 9_500, 13_500};
        long[] nanos = {0, 1_000_000_000L, 2_250_000_000L, 3_250_000_000L, 4_250_000_000L, 5_250_000_000L};
        long[] cpu = {0, 500_000_000L, 1_150_000_000L, 1_160_000_000L, 1_660_000_000L, 2_140_000_000L};
        List<Double> perSecond = new ArrayList<>();
        List<Double> cpuPerSecond = new ArrayList<>();
        for (int s = 1; s < answered.length; s++) {
            WindowFigures.Second second = WindowFigures.second(
                    counters(T0 + nanos[s - 1], answered[s - 1], Map.of(200, answered[s - 1]), 0, Map.of()),
                    new CpuReading(cpu[s - 1], 0, 0, 0),
                    counters(T0 + nanos[s], answered[s], Map.of(200, answered[s]), 0, Map.of()),
                    new CpuReading(cpu[s], 0, 0, 0), null);
            perSecond.add(second.requestsPerSecond());
            cpuPerSecond.add(second.cpuMsPerRequest());
        }
        assertThat(perSecond).containsExactly(4_000.0, 4_000.0, 0.0, 500.0, 4_000.0);
        assertThat(cpuPerSecond).hasSize(5).containsNull();
        assertThat(cpuPerSecond.get(0)).isCloseTo(0.125, within(1e-12));
        assertThat(cpuPerSecond.get(1)).isCloseTo(0.13, within(1e-12));
        assertThat(cpuPerSecond.get(3)).isCloseTo(1.0, within(1e-12));
        assertThat(cpuPerSecond.get(4)).isCloseTo(0.12, within(1e-12));

        WindowResult.Cpu figures = figures(before(), after(), true, perSecond, cpuPerSecond).cpu();
        assertThat(figures.perSecondMsPerRequest()).isEqualTo(cpuPerSecond);
        // the stalled second left out: 0.12, 0.125, 0.13, 1.0 -> (0.125 + 0.13) / 2 = 0.1275, where the whole
        // 5.25 s would say 2.14 s / 13,500 = 0.1585 ms
        assertThat(figures.medianMsPerRequest()).isCloseTo(0.1275, within(1e-12));
        assertThat(figures(before(), after(), true, perSecond, cpuPerSecond).load().perSecond())
                .isEqualTo(perSecond);
    }

    // ---- the machine -------------------------------------------------------------------------------------------

    @Test
    void theMachinesSpeedIsThePiecesTimedBetweenTheEdgesAveraged() {
        // the 100 pieces before the window, at 1,050 µs each, are not the window's
        assertThat(figures(before(), after()).instruments().yardstickUs()).isEqualTo(1260.0);
    }

    @Test
    void fewerThanThreePiecesInAWindowTimeNothing() {
        Edge after = after();
        Edge soon = new Edge(after.nanos(), after.at(), after.cpu(), after.delayCpu(), after.k6(),
                after.delayServed(), after.stats(), after.threads(), after.load(), after.metrics(), null,
                new Yardstick.Reading(102, 105_000_000L + 2 * 1_260_000L));
        assertThat(figures(before(), soon).instruments().yardstickUs()).isNull();
    }

    // ---- the sleeps --------------------------------------------------------------------------------------------

    @Test
    void sleepsPerRequestAreTheServingThreadsVoluntarySwitchesOverTheRequestsServed() {
        ThreadGroupTimes opening = new ThreadGroupTimes(Map.of(), Map.of(
                21L, new ThreadGroupTimes.Task("event loops", switches(1_000)),
                22L, new ThreadGroupTimes.Task("event loops", switches(500)),
                23L, new ThreadGroupTimes.Task("GC and VM", switches(70))));
        ThreadGroupTimes closing = new ThreadGroupTimes(Map.of(), Map.of(
                21L, new ThreadGroupTimes.Task("event loops", switches(1_000 + 20_480)),
                22L, new ThreadGroupTimes.Task("event loops", switches(500 + 10_240)),
                23L, new ThreadGroupTimes.Task("GC and VM", switches(9_070)))); // serves no request: not counted
        // 30,720 sleeps of the event loops over the 40,960 requests the delay service served
        assertThat(figures(withThreads(before(), opening), withThreads(after(), closing)).cpu().sleepsPerRequest())
                .isEqualTo(0.75);
        ThreadGroupTimes oneEnded = new ThreadGroupTimes(Map.of(), Map.of(
                21L, new ThreadGroupTimes.Task("event loops", switches(1_000 + 20_480))));
        assertThat(figures(withThreads(before(), opening), withThreads(after(), oneEnded)).cpu().sleepsPerRequest())
                .as("an event loop ended: its sleeps are unknown").isNull();
        assertThat(figures(before(), after()).cpu().sleepsPerRequest()).as("no thread named").isNull();
    }

    private static ThreadGroupTimes.Times switches(long voluntary) {
        return new ThreadGroupTimes.Times(1, 1_000_000, 0, voluntary, 0);
    }

    private static Edge withThreads(Edge e, ThreadGroupTimes threads) {
        return new Edge(e.nanos(), e.at(), e.cpu(), e.delayCpu(), e.k6(), e.delayServed(), e.stats(), threads,
                e.load(), e.metrics(), e.database(), e.yardstick());
    }

    // ---- the edges ---------------------------------------------------------------------------------------------

    @Test
    void aClosingEdgeThatIsNotAfterTheOpeningOneIsRefused() {
        Edge before = before();
        Edge same = new Edge(before.nanos(), before.at(), before.cpu(), before.delayCpu(), before.k6(),
                before.delayServed(), before.stats(), before.threads(), before.load(), before.metrics(), null,
                before.yardstick());
        assertThatThrownBy(() -> WindowFigures.of(new WindowFigures.Context(WINDOW, KNOBS, true, "t", false, null),
                before,
                same, LoadFigures.between(before.load(), same.load()), List.of(), List.of(), SETTLED))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("closing edge must come after its opening edge, was 0.0 s");
        assertThatThrownBy(() -> figures(after(), before()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("was -10.24 s");
    }

    private static ThreadGroupTimes threads(long compilerCpu, long compilerWait, long workerCpu) {
        return new ThreadGroupTimes(Map.of(ThreadGroupTimes.COMPILER,
                new ThreadGroupTimes.Times(2, compilerCpu, compilerWait, 0, 0),
                "worker pool", new ThreadGroupTimes.Times(101, workerCpu, 0, 0, 0)));
    }

    private static LoadCounters counters(long nanos, long sent, Map<Integer, Long> buckets, double latencyMsTotal,
                                         Map<String, Long> errors) {
        long[] counts = new long[LatencyBuckets.BUCKETS];
        buckets.forEach((bucket, n) -> counts[bucket] = n);
        LatencyBuckets latency = new LatencyBuckets(counts);
        return new LoadCounters(nanos, sent, latency.total(), latency, latencyMsTotal, errors);
    }
}
