package io.threadlab.experiment.predict;

import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.Downstream;
import io.threadlab.experiment.plan.Point;
import io.threadlab.experiment.plan.Variant;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One JVM's capacity model, fitted to its calibration windows and nothing else, so that every other point is
 * predicted before it is measured:
 * <ul>
 * <li>CPU: the quota ÷ the CPU one request costs at the point, where the CPU is the bottleneck. That cost is not a
 * constant of a variant: it falls as more requests wait in the JVM for the CPU, and it rises as more calls are out at
 * the downstream ({@link CpuCurve}). The point's requests waiting and calls in flight are solved with its
 * throughput. A level counts where the JVM used at least {@link #LIGHT_SHARE} of its quota: below that its CPU is
 * partly its own idle work, spread over few requests. A level's cost is its windows' whole ({@link Level#cpuMs}),
 * taken to the calibration's machine speed, and a forecast's to the speed of the machine it is for
 * ({@link MachineSpeed}); beyond the calibrated users, a note where the requests alive would overflow the
 * collector's survivor space ({@link SurvivorSpace});</li>
 * <li>workers (worker variants) and connections (the REST client's pool to the delay service, or the database pool):
 * the pool ÷ the time a request holds one, the downstream's delay plus the overhead the JVM showed above its delay
 * where nothing queued. The whole request is taken as holding its connection: what it spends before and after its
 * call makes this a lower bound of the pool's ceiling;</li>
 * <li>the database's CPU (database downstream): its quota ÷ the CPU one query costs it at the point's load, between
 * the calibration levels' (PostgreSQL's own cost per query moves with its load);</li>
 * <li>users: the closed model's users ÷ that same time;</li>
 * <li>each of these slot ceilings (workers, connections, database pool, users) less the collector's pauses at its
 * throughput and users, through which every slot stays held ({@link CollectorPauses});</li>
 * <li>the load generator, on the machine it shares with the service ({@link LoadCost}): where k6 would need more CPU
 * than the service's quota and the delay service leave it.</li>
 * </ul>
 * A fan-out point (N calls to the delay service per request) is predicted from the same calibration: each call holds a
 * connection as long as the one call did, so the connections allow pool ÷ (N × hold) requests a second in either
 * mode; a worker variant's request holds its own worker and, in parallel, N more for its calls on the same pool
 * (Quarkus' ManagedExecutor is the worker pool): workers ÷ ((1 + N) × hold) until they queue for it, then less
 * ({@link FanOut#workersCeiling}), or sequentially one worker for N holds: workers ÷ (N × hold); a request lasts one hold in parallel (its slowest call) and N sequentially, for the users'
 * ceiling. The CPU per request at N calls is a line in N through one call's and the calibration's fan-out window of
 * that mode ({@link FanOutCalibration}).
 * The prediction is the lowest ceiling, named, with the error its cost earned; where the next ceiling lies within the
 * two's errors of it, the forecast says two ceilings bind nearly together. The latency is the closed model's (users ÷
 * throughput); the memory a straight line in the users through the calibration's RSS.
 */
public final class CapacityModel implements ForecastNotes.Model {

    /** The least relative error any prediction claims: windows of one JVM differ by about this much. */
    static final double LEAST_ERROR = CpuCurve.LEAST_ERROR;
    /** A level is light (nothing queued) below this share of its quota; at or above it, a point of the CPU curve. */
    public static final double LIGHT_SHARE = 0.8;
    /** A calibration level saturated the CPU at or above this share of its quota. */
    static final double SATURATED_SHARE = 0.9;

    private final String jvm;
    private final Variant.Threads threads;
    private final List<Level> levels;
    private final CpuCurve curve;
    private final boolean saturated;
    private final int delayMs;
    /** What the downstream took above its delay in the calibration: a request is at the downstream that long. */
    private final double downstreamLateMs;
    private final double quota;
    private final double overheadMs;
    private final boolean overheadMeasured;
    private final double[] rssLine;
    private final Downstream downstream;
    /** The database's quota at calibration (null without the database). */
    private final Double dbQuota;
    private final FanOutCalibration fanOut;
    private final LoadCost load;
    /** The CPUs of the machine k6 shares with the service; NaN: k6 elsewhere, or not known (no load ceiling). */
    private final double machineCores;
    private final CollectorPauses pauses;
    private final MachineSpeed machine;
    private final SlotErrors slots;

    private CapacityModel(String jvm, Variant.Threads threads, List<Level> levels, CpuCurve curve, boolean saturated,
                          int delayMs, double downstreamLateMs, double quota, double overheadMs,
                          boolean overheadMeasured, double[] rssLine, Downstream downstream, Double dbQuota,
                          FanOutCalibration fanOut, LoadCost load, double machineCores, CollectorPauses pauses,
                          MachineSpeed machine, SlotErrors slots) {
        this.jvm = jvm;
        this.threads = threads;
        this.levels = levels;
        this.curve = curve;
        this.saturated = saturated;
        this.delayMs = delayMs;
        this.downstreamLateMs = downstreamLateMs;
        this.quota = quota;
        this.overheadMs = overheadMs;
        this.overheadMeasured = overheadMeasured;
        this.rssLine = rssLine;
        this.downstream = downstream;
        this.dbQuota = dbQuota;
        this.fanOut = fanOut;
        this.load = load;
        this.machineCores = machineCores;
        this.pauses = pauses;
        this.machine = machine;
        this.slots = slots;
    }

    /** A model, or why there is none. */
    public record Fit(Optional<CapacityModel> model, String missing) {
    }

    /**
     * The model of the JVM whose calibration windows these are; empty when they do not calibrate it (fewer than two
     * numbers of users with a CPU per request and a mean response time), with the reason.
     */
    public static Fit fit(String jvm, Variant.Threads threads, List<WindowResult> calibration) {
        List<Level> timed = Level.of(calibration);
        MachineSpeed machine = MachineSpeed.of(timed);
        List<Level> levels = timed.stream().map(machine::atCalibration).toList();
        if (levels.stream().map(Level::users).distinct().count() < 2) {
            return new Fit(Optional.empty(), jvm + ": " + (calibration.isEmpty() ? "no calibration windows"
                    : "calibration windows at " + levels.size() + " number of users with a CPU per request, a mean"
                    + " response time and their users busy; the model needs two"));
        }
        WindowResult first = calibration.stream().filter(r -> r.users() != null && r.delayMs() != null).findFirst()
                .orElseThrow();
        int delay = first.delayMs();
        double quota = first.at().get(Axis.CPUS);
        Integer workers = first.at().get(Axis.WORKER_MAX);
        Downstream downstream = first.at().has(Axis.DOWNSTREAM) ? first.at().get(Axis.DOWNSTREAM) : Downstream.HTTP;
        // a level is light only where each request had a connection of its own: the pool of its downstream
        Integer pool = first.at().get(downstream == Downstream.DB ? Axis.DB_POOL_SIZE : Axis.POOL_SIZE);
        List<Level> light = levels.stream().filter(l -> l.cores() < LIGHT_SHARE * quota
                && (pool == null || l.users() <= pool)
                && (threads != Variant.Threads.WORKER || workers == null || l.users() <= workers)).toList();
        double overhead;
        boolean measured = !light.isEmpty();
        if (measured) {
            overhead = light.stream().mapToDouble(l -> Math.max(0, l.meanMs() - l.delayMs())).min().orElseThrow();
        } else { // the least a request can take above the delay: its own CPU, stretched by the quota
            double served = calibration.stream().filter(r -> r.delayMs() != null && r.delayMs() == delay)
                    .mapToDouble(r -> r.instruments().delayServedMeanMs()).filter(d -> !Double.isNaN(d)).min()
                    .orElse(delay);
            overhead = Math.max(0, served - delay) + levels.getFirst().cpuMs() / quota;
        }
        boolean saturated = levels.stream().anyMatch(l -> l.cores() >= SATURATED_SHARE * quota);
        List<Level> busy = levels.stream().filter(l -> l.cores() >= LIGHT_SHARE * quota).toList();
        List<Level> cpu = busy.isEmpty() ? List.of(levels.stream().max(Comparator.comparingDouble(Level::cores))
                .orElseThrow()) : busy;
        double late = calibration.stream().filter(r -> r.delayMs() != null)
                .mapToDouble(r -> r.instruments().delayServedMeanMs() - r.delayMs()).filter(d -> !Double.isNaN(d))
                .average().orElse(0);
        CpuCurve curve = CpuCurve.fit(cpu.stream().map(Level::onCurve).toList());
        CollectorPauses pauses = CollectorPauses.fit(levels, calibration);
        CapacityModel model = new CapacityModel(jvm, threads, levels, curve, saturated, delay, Math.max(0, late),
                quota, overhead, measured, Line.fit(levels.stream().map(l -> new double[] {l.users(), l.rssMb()})
                .toList()), downstream, first.at().get(Axis.DB_CPUS), FanOutCalibration.NONE,
                LoadCost.fit(calibration), Double.NaN, pauses, machine,
                SlotErrors.of(levels, pools(threads, downstream, first.at()), overhead, quota, pauses));
        return new Fit(Optional.of(model.with(FanOutCalibration.of(calibration, levels,
                SATURATED_SHARE * quota, model::cost))), null);
    }

    private CapacityModel with(FanOutCalibration calibrated) {
        return new CapacityModel(jvm, threads, levels, curve, saturated, delayMs, downstreamLateMs, quota, overheadMs,
                overheadMeasured, rssLine, downstream, dbQuota, calibrated, load, machineCores, pauses, machine, slots);
    }

    /**
     * This model on a machine of {@code cores} CPUs that k6 shares with the service: it then names the load generator
     * where k6 would bind. NaN: k6 runs elsewhere, or the machine is not known.
     */
    public CapacityModel onMachine(double cores) {
        return new CapacityModel(jvm, threads, levels, curve, saturated, delayMs, downstreamLateMs, quota, overheadMs,
                overheadMeasured, rssLine, downstream, dbQuota, fanOut, load, cores, pauses, machine, slots);
    }

    /**
     * This model for a machine whose fixed piece of work takes {@code yardstickUs} CPU-µs ({@link MachineSpeed}): a
     * request's CPU scaled from the calibration's speed to it. Null: the calibration's speed.
     */
    public CapacityModel forMachine(Double yardstickUs) {
        return new CapacityModel(jvm, threads, levels, curve, saturated, delayMs, downstreamLateMs, quota, overheadMs,
                overheadMeasured, rssLine, downstream, dbQuota, fanOut, load, machineCores, pauses,
                machine.forMachine(yardstickUs), slots);
    }

    /**
     * The throughput and the rest at {@code at}: the JVM axes (quota, worker maximum, pool) and the window axes (delay,
     * users) of the point; a JVM axis the point does not give is the calibration's.
     */
    public Forecast predict(Point at) {
        int users = require(at, Axis.USERS);
        int delay = require(at, Axis.DELAY_MS);
        double cpus = at.has(Axis.CPUS) ? at.get(Axis.CPUS) : quota;
        FanOut calls = FanOut.at(at);
        List<String> notes = new ArrayList<>();
        double callSeconds = Math.max(delay + downstreamLateMs, 0.05) / 1000;
        double downstreamSeconds = callSeconds * (calls.parallel() ? 1 : calls.calls());
        boolean outside = users > mostUsers() || delay > delays().getLast() || delay < delays().getFirst()
                || cpus != quota;
        // past the client's pool, users queue for a connection, not for the CPU (Level#holding)
        double waiting = Solve.waiting((int) Math.min(users, Level.holding(at)), downstreamSeconds, q -> throughput(q,
                cpus, calls, callSeconds, outside));
        double rpsCpu = throughput(waiting, cpus, calls, callSeconds, outside);
        // every call out counts, at least one as the levels count (Level#inFlight; fewer: read e-folds below them all)
        CpuCurve.Cost cost = cost(waiting, Math.max(1, rpsCpu * callSeconds * calls.calls()), outside); // one call's
        cost = atQuota(cost, cpus);
        double requestCpuMs = fanOut.requestCpuMs(cost.cpuMs(), calls);
        pauses.survivors().note(users, notes);
        cost = fanOut.widen(cost, calls, users, waiting, this::cost, notes, requestCpuMs);
        double holdSeconds = Math.max(delay + overheadMs, 0.05) / 1000;
        double requestSeconds = calls.parallel() ? holdSeconds : calls.calls() * holdSeconds;
        Map<Ceiling, Double> ceilings = new EnumMap<>(Ceiling.class);
        ceilings.put(Ceiling.CPU, cpus * 1000 / requestCpuMs);
        if (threads == Variant.Threads.WORKER && at.has(Axis.WORKER_MAX)) {
            ceilings.put(Ceiling.WORKERS, calls.workersCeiling(at.get(Axis.WORKER_MAX), users, holdSeconds));
            calls.workersNote(at.get(Axis.WORKER_MAX), users, holdSeconds).ifPresent(notes::add);
        }
        if (downstream == Downstream.HTTP && at.has(Axis.POOL_SIZE)) {
            ceilings.put(Ceiling.CONNECTIONS, at.get(Axis.POOL_SIZE) / (calls.calls() * holdSeconds));
        }
        if (downstream == Downstream.DB && at.has(Axis.DB_POOL_SIZE)) {
            ceilings.put(Ceiling.DB_POOL, at.get(Axis.DB_POOL_SIZE) / holdSeconds);
        }
        Double dbCpus = at.has(Axis.DB_CPUS) ? at.get(Axis.DB_CPUS) : dbQuota;
        double dbCpuMs = DatabaseCpu.msPerQueryAt(levels, rpsCpu);
        if (downstream == Downstream.DB && dbCpus != null && dbCpuMs > 0) {
            ceilings.put(Ceiling.DB_CPU, dbCpus * 1000 / dbCpuMs);
        }
        ceilings.put(Ceiling.USERS, users / requestSeconds);
        if (load.known() && !Double.isNaN(machineCores)) {
            ceilings.put(Ceiling.LOAD, load.ceiling(calls.calls(), machineCores, cpus));
        }
        pauses.apply(ceilings, users, notes);
        machine.note().ifPresent(notes::add);
        Map.Entry<Ceiling, Double> binding = ceilings.entrySet().stream()
                .min(Comparator.comparingDouble(Map.Entry::getValue)).orElseThrow();
        double rps = binding.getValue();
        Map.Entry<Ceiling, Double> next = ceilings.entrySet().stream().filter(e -> e.getKey() != binding.getKey())
                .min(Comparator.comparingDouble(Map.Entry::getValue)).orElse(null);
        double error = errorOf(binding, cost, users);
        double nextError = next == null ? 0 : errorOf(next, cost, users);
        ForecastNotes.say(notes, this, new ForecastNotes.Point(users, delay, cpus, waiting, cost, downstreamSeconds,
                rps, calls), binding.getKey(), next == null ? null : next.getKey(), next == null ? Double.NaN
                : next.getValue() / rps - 1, next == null ? 0 : error + nextError);
        double rss = rssLine[1] + rssLine[0] * users;
        double k6 = load.known() ? load.k6Cores(rps) : Double.NaN;
        return new Forecast(jvm, rps, binding.getKey(), next == null ? Double.POSITIVE_INFINITY : next.getValue() / rps,
                ceilings, users / rps * 1000, Double.isNaN(rss) ? null : rss, error,
                binding.getKey() == Ceiling.CPU && cost.extrapolated(), requestSeconds * 1000, notes,
                nextError, k6, load.errorAt(users),
                machine.factor() == 1 ? null : machine.forUs());
    }

    /**
     * The cost at another quota than the calibration's: the same CPU a request, but no longer measured: an
     * extrapolation along the quota, its error widened as one along the requests waiting is
     * ({@link CpuCurve#EXTRAPOLATION_PER_EFOLD} per e-fold). Held out at 0.25 and 0.35 CPU against default-16's 0.5
     * (quota-025, quota-035), a request cost 1.3-1.5 times what it cost at 0.5 at the same points (heldout-23), at
     * either quota; but those runs ran on an AMD EPYC and default-16 on an Intel Xeon, where a request costs about
     * 1.3 times less. Measured one after the other in one run (quota-side-by-side, 0.25 and 0.5), the two quotas' costs
     * scattered both ways around the same, by as much as that run's machine moved: what the earlier runs met was the
     * processor and the machine on another hour more than the quota. How the cost moves with the quota is not in the
     * model: the note tells the user to calibrate at it.
     */
    private CpuCurve.Cost atQuota(CpuCurve.Cost cost, double cpus) {
        if (cpus == quota) {
            return cost;
        }
        double efolds = Math.abs(Math.log(cpus / quota));
        return new CpuCurve.Cost(cost.cpuMs(), Math.min(1, cost.error() + CpuCurve.EXTRAPOLATION_PER_EFOLD * efolds),
                true);
    }

    /**
     * A ceiling's error at its throughput: the CPU's what its cost earned; a pool's what its calibration levels earned
     * ({@link SlotErrors}), the others' that of a window; a slot's, beyond the users whose pauses the calibration read,
     * the share the pauses take there too ({@link CollectorPauses#beyond}).
     */
    private double errorOf(Map.Entry<Ceiling, Double> ceiling, CpuCurve.Cost cost, int users) {
        return ceiling.getKey() == Ceiling.CPU ? cost.error()
                : slots.of(ceiling.getKey()) + pauses.beyond(ceiling.getKey(), ceiling.getValue(), users);
    }

    /** The pools a JVM of these threads and this downstream has at {@code at}, each with its size. */
    private static Map<Ceiling, Integer> pools(Variant.Threads threads, Downstream downstream, Point at) {
        Map<Ceiling, Integer> sizes = new EnumMap<>(Ceiling.class);
        if (threads == Variant.Threads.WORKER && at.has(Axis.WORKER_MAX)) {
            sizes.put(Ceiling.WORKERS, at.get(Axis.WORKER_MAX));
        }
        if (downstream == Downstream.HTTP && at.has(Axis.POOL_SIZE)) {
            sizes.put(Ceiling.CONNECTIONS, at.get(Axis.POOL_SIZE));
        }
        if (downstream == Downstream.DB && at.has(Axis.DB_POOL_SIZE)) {
            sizes.put(Ceiling.DB_POOL, at.get(Axis.DB_POOL_SIZE));
        }
        return sizes;
    }

    /** The throughput the CPU allows with {@code waiting} requests in the JVM, its calls in flight solved with it. */
    private double throughput(double waiting, double cpus, FanOut calls, double callSeconds, boolean outside) {
        double rps = cpus * 1000 / fanOut.requestCpuMs(cost(waiting, 1, outside).cpuMs(), calls);
        for (int i = 0; i < 30; i++) { // the calls in flight follow the throughput; with β under 1 this settles fast
            double next = cpus * 1000 / fanOut.requestCpuMs(cost(waiting, Math.max(1, rps * callSeconds
                    * calls.calls()), outside).cpuMs(), calls);
            if (Math.abs(next - rps) < 1e-6 * rps) {
                return next;
            }
            rps = next;
        }
        return rps;
    }

    /**
     * The CPU one request costs with so many requests waiting and calls in flight: the curve's, on the machine the
     * model is for.
     */
    CpuCurve.Cost cost(double inJvm, double inFlight, boolean outside) {
        CpuCurve.Cost cost = curve.at(inJvm, inFlight, outside);
        return new CpuCurve.Cost(cost.cpuMs() * machine.factor(), cost.error(), cost.extrapolated());
    }

    public int mostUsers() {
        return levels.stream().mapToInt(Level::users).max().orElseThrow();
    }

    public String jvm() {
        return jvm;
    }

    /** The first calibration stage's delay. */
    public int delayMs() {
        return delayMs;
    }

    /** Every delay the JVM was calibrated at, shortest first. */
    public List<Integer> delays() {
        return levels.stream().map(Level::delayMs).distinct().sorted().toList();
    }

    public double quota() {
        return quota;
    }

    /** The CPU curve's levels, fewest requests waiting in the JVM first: their users. */
    public List<Integer> users() {
        return curve.levels().stream().map(CpuCurve.Level::users).toList();
    }

    /** The delay of each of those levels. */
    public List<Integer> levelDelays() {
        return curve.levels().stream().map(CpuCurve.Level::delayMs).toList();
    }

    /** The requests that waited in the JVM at each of those levels. */
    public List<Double> inJvm() {
        return curve.levels().stream().map(CpuCurve.Level::inJvm).toList();
    }

    /** The calls that were out at the downstream at each of those levels. */
    public List<Double> inFlight() {
        return curve.levels().stream().map(CpuCurve.Level::inFlight).toList();
    }

    /** The CPU per request at each of those levels. */
    public List<Double> cpuMsPerRequest() {
        return curve.levels().stream().map(CpuCurve.Level::cpuMs).toList();
    }

    /** What the calls in flight add to a request's CPU, per e-fold on a log scale (0 where not measured or earned). */
    public double callsElasticity() {
        return curve.beta();
    }

    /** What best predicted the levels left out, taken only where it earned its place ({@link CpuCurve}). */
    public double fittedCallsElasticity() {
        return curve.fittedBeta();
    }

    /** Whether the calibration's calls in flight differed enough to measure {@link #callsElasticity}. */
    public boolean callsElasticityMeasured() {
        return curve.betaMeasured();
    }

    /** Whether any calibration level saturated the quota (at least {@link #SATURATED_SHARE} of it). */
    public boolean saturated() {
        return saturated;
    }

    /** What a request spends above the downstream's delay when nothing queues, and whether that was measured. */
    public double overheadMs() {
        return overheadMs;
    }

    public boolean overheadMeasured() {
        return overheadMeasured;
    }

    /** The CPU curve's own error: the worst of its levels, each predicted from the others before it was seen. */
    public double interpolationError() {
        return curve.error();
    }

    /** The fan-out calibrations, per mode: the CPU per request at N calls against one call's at the same users. */
    public List<FanOutCalibration.FanOutLevel> fanOutLevels() {
        return fanOut.levels();
    }

    /** What the calibration's requests waited on: each downstream has a model of its own. */
    public Downstream downstream() {
        return downstream;
    }

    /** k6's CPU, its upkeep and per request, and the delay service's per call, as the calibration measured them. */
    public LoadCost load() {
        return load;
    }

    public double machineCores() {
        return machineCores;
    }

    Variant.Threads threads() {
        return threads;
    }

    public CpuCurve curve() {
        return curve;
    }

    private static <T extends Comparable<T>> T require(Point at, Axis<T> axis) {
        if (!at.has(axis)) {
            throw new IllegalArgumentException("a prediction needs " + axis.flag().pointName() + " (" + axis.name() + ")");
        }
        return at.get(axis);
    }

    /** The requests that waited in the JVM in a window ({@link Level#inJvm}). */
    public static double inJvm(WindowResult r) {
        return Level.inJvm(r);
    }
}
