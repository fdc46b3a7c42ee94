package io.threadlab.experiment.testing;

import io.threadlab.experiment.collect.OpenStep;
import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.FanOutMode;
import io.threadlab.experiment.plan.Point;
import io.threadlab.experiment.plan.WindowId;

import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Windows for tests, as the runner would write them: a closed-model window of one variant at some users and some
 * throughput, every other field as a real row of a 10 s window at 10 ms on 0.5 CPU would have it, each changeable.
 * CPU follows from the throughput and the CPU per request; the mean response time, where not given, from Little's law.
 */
public final class Windows {

    private String variant;
    private String jvmLabel;
    private int jvm = 1;
    private int repetition = 1;
    private Integer users;
    private int delayMs = 10;
    private double quota = 0.5;
    private int workerMax = 200;
    private int poolSize = 1000;
    private double rps;
    private double seconds = 10;
    private double cpuMs = 0.1;
    private Double cpuCores;
    private Double meanMs;
    private Long inFlight;
    private Double p99Ms;
    private long errors;
    private Map<String, Long> causes = Map.of();
    private List<Double> perSecond = List.of();
    private List<Double> cpuPerSecond = List.of();
    private List<OpenStep> steps = List.of();
    private boolean recorded;
    private WindowId.Role role = WindowId.Role.MEASURED;
    private double rssMb = 300;
    private double liveThreads = 30;
    private Integer osThreads;
    private double heapUsedMb = 100;
    private double heapLiveMb = 50;
    private Double[] latency;
    private Long throttled;
    private Double delayServedMs;
    private Long downstreamServed;
    private Double countsApartSeconds;
    private Double yardstickUs;
    private Double sleepsPerRequest;
    private double k6Cores = 0.3;
    private double delayCores = 0.1;
    private double compilerShare = 0.005;
    private String loadCpus = "shared";
    private Instant startedAt = Instant.parse("2026-11-23T10:00:00Z");
    private WindowResult.Prediction prediction;
    private int fanOut = 1;
    private WindowResult.Gc gc;
    private FanOutMode fanOutMode = FanOutMode.PARALLEL;
    private Point also = Point.NONE;

    private Windows(String variant, Integer users, double rps) {
        this.variant = variant;
        this.users = users;
        this.rps = rps;
    }

    /** A plain closed-model window. */
    public static Windows closed(String variant, int users, double rps) {
        return new Windows(variant, users, rps);
    }

    /** The open model's window, with its steps. */
    public static Windows open(String variant, List<OpenStep> steps) {
        Windows w = new Windows(variant, null, steps.stream().mapToDouble(OpenStep::achievedRate).max().orElse(0));
        w.steps = steps;
        return w;
    }

    public Windows jvm(int start) {
        this.jvm = start;
        return this;
    }

    public Windows repetition(int rep) {
        this.repetition = rep;
        return this;
    }

    /** The JVM's name where its setup differs from the run's (imperative-w512). */
    public Windows jvmLabel(String label) {
        this.jvmLabel = label;
        return this;
    }

    public Windows delay(int ms) {
        this.delayMs = ms;
        return this;
    }

    public Windows quota(double cpus) {
        this.quota = cpus;
        return this;
    }

    public Windows workers(int max) {
        this.workerMax = max;
        return this;
    }

    public Windows pool(int size) {
        this.poolSize = size;
        return this;
    }

    public Windows cpuMs(double perRequest) {
        this.cpuMs = perRequest;
        return this;
    }

    /** The CPU the JVM used, where it is not throughput × CPU per request. */
    public Windows cpuCores(double cores) {
        this.cpuCores = cores;
        return this;
    }

    public Windows meanMs(double ms) {
        this.meanMs = ms;
        return this;
    }

    /** Requests still in flight at the window's end (default 0 for the closed model). */
    public Windows inFlight(long requests) {
        this.inFlight = requests;
        return this;
    }

    public Windows p99(double ms) {
        this.p99Ms = ms;
        return this;
    }

    public Windows errors(long count, Map<String, Long> byCause) {
        this.errors = count;
        this.causes = byCause;
        return this;
    }

