package io.threadlab.experiment.collect;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.Headroom;
import io.threadlab.experiment.plan.Point;
import io.threadlab.experiment.plan.WindowId;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One measured window: which window it was and where on the grid, what the load saw, what the JVM spent, what the
 * instruments beside it spent, the compiler, the collector's pauses, each thread group, and the prediction made
 * before it was measured.
 * results.json writes each group as an object of its own; results.csv writes the same fields flat, one column per
 * field in this declaration order ({@link Columns}), so a field is declared once, here.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonIgnoreProperties(ignoreUnknown = true)
public record WindowResult(Identity window, Point at, Load load, Cpu cpu, Memory memory, Instruments instruments,
                           Compiler compiler, Gc gc, Map<String, Map<String, Number>> threadGroups,
                           @JsonInclude(JsonInclude.Include.NON_NULL) Prediction prediction,
                           @JsonInclude(JsonInclude.Include.NON_NULL) BurstFigures burst) {

    public WindowResult {
        threadGroups = threadGroups == null ? Map.of() : threadGroups;
    }

    /** A window of the closed or the open model: no burst. */
    public WindowResult(Identity window, Point at, Load load, Cpu cpu, Memory memory, Instruments instruments,
                        Compiler compiler, Gc gc, Map<String, Map<String, Number>> threadGroups, Prediction prediction) {
        this(window, at, load, cpu, memory, instruments, compiler, gc, threadGroups, prediction, null);
    }

    /** This window with the prediction made before it. */
    public WindowResult predicted(Prediction made) {
        return new WindowResult(window, at, load, cpu, memory, instruments, compiler, gc, threadGroups, made, burst);
    }

    /** This window with what its burst measured. */
    public WindowResult withBurst(BurstFigures figures) {
        return new WindowResult(window, at, load, cpu, memory, instruments, compiler, gc, threadGroups, prediction,
                figures);
    }

    /**
     * Which window: its name ({@link WindowId}), its variant, JVM and repetition, the scenario as results.csv names it,
     * its role (measured, or calibration), and when and where it ran.
     *
     * @param jvmLabel the variant and its setup where the map varies one (imperative-w512)
     * @param loadCpus where k6 and the delay service ran: "shared" (with the variant) or "separate"
     * @param measuredAt when the measured interval began (the first edge), to match a recording's seconds to it
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Identity(String id, String variant, String jvmLabel, int jvm, int repetition, String scenario,
                           boolean detailedRecording, String role, String jfrFile, String startedAt,
                           String measuredAt, String loadCpus) {

        public boolean calibration() {
            return WindowId.Role.CALIBRATION.name().toLowerCase(java.util.Locale.ROOT).equals(role);
        }
    }

    /**
     * What k6 saw between the window's two edges: requests, their latency (closed model: from its live counters; open
     * model: per step), failures by cause (timeout, refused, reset, network, http_4xx, http_502, ...), requests still
     * in flight at the end, arrivals it dropped. The throughput, per window and per second, is the delay service's
     * count of the requests it served where it counted them and none failed (a closed-model window on the HTTP
     * downstream; see the runner's WindowFigures), else k6's: {@code requests} stays k6's own count.
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Load(long requests, double windowSeconds, double requestsPerSecond, Double p50Ms, Double p90Ms,
                       Double p99Ms, Double maxMs, Double meanMs, long errors, Map<String, Long> errorCauses,
                       Long inFlight, long droppedIterations, List<Double> perSecond, List<OpenStep> steps) {
        public Load {
            errorCauses = errorCauses == null ? Map.of() : errorCauses;
            perSecond = perSecond == null ? List.of() : perSecond;
            steps = steps == null ? List.of() : steps;
        }

        /**
         * Whether k6 kept its live latency histogram for this window: only a window that read percentiles did (a
         * calibration's did not before 2026-12-04, and k6 spends less without it).
         */
        public boolean keptHistogram() {
            return p50Ms != null && !p50Ms.isNaN();
        }
    }

    /**
     * The variant's CPU over the window from its cgroup: seconds, per request (over the calls the delay service
     * answered in exactly that interval), cores, CFS periods and throttled periods, whether it kept its quota, the
     * times a thread serving requests (worker pool, event loops, carriers) went to sleep per request (its voluntary
     * context switches; null where a thread of theirs ended during the window, or where threads were not read), and
     * the CPU per request of each second (closed model), which shows where the seconds swung. The capacity model reads
     * the window's whole ({@code predict.Level#cpuMs}; the findings page weighs it against the seconds' median).
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Cpu(double cpuSeconds, double cpuMsPerRequest, double cpuCores, long periods, long throttledPeriods,
                      Boolean confinementHeld, Double sleepsPerRequest, List<Double> perSecondMsPerRequest) {
        public Cpu {
            perSecondMsPerRequest = perSecondMsPerRequest == null ? List.of() : perSecondMsPerRequest;
        }

        /**
         * The median of the seconds' CPU per request, or the window's where no second was recorded: the reading the
         * capacity model took before the window's whole, which the findings page sets beside it.
         */
        public double medianMsPerRequest() {
            double[] s = perSecondMsPerRequest.stream().filter(java.util.Objects::nonNull).mapToDouble(d -> d)
                    .filter(d -> d > 0).sorted().toArray();
            if (s.length == 0) {
                return cpuMsPerRequest;
            }
            return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
        }
    }

    /** The JVM at the window's end: RSS and OS threads from /proc, heap and live threads from its metrics. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Memory(double rssMb, int threads, Double heapLiveMb, Double heapUsedMb, Double liveThreads) {
    }

    /**
     * What the load generator and the delay service spent, and the wait the delay service actually served; in a run
     * with the lab's PostgreSQL, its CPU, its transactions (one per page query; PostgreSQL publishes them up to about
     * a second late), and the services' connections to it at the window's end, open and running a query (null
     * without it). Last, the requests the delay service served in the window (its calls ÷ the fan-out), a count of
     * the window independent of k6's, and how far apart in time the two counts were read, both edges together (null
     * where the downstream is the database, whose count is k6's). And the machine's own speed over the window: the
     * CPU-µs the runner's fixed piece of work took on average ({@code Yardstick}; null where it was not read).
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Instruments(double k6CpuSeconds, double delayCpuSeconds, double delayServedMeanMs,
                              Double dbCpuSeconds, Long dbTransactions, Integer dbConnections, Integer dbActive,
                              Long downstreamServed, Double countsApartSeconds, Double yardstickUs) {

        /** Without the database, nor the downstream's own count. */
        public Instruments(double k6CpuSeconds, double delayCpuSeconds, double delayServedMeanMs) {
            this(k6CpuSeconds, delayCpuSeconds, delayServedMeanMs, null, null, null, null, null, null, null);
        }
    }

    /**
     * How old a reading of k6's counters may be when nothing holds k6 up: a request's samples reach them through two
     * stages that each hand them on every 50 ms (its output manager, then its metrics engine's ingester).
     */
    public static final double K6_BATCHING_SECONDS = 0.1;

    /**
     * Whether k6's count of the answers in a closed-model window agrees with the downstream's count of the requests
     * it served in the same interval. Correct counts can differ only by the requests in flight at the two edges (a
     * user has at most one), the failures (answered, perhaps without a call), what was answered while the two were
     * read apart, and what k6 had not yet handed on to its counters ({@link #K6_BATCHING_SECONDS}); more than that,
     * and one count is wrong: k6's, whose counters fall further behind its users when it is short of CPU. Null where
     * there is no independent count, or no users to bound it (the open model).
     */
    @JsonIgnore
    public Boolean countsAgree() {
        Integer users = users();
        if (instruments.downstreamServed() == null || instruments.countsApartSeconds() == null || users == null) {
            return null;
        }
        return Math.abs(load.requests() - instruments.downstreamServed()) <= countsMayDiffer();
    }

    /** The two counts side by side, and how far apart they may be (only where both were read). */
    @JsonIgnore
    public String countsDescribed() {
        long served = instruments.downstreamServed();
        return String.format(java.util.Locale.ROOT, "k6 counted %,d answers, the delay service %,d requests served:"
                        + " %,d apart (%+.0f %%); correct counts differ by at most %,.0f (%,d users, %,d failures,"
                        + " %.3f s read apart, k6's %.1f s of batching)", load.requests(), served,
                Math.abs(load.requests() - served),
                served == 0 ? 0 : (load.requests() / (double) served - 1) * 100, countsMayDiffer(), users(),
                load.errors(), instruments.countsApartSeconds(), K6_BATCHING_SECONDS);
    }

    /**
     * How far apart the two counts may be: the requests in flight, the failures, those answered between the readings
     * or not yet in k6's counters.
     */
    @JsonIgnore
    public double countsMayDiffer() {
        return users() + load.errors() + load.requestsPerSecond() * (instruments.countsApartSeconds()
                + K6_BATCHING_SECONDS) + 1;
    }

    /**
     * The JIT during the window (a finished JIT neither runs nor waits to run), and the load before it until the
     * compiler was quiet.
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Compiler(double compilerCpuMs, double compilerShare, double compilerWaitMs, double settleSeconds,
                           boolean settleQuiet) {
    }

    /**
     * The collector's pauses during the window, young (minor) and full (major), from the variant's own metrics
     * (Micrometer's jvm.gc.pause) scraped just before its opening edge and just after its closing one; null where
     * either scrape went unanswered. A collector that pauses counts its CPU in the window's: these say how much of it.
     *
     * @param promotedMb what the young collections moved to the old generation (Micrometer's jvm.gc.memory.promoted),
     *                   in MB; null where it was not read (runs before it was). A JVM whose young collections keep
     *                   little alive promotes next to nothing; one that promotes tens of MB a second copies them in
     *                   every pause and collects them again in full ones, and pays for it in CPU per request (see
     *                   {@code WarmUp#collect}).
     * @param survivorMb    what the survivor space held at the window's end (jvm.memory.used of the pool whose id names
     *                      a survivor space), in MB: what the last young collection kept alive in the young generation,
     *                      the requests then in flight among it; null where it was not read (runs before it was)
     * @param survivorMaxMb the survivor space's size (jvm.memory.max of that pool), in MB: past it a young collection
     *                      promotes what it cannot keep; null where not read or not fixed (G1 gives none)
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Gc(long minorCollections, double minorPauseSeconds, long majorCollections,
                     double majorPauseSeconds, Double promotedMb, Double survivorMb, Double survivorMaxMb) {

        /** The pauses between an earlier cumulative reading and this one; the survivor space as this one found it. */
        public Gc since(Gc earlier) {
            return new Gc(minorCollections - earlier.minorCollections, minorPauseSeconds - earlier.minorPauseSeconds,
                    majorCollections - earlier.majorCollections, majorPauseSeconds - earlier.majorPauseSeconds,
                    promotedMb == null || earlier.promotedMb == null ? null : promotedMb - earlier.promotedMb,
                    survivorMb, survivorMaxMb);
        }

        /** What the young collections promoted a second over {@code seconds}; null where it was not read. */
        public Double promotedMbPerSecond(double seconds) {
            return promotedMb == null || !(seconds > 0) ? null : promotedMb / seconds;
        }

        /** The share of {@code seconds} the JVM spent paused for its collector. */
        public double pauseShare(double seconds) {
            return (minorPauseSeconds + majorPauseSeconds) / seconds;
        }
    }

    /**
     * What the capacity model said of this window before it was measured, from its JVM's calibration: the throughput,
     * the ceiling that binds it and how clearly (the next ceiling over it), the latency and memory, the relative error
     * to expect, whether the point lay beyond the calibrated users, and whose calibration it came from.
     *
     * @param calibratedOn the JVM whose calibration made it (this window's own, or its variant's first JVM start)
     * @param ceilings     requests per second each ceiling allows, by name (cpu, workers, connections, users, load)
     * @param predictedK6Cores k6's CPU at the predicted throughput (null: not forecast, as before it was)
     * @param nextError        the next ceiling's own relative error (null: not recorded, as before it was; the
     *                         interval is then the binding ceiling's alone)
     * @param predictedMachineUs the machine's speed it was made for: the runner's fixed piece of work's CPU-µs in the
     *                         windows measured before it (null: the calibration's own speed, as before it was)
     * @param predictedK6Error the relative error of {@code predictedK6Cores} its calibration earned (null: not
     *                         stated, as before it was)
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Prediction(double predictedRps, String binding, double margin, Double predictedP50Ms,
                             Double predictedRssMb, double expectedError, boolean extrapolated, String predictedAt,
                             String calibratedOn, Map<String, Double> ceilings, Double predictedK6Cores,
                             Double nextError, Double predictedMachineUs, Double predictedK6Error)
            implements Interval.Stated {

        /** The interval stated with it ({@link Interval}). */
        @Override
        public Interval interval() {
            return Interval.of(predictedRps, expectedError, margin, nextError);
        }

        /** Whether a measurement fell inside the interval stated before it. */
        public boolean covers(double measured) {
            return interval().covers(measured);
        }
    }

    /**
     * What a burst measured ({@code --shape burst}), beside the load's figures (its failures by cause, its latencies):
     * the time from the common start to the last answer (k6's, the latest of its senders), how late the senders fired,
     * the most calls the variant had at the delay service at once (sampled there every
     * {@code plan.Burst.SAMPLE_MILLIS}, at no cost to the variant: the concurrency its model reached, its workers or
     * its connections), k6's peak memory, and the time predicted before it fired with the ceiling that set it.
     *
     * @param bindingSlots    the workers or connections the binding ceiling counts (null: the CPU's, or none)
     * @param cpuShareOfQuota the variant's CPU between the window's edges (just before the common start, k6's end), as
     *                        a share of its quota
     * @param k6Cores         k6's CPU over the same time, in cores
     * @param ceilingsMs the time each ceiling allows, by name (workers, connections, cpu), as predicted
     * @param samples    each sample's {@code [ms since the common start, calls the delay service answered since the
     *                   burst began, calls it held]}
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record BurstFigures(int senders, Double timeToLastAnswerMs, Double maxFireLagMs,
                               long lateSenders, long preopenFailed, Double peakDownstreamInFlight,
                               Integer bindingSlots, Double cpuShareOfQuota, Double k6Cores,
                               Double k6PeakRssMb, Double predictedMs, String predictedBinding,
                               Map<String, Double> ceilingsMs, List<List<Double>> samples) {
        public BurstFigures {
            ceilingsMs = ceilingsMs == null ? Map.of() : ceilingsMs;
            samples = samples == null ? List.of() : samples;
        }

        /** The measured time against the predicted one: +0.10 is 10 % longer than predicted; null if either is. */
        public Double gap() {
            return timeToLastAnswerMs == null || predictedMs == null || predictedMs <= 0 ? null
                    : timeToLastAnswerMs / predictedMs - 1;
        }
    }

    // The keys of a window, as every table and statistic asks for them.

    public String variant() {
        return window.variant();
    }

    public int jvm() {
        return window.jvm();
    }

    public int repetition() {
        return window.repetition();
    }

    public String scenario() {
        return window.scenario();
    }

    public boolean recorded() {
        return window.detailedRecording();
    }

    public boolean calibration() {
        return window.calibration();
    }

    /** The burst's requests (null but for a burst). */
    public Integer requests() {
        return at.get(Axis.REQUESTS);
    }

    /** The closed model's users (null for the open model and the burst). */
    public Integer users() {
        return at.get(Axis.USERS);
    }

    public Integer delayMs() {
        return at.get(Axis.DELAY_MS);
    }

    /** Which JVM start of which JVM ({@code imperative-jvm1}): a calibration and its predictions share it. */
    @JsonIgnore
    public String jvmId() {
        return jvmName() + "-jvm" + jvm();
    }

    /** The JVM's name, for runs before it was recorded: the variant's. */
    public String jvmName() {
        return window.jvmLabel() != null ? window.jvmLabel() : window.variant();
    }

    /**
     * Whether k6 had room in this window, on a machine of {@code machineCores}, which it had to itself where
     * {@code loadAlone} (the services elsewhere): the one rule, applied.
     */
    public Headroom headroom(double machineCores, boolean loadAlone) {
        double seconds = Math.max(1e-9, load.windowSeconds());
        if (loadAlone) {
            return Headroom.alone(instruments.k6CpuSeconds() / seconds, machineCores);
        }
        return Headroom.of(instruments.k6CpuSeconds() / seconds, machineCores, cpu.cpuCores(),
                instruments.delayCpuSeconds() / seconds,
                instruments.dbCpuSeconds() == null ? 0 : instruments.dbCpuSeconds() / seconds,
                "separate".equals(window.loadCpus()));
    }

    /** The window axes: what a report cell is keyed by. */
    @JsonIgnore
    public Point cell() {
        return at.only(Axis.Scope.WINDOW);
    }
}