    public Windows perSecond(List<Double> counts) {
        this.perSecond = counts;
        return this;
    }

    /** Each second's CPU per request (the window's own stays {@link #cpuMs}'s). */
    public Windows cpuPerSecond(List<Double> perRequest) {
        this.cpuPerSecond = perRequest;
        return this;
    }

    public Windows recorded() {
        this.recorded = true;
        return this;
    }

    public Windows calibration() {
        this.role = WindowId.Role.CALIBRATION;
        return this;
    }

    /** p50, p90, p99 and max, where they are not the mean's multiples. */
    public Windows latency(double p50, double p90, double p99, double max) {
        this.latency = new Double[] {p50, p90, p99, max};
        return this;
    }

    /** No percentile measured: k6 ran without its latency histogram (a calibration before 2026-12-04). */
    public Windows withoutPercentiles() {
        this.latency = new Double[] {null, null, null, null};
        return this;
    }

    public Windows memory(double rss, int threads, double heapUsed, double heapLive, double live) {
        this.rssMb = rss;
        this.osThreads = threads;
        this.heapUsedMb = heapUsed;
        this.heapLiveMb = heapLive;
        this.liveThreads = live;
        return this;
    }

    public Windows throttled(long periods) {
        this.throttled = periods;
        return this;
    }

    /** The delay service's own count of the window's requests, read this far apart from k6's at the edges. */
    public Windows served(long requests, double apartSeconds) {
        this.downstreamServed = requests;
        this.countsApartSeconds = apartSeconds;
        return this;
    }

    public Windows delayServed(double ms) {
        this.delayServedMs = ms;
        return this;
    }

    public Windows rss(double mb) {
        this.rssMb = mb;
        return this;
    }

    public Windows liveThreads(double threads) {
        this.liveThreads = threads;
        return this;
    }

    /** Times a thread serving requests went to sleep, per request (none unless a test says so). */
    public Windows sleeps(double perRequest) {
        this.sleepsPerRequest = perRequest;
        return this;
    }

    /** The CPU-µs the runner's fixed piece of work took during the window (none unless a test says so). */
    public Windows yardstick(double us) {
        this.yardstickUs = us;
        return this;
    }

    public Windows k6Cores(double cores) {
        this.k6Cores = cores;
        return this;
    }

    public Windows delayCores(double cores) {
        this.delayCores = cores;
        return this;
    }

    public Windows compilerShare(double share) {
        this.compilerShare = share;
        return this;
    }

    /** The collector's pauses in the window: {@code minorSeconds} over young collections, {@code majorSeconds} full. */
    public Windows gcPauses(double minorSeconds, double majorSeconds) {
        this.gc = new WindowResult.Gc(minorSeconds > 0 ? 3 : 0, minorSeconds, majorSeconds > 0 ? 1 : 0, majorSeconds,
                null, null, null);
        return this;
    }

    /** {@code count} young collections in the window, pausing {@code seconds} together. */
    public Windows youngCollections(long count, double seconds) {
        this.gc = new WindowResult.Gc(count, seconds, 0, 0, 0.0, null, null);
        return this;
    }

    /** What the survivor space held at the window's end, of its {@code maxMb}, and what was promoted, in MB. */
    public Windows survivors(double mb, double maxMb, double promotedMb) {
        this.gc = new WindowResult.Gc(gc.minorCollections(), gc.minorPauseSeconds(), gc.majorCollections(),
                gc.majorPauseSeconds(), promotedMb, mb, maxMb);
        return this;
    }

    /** The pauses, and what the young collections promoted to the old generation in the window, in MB. */
    public Windows gcPauses(double minorSeconds, double majorSeconds, double promotedMb) {
        this.gc = new WindowResult.Gc(minorSeconds > 0 ? 3 : 0, minorSeconds, majorSeconds > 0 ? 1 : 0, majorSeconds,
                promotedMb, null, null);
        return this;
    }

    public Windows separateLoad() {
        this.loadCpus = "separate";
        return this;
    }

    public Windows startedAt(Instant at) {
        this.startedAt = at;
        return this;
    }

    /** N calls to the delay service per request, in a mode (one call: the point without the fan-out axes). */
    public Windows fanOut(int calls, FanOutMode mode) {
        this.fanOut = calls;
        this.fanOutMode = mode;
        return this;
    }

    /** Values on other axes too (a test's own axis, say), in the point and the window's name. */
    public Windows at(Point more) {
        this.also = more;
        return this;
    }

    public Windows prediction(WindowResult.Prediction made) {
        this.prediction = made;
        return this;
    }

    public WindowResult build() {
        Point at = Point.of(Axis.CPUS, quota).with(Axis.WORKER_MAX, workerMax).with(Axis.POOL_SIZE, poolSize)
                .with(Axis.DELAY_MS, delayMs).with(Axis.USERS, users)
                .with(Axis.FAN_OUT, fanOut == 1 ? null : fanOut)
                .with(Axis.FAN_OUT_MODE, fanOut == 1 ? null : fanOutMode).and(also);
        String scenario = (users == null ? "open" : "closed-" + users) + (recorded ? "-jfr" : "");
        String label = jvmLabel != null ? jvmLabel : variant;
        String id = String.format(Locale.ROOT, "%s-%dms%s-%s-%s%d", label, delayMs, fanOut == 1 ? ""
                        : "-fan" + fanOut + (fanOutMode == FanOutMode.SEQUENTIAL ? "-sequential" : ""), scenario,
                role == WindowId.Role.CALIBRATION ? "cal" : "", role == WindowId.Role.CALIBRATION ? jvm : repetition);
        if (!also.isEmpty()) { // named by the runner's own rules, which know every axis
            id = new WindowId(variant, at.without(Axis.CPUS, Axis.WORKER_MAX, Axis.POOL_SIZE), recorded, role,
                    role == WindowId.Role.CALIBRATION ? jvm : repetition).format();
        }
        double mean = meanMs != null ? meanMs : users != null && rps > 0 ? users / rps * 1000 : 10;
        double cores = cpuCores != null ? cpuCores : rps * cpuMs / 1000;
        return new WindowResult(
                new WindowResult.Identity(id, variant, label, jvm, repetition, scenario, recorded,
                        role.name().toLowerCase(Locale.ROOT), recorded ? "jfr/" + id + ".jfr" : null,
                        startedAt.toString(), startedAt.plusSeconds(3).toString(), loadCpus),
                at,
                new WindowResult.Load(Math.round(rps * seconds), seconds, rps,
                        latency != null ? latency[0] : Double.valueOf(mean * 0.9),
                        latency != null ? latency[1] : Double.valueOf(mean * 1.5),
                        latency != null ? latency[2] : p99Ms != null ? p99Ms : Double.valueOf(mean * 3),
                        latency != null ? latency[3] : Double.valueOf(mean * 5), mean, errors, causes, users == null ? null : inFlight != null ? inFlight : 0L,
                        0, perSecond, steps),
                new WindowResult.Cpu(cores * seconds, cpuMs, cores, 100, throttled != null ? throttled
                        : Math.round(100 * Math.min(1, cores / quota)), cores <= quota * 1.05, sleepsPerRequest,
                        cpuPerSecond),
                new WindowResult.Memory(rssMb, osThreads != null ? osThreads : (int) liveThreads + 20, heapLiveMb,
                        heapUsedMb, liveThreads),
                new WindowResult.Instruments(k6Cores * seconds, delayCores * seconds,
                        delayServedMs != null ? delayServedMs : delayMs + 0.4, null, null, null, null,
                        // a closed window's own count agrees with k6's unless a test says otherwise
                        downstreamServed != null || users == null ? downstreamServed
                                : Long.valueOf(Math.round(rps * seconds)),
                        countsApartSeconds != null || users == null ? countsApartSeconds : Double.valueOf(0.005),
                        yardstickUs),
                new WindowResult.Compiler(compilerShare * quota * seconds * 1000, compilerShare, 1.0, 3, true),
                gc, Map.of(), prediction);
    }
}
