package io.threadlab.experiment.plan;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * What one run measures, as a schedule of steps.
 *
 * <p>{@code run}: every variant is started {@code jvmStarts} times, and each JVM is measured in a block of its own
 * (see {@link #schedule}): warm-up, calibration, its repetitions' windows, stop; the blocks rotate the variants.
 * Headline windows run without the detailed JFR settings. In the first repetition each level adds a twin with the
 * detailed recording right after its plain window (the thread analysis, and the recording's cost in pairs), and the
 * highest level does in the second repetition of the same JVM start too; later windows have none (see
 * {@link #recorded}). The open model's steps run in the first repetition, at every
 * delay.
 *
 * <p>{@code map}: every point of the grid, per variant and per setup (the JVM axes: CPU quota, worker-pool maximum,
 * connection-pool size, each value a JVM of its own). Within one JVM the grid's outer axes change least often (users
 * rise, and at each number of users the delays rise), so the load at one level runs on from one delay to the next;
 * each delay's open model follows its last closed window, its rates shares of what the closed model reached there.
 *
 * <p>Within one JVM, consecutive windows at the same users share one running load (see {@code load.LoadSession}).
 *
 * @param setups    each a JVM start of its own: the JVM axes on which it differs from {@code knobs}
 * @param grid      the window axes, outermost first
 * @param calibration what each JVM measures after its warm-up, for the predictions of its later windows
 * @param database    the lab's PostgreSQL, where the grid has the database downstream; else null
 */
public record ExperimentPlan(Mode mode, List<Variant> variants, List<Point> setups, Grid grid, Timing timing,
                             int jvmStarts, int repetitionsPerJvm, WarmUpPolicy warmUp, OpenModel open,
                             boolean jfrWindows, boolean timeToPeak, int timeToPeakCeiling, boolean sideBySide,
                             Knobs knobs, PrecisionGoal precision, LoadPlacement placement, Calibration calibration,
                             Database database) {

    /** A plan with the delay service downstream only. */
    public ExperimentPlan(Mode mode, List<Variant> variants, List<Point> setups, Grid grid, Timing timing,
                          int jvmStarts, int repetitionsPerJvm, WarmUpPolicy warmUp, OpenModel open,
                          boolean jfrWindows, boolean timeToPeak, int timeToPeakCeiling, boolean sideBySide,
                          Knobs knobs, PrecisionGoal precision, LoadPlacement placement, Calibration calibration) {
        this(mode, variants, setups, grid, timing, jvmStarts, repetitionsPerJvm, warmUp, open, jfrWindows,
                timeToPeak, timeToPeakCeiling, sideBySide, knobs, precision, placement, calibration, null);
    }

    public enum Mode { RUN, MAP }

    public ExperimentPlan {
        if (variants.isEmpty()) {
            throw new IllegalArgumentException("at least one variant");
        }
        if (grid.values(Axis.USERS).isEmpty() || levelsOf(grid).stream().anyMatch(l -> l < 1 || l > 10_000)) {
            throw new IllegalArgumentException("--levels must be user counts from 1 to 10000, was "
                    + grid.values(Axis.USERS));
        }
        if (grid.values(Axis.DELAY_MS).isEmpty() || grid.values(Axis.DELAY_MS).stream()
                .anyMatch(d -> d < 0 || d > 60_000)) {
            throw new IllegalArgumentException("--delay-ms must be delays from 0 to 60000 ms, was "
                    + grid.values(Axis.DELAY_MS));
        }
        if (jvmStarts < 1 || repetitionsPerJvm < 1) {
            throw new IllegalArgumentException("--jvm-starts and --repetitions must be at least 1");
        }
        if (timeToPeak && timeToPeakCeiling < 30) {
            throw new IllegalArgumentException("--time-to-peak-max must be at least 30 s (one judged window), was "
                    + timeToPeakCeiling);
        }
        if (warmUp.boostCpus() < knobs.cpuQuota()) {
            throw new IllegalArgumentException("--warmup-cpus must be at least the experiment's quota ("
                    + knobs.cpuQuota() + "), was " + warmUp.boostCpus());
        }
        for (Integer delay : grid.values(Axis.DELAY_MS)) {
            if (delay >= knobs.readTimeoutMs()) {
                throw new IllegalArgumentException("--delay-ms " + delay + " is not below the client's read timeout ("
                        + knobs.readTimeoutMs() + " ms, --read-timeout-ms): every call would time out");
            }
        }
        if (calibration.any() && calibration.delays().stream().anyMatch(d -> d >= knobs.readTimeoutMs())) {
            throw new IllegalArgumentException("the calibration's delays (" + calibration.delays() + " ms) are not below"
                    + " the client's read timeout (" + knobs.readTimeoutMs() + " ms)");
        }
        if (precision.active() && (mode != Mode.RUN || timeToPeak)) {
            throw new IllegalArgumentException("--precision and --budget add JVM starts to a run; not to a map, and"
                    + " not with --time-to-peak");
        }
        boolean usesDatabase = grid.values(Axis.DOWNSTREAM).contains(Downstream.DB);
        if (usesDatabase && (database == null || knobs.database() == null)) {
            throw new IllegalArgumentException("the database downstream needs the database's settings and a pool");
        }
        if (usesDatabase) {
            List<String> without = variants.stream().filter(v -> v.dbPath() == null).map(Variant::label).toList();
            if (!without.isEmpty() && without.size() == variants.size()) {
                throw new IllegalArgumentException("--downstream db: no endpoint for it in " + without);
            }
        }
        requireFanOut(grid, knobs, setups, variants);
        if (precision.active() && precision.maxJvmStarts() < jvmStarts) {
            throw new IllegalArgumentException("--max-jvm-starts must be at least --jvm-starts (" + jvmStarts + ")");
        }
        variants = List.copyOf(variants);
        setups = setups.isEmpty() ? List.of(Point.NONE) : List.copyOf(setups);
    }

    /**
     * The fan-out a service will do: from 1 to {@link #MAX_FAN_OUT} calls, and never more than the delay client's
     * connection pool holds (each service refuses both with a 400, so that every request of such a window would
     * fail); only to the delay service, and only where a variant has the endpoint.
     */
    private static void requireFanOut(Grid grid, Knobs knobs, List<Point> setups, List<Variant> variants) {
        List<Integer> calls = grid.values(Axis.FAN_OUT);
        if (calls.isEmpty() || calls.equals(List.of(1))) {
            return;
        }
        if (calls.stream().anyMatch(n -> n < 1 || n > MAX_FAN_OUT)) {
            throw new IllegalArgumentException("--fan-out must be numbers of calls from 1 to " + MAX_FAN_OUT
                    + " (the services' lab.fanout.max-calls), was " + calls);
        }
        int pool = Stream.concat(Stream.of(knobs), setups.stream().map(knobs::at))
                .mapToInt(Knobs::connectionPoolSize).min().orElseThrow();
        int most = calls.stream().mapToInt(n -> n).max().orElseThrow();
        if (most > pool) {
            throw new IllegalArgumentException("--fan-out " + most + " is more calls than the delay client's"
                    + " connection pool holds (" + pool + ", --pool-size): a request would wait for connections its"
                    + " own calls hold, and the services refuse it");
        }
        if (!grid.values(Axis.DOWNSTREAM).isEmpty() && !grid.values(Axis.DOWNSTREAM).contains(Downstream.HTTP)) {
            throw new IllegalArgumentException("--fan-out calls the delay service: it needs --downstream http");
        }
        if (variants.stream().allMatch(v -> v.fanOutPath() == null)) {
            throw new IllegalArgumentException("--fan-out: no fan-out endpoint in " + variants);
        }
    }

    /** The most calls one fan-out request may make: the services' {@code lab.fanout.max-calls}. */
    public static final int MAX_FAN_OUT = 64;

    private static List<Integer> levelsOf(Grid grid) {
        return grid.values(Axis.USERS);
    }

    /** The closed model's users, in the grid's order. */
    public List<Integer> levels() {
        return grid.values(Axis.USERS);
    }

    /** The downstream delays, in the grid's order. */
    public List<Integer> delays() {
        return grid.values(Axis.DELAY_MS);
    }

    /** Whether any window waits on the database: then the lab's PostgreSQL runs beside the delay service. */
    public boolean usesDatabase() {
        return database != null;
    }

    public int repetitions() {
        return jvmStarts * repetitionsPerJvm;
    }

    public int topLevel() {
        return levels().stream().mapToInt(i -> i).max().orElseThrow();
    }

    /** The setups a variant is started with: the worker-pool axis only where requests run on workers. */
    public List<Point> setupsOf(Variant variant) {
        List<Point> own = new ArrayList<>();
        for (Point s : setups) {
            Point applied = variant.threads() == Variant.Threads.WORKER ? s : s.without(Axis.WORKER_MAX);
            if (!own.contains(applied)) {
                own.add(applied);
            }
        }
        return own;
    }

    /** Every JVM the repetitions use; side by side, each JVM of a variant listens 100 ports above the last. */
    public List<Jvm> jvms() {
        List<Jvm> jvms = new ArrayList<>();
        for (int start = 1; start <= jvmStarts; start++) {
            for (Variant variant : variants) {
                for (Point setup : setupsOf(variant)) {
                    jvms.add(jvm(variant, setup, start));
                }
            }
        }
        return jvms;
    }

    private Jvm jvm(Variant variant, Point setup, int start) {
        int index = (start - 1) * setupsOf(variant).size() + setupsOf(variant).indexOf(setup);
        return new Jvm(variant, start, sideBySide ? variant.port() + 100 * index : variant.port(), setup);
    }

    /** The knobs a JVM runs with: the run's, changed by its setup. */
    public Knobs knobsOf(Jvm jvm) {
        return knobs.at(jvm.setup());
    }

    /**
     * The levels a warm-up proves, after its boost: the most users of the grid or the calibration, where the
     * calibration then begins. Every window still settles at its own level until the compiler is quiet there.
     */
    private List<Integer> warmUpLevels() {
        return List.of(Math.max(topLevel(), calibration.topLevel()));
    }

    /**
     * Each JVM in a block of its own, from its warm-up to its last window with nothing else in between: warm-up,
     * calibration, its repetitions' windows, stop. Measured here, a JVM calibrated and then left idle for eight
     * minutes while the others warmed up spent up to 31 % more CPU per request when it was measured at last (the
     * imperative variant: 0.100 ms at 700 users, 0.131 at 500), and no prediction from its calibration held. The
     * blocks rotate the variants (A B C, then B C A for the next JVM start), so that the machine's drift is spread.
     * Side by side, every JVM starts at once at the beginning (they start faster together than one by one); in
     * rounds (containers: one JVM per service at a time), each JVM start's round starts its own.
     */
    public Schedule schedule() {
        List<Step> steps = new ArrayList<>();
        if (sideBySide) {
            steps.add(new Step.StartJvms(jvms()));
        }
        for (int start = 1; start <= jvmStarts; start++) {
            List<Variant> order = new ArrayList<>(variants);
            Collections.rotate(order, -(start - 1));
            if (!sideBySide) {
                int round = start;
                steps.add(new Step.StartJvms(jvms().stream().filter(j -> j.start() == round).toList()));
            }
            for (Variant variant : order) {
                for (Point setup : setupsOf(variant)) {
                    block(steps, jvm(variant, setup, start));
                }
            }
        }
        if (timeToPeak) {
            WarmUpPolicy atQuota = WarmUpPolicy.atQuota(knobs.cpuQuota(), timeToPeakCeiling);
            // a fresh JVM per variant, beside the others: on the next free port of its variant
            variants.forEach(v -> steps.add(new Step.TimeToPeak(new Jvm(v, jvmStarts + 1, sideBySide
                    ? v.port() + 100 * jvmStarts * setupsOf(v).size() : v.port()), topLevel(), atQuota)));
        }
        return new Schedule(steps);
    }

    /**
     * One JVM from its warm-up to its stop: the first JVM start of a variant and setup calibrated (at every downstream
     * the grid has, each its own model), then every window of its repetitions. Later JVM starts are predicted from
     * the first one's calibration: another JVM, so their errors hold the JVM start's own variance, as a prediction
     * for a deployment does; and the time a calibration takes goes to more JVM starts, where the variance is.
     */
    private void block(List<Step> steps, Jvm jvm) {
        Point first = windowPoints(jvm.variant()).getFirst().without(Axis.USERS);
        steps.add(new Step.WarmUp(jvm, warmUpLevels(), warmUp, first));
        // at one call: a mistake that only fans out has no such request, and no calibration
        for (Point downstream : jvm.start() == 1 ? downstreams(jvm.variant()).stream()
                .filter(d -> jvm.variant().path(d) != null).toList() : List.<Point>of()) {
            for (Calibration.Stage stage : calibration.stages()) {
                for (int users : stage.levels()) {
                    steps.add(new Step.Measure(new Window(jvm, downstream.with(Axis.DELAY_MS, stage.delayMs())
                            .with(Axis.USERS, users), new Window.Closed(timing.settleSeconds(),
                            timing.settleMaxSeconds(), calibration.windowSeconds()), false, WindowId.Role.CALIBRATION,
                            jvm.start())));
                }
            }
        }
        if (jvm.start() == 1 && calibration.any()) {
            // The warm-up ran one call per request: a fan-out path compiles first here, so its settle may take as
            // long as a warm-up level to go quiet (calibrated mid-compile, one was 50 % off).
            int settleMax = Math.max(timing.settleMaxSeconds(), warmUp.levelMaxSeconds());
            fanOutCalibrations(jvm).forEach(at -> steps.add(new Step.Measure(new Window(jvm, at, new Window.Closed(
                    timing.settleSeconds(), settleMax, calibration.windowSeconds()), false,
                    WindowId.Role.CALIBRATION, jvm.start()))));
        }
        for (int r = 1; r <= repetitionsPerJvm; r++) {
            windows(jvm, (jvm.start() - 1) * repetitionsPerJvm + r).forEach(w -> steps.add(new Step.Measure(w)));
        }
        steps.add(new Step.StopJvms(List.of(jvm)));
    }

    /**
     * One more JVM start of the given variants, as precision on demand adds it: started, then each in its block.
     * Its JVMs listen where the plan's own JVMs of that start would.
     */
    public List<Step> block(int start, List<Variant> which) {
        List<Step> steps = new ArrayList<>();
        List<Jvm> jvms = new ArrayList<>();
        which.forEach(v -> setupsOf(v).forEach(s -> jvms.add(jvm(v, s, start))));
        steps.add(new Step.StartJvms(jvms));
        jvms.forEach(jvm -> block(steps, jvm));
        return steps;
    }

    /** The plan's estimate of one more JVM start of one variant, in seconds: what a budget must at least allow. */
    public int blockSeconds() {
        return new Schedule(block(jvmStarts + 1, List.of(variants.getFirst()))).estimatedSeconds();
    }

    /**
     * The grid's points a variant has an endpoint for (a mistake of the database has no delay-service one, a database
     * window no fan-out). One call is one call in either mode: such points are the parallel one, measured once. A
     * variant that a mistake of the plan spoils is also measured where that mistake's reference is (its
     * {@link Variant#referencePoint}), right after the mistake's own point, should the grid not have it.
     */
    private List<Point> windowPoints(Variant variant) {
        List<Point> points = grid.points().stream().map(ExperimentPlan::oneCallParallel)
                .flatMap(p -> Stream.concat(Stream.of(p), variants.stream().filter(m -> m.isMistake()
                        && variant.label().equals(m.spoils()) && m.path(p) != null).map(m -> m.referencePoint(p))))
                .filter(p -> variant.path(p) != null).distinct().toList();
        if (points.isEmpty()) {
            throw new IllegalArgumentException(variant + " has no endpoint for " + grid.values(Axis.DOWNSTREAM));
        }
        return points;
    }

    /**
     * What a JVM whose grid fans out is calibrated at besides one call: per mode, the most calls per request its
     * points make, at the calibration's delay and at users its one-call calibration also measured, so that the CPU a
     * request costs at N calls is measured against one call's at the same users (measured here at 8 parallel calls
     * and 10 ms: 4.2-4.3 times one call's, not 8: the request's own HTTP work is paid once). The users are those of
     * the calibration's nearest (in log) to the mode's points whose calls all get a connection and, for a worker
     * variant in parallel, whose requests and calls all get a worker (a queue would measure the queue); else the
     * fewest it can be driven at.
     */
    private List<Point> fanOutCalibrations(Jvm jvm) {
        if (jvm.variant().path(Downstream.HTTP) == null) { // nothing to compare with: a mistake that only fans out
            return List.of();
        }
        List<Point> fanning = windowPoints(jvm.variant()).stream().filter(p -> calls(p) > 1 && drivable(jvm, p))
                .toList();
        List<Point> out = new ArrayList<>();
        for (FanOutMode mode : FanOutMode.values()) {
            List<Point> inMode = fanning.stream().filter(p -> mode(p) == mode).toList();
            inMode.stream().mapToInt(ExperimentPlan::calls).max().ifPresent(n -> {
                Point at = Point.NONE.with(Axis.DELAY_MS, calibration.delayMs()).with(Axis.FAN_OUT, n)
                        .with(Axis.FAN_OUT_MODE, mode);
                // where its points are: the CPU a call adds moves with the users (imperative, 16 parallel calls:
                // 2.04 CPU-ms per request at 10 users, 1.75 at 100; 16 in turn: 2.34 at 700, 1.53 at 100)
                double middle = inMode.stream().filter(p -> p.has(Axis.USERS))
                        .mapToDouble(p -> Math.log(p.get(Axis.USERS))).average().orElse(0);
                List<Integer> drivable = calibration.levels().stream()
                        .filter(u -> drivable(jvm, at.with(Axis.USERS, u))).toList(); // most users first
                drivable.stream().filter(u -> roomFor(jvm, at.with(Axis.USERS, u)))
                        .min(Comparator.comparingDouble(u -> Math.abs(Math.log(u) - middle)))
                        .or(() -> drivable.isEmpty() ? Optional.empty() : Optional.of(drivable.getLast()))
                        .ifPresent(u -> out.add(at.with(Axis.USERS, u)));
            });
        }
        return out;
    }

    /** Whether every call of a point has a connection, and, for a worker variant in parallel, a worker. */
    private boolean roomFor(Jvm jvm, Point at) {
        int users = at.get(Axis.USERS);
        boolean parallel = mode(at) == FanOutMode.PARALLEL;
        return (long) users * (parallel ? calls(at) : 1) <= poolOf(jvm)
                && !(parallel && jvm.variant().threads() == Variant.Threads.WORKER
                && (long) users * (1 + calls(at)) > knobsOf(jvm).workerPoolMax());
    }

    /** The downstreams of the grid a variant has an endpoint for, each as a point (none: the delay service). */
    private List<Point> downstreams(Variant variant) {
        return windowPoints(variant).stream().map(p -> p.has(Axis.DOWNSTREAM)
                ? Point.of(Axis.DOWNSTREAM, p.get(Axis.DOWNSTREAM)) : Point.NONE).distinct().toList();
    }

    private static Point oneCallParallel(Point p) {
        return p.has(Axis.FAN_OUT_MODE) && (!p.has(Axis.FAN_OUT) || p.get(Axis.FAN_OUT) == 1)
                ? p.with(Axis.FAN_OUT_MODE, FanOutMode.PARALLEL) : p;
    }

    /**
     * Whether a JVM's requests can be driven at a point at all: a worker variant whose parallel fan-out runs its calls
     * on the pool that runs its requests stops answering, for good, once every worker is a request waiting for its
     * calls (they queue behind it): at as many users as workers. Such a point is left out of its schedule (and
     * {@link #fanOutFlags} says so), for it would lose every later window of that JVM too. A mistake is driven there
     * all the same: that starvation is its lesson (fanout-worker-starvation), and it ends, since each request waits
     * for its calls at most the client's connect and read timeouts and is then answered 503 (the services'
     * FanoutResource), and k6 gives up on a request after its own timeout: every window ends within its ceiling and
     * the drain after it ({@link Step#MARGIN_SECONDS}). Left out for any variant: more calls per request than its own
     * connection pool holds, which the services refuse (400) for every request.
     */
    public boolean drivable(Jvm jvm, Point at) {
        return !(starves(jvm, at) && !jvm.variant().isMistake()) && calls(at) <= poolOf(jvm);
    }

    /** A worker variant's parallel fan-out at as many users as workers: every worker a request waiting for calls. */
    private boolean starves(Jvm jvm, Point at) {
        return jvm.variant().threads() == Variant.Threads.WORKER && at.has(Axis.USERS) && calls(at) > 1
                && mode(at) == FanOutMode.PARALLEL && at.get(Axis.USERS) >= knobsOf(jvm).workerPoolMax();
    }

    /** The delay client's connection pool of a JVM: its variant's own setting, else the run's. */
    private int poolOf(Jvm jvm) {
        String own = jvm.variant().properties().get(Variant.CONNECTION_POOL_SIZE);
        return own != null ? Integer.parseInt(own) : knobsOf(jvm).connectionPoolSize();
    }

    /**
     * What the plan flags before it starts about its fan-out points, for the console and the manifest: the points a
     * worker variant cannot be driven at (left out), the connections in flight beyond the pool (users × calls: the
     * pool binds), and the delay service's calls per second beyond what the grid asks of it at one call (at most
     * users × calls ÷ delay, parallel; users ÷ delay, sequential: it serves them beside the variant).
     */
    public List<String> fanOutFlags() {
        List<String> flags = new ArrayList<>();
        List<Point> points = grid.points().stream().map(ExperimentPlan::oneCallParallel).distinct()
                .filter(p -> calls(p) > 1 && p.has(Axis.USERS)).toList();
        if (points.isEmpty()) {
            return flags;
        }
        double oneCall = grid.points().stream().filter(p -> p.has(Axis.USERS))
                .mapToDouble(p -> delayCallsPerSecond(p.with(Axis.FAN_OUT, 1))).max().orElse(0);
        for (Point at : points) {
            for (Jvm jvm : jvms().stream().filter(j -> j.start() == 1 && j.variant().path(at) != null).toList()) {
                if (calls(at) > poolOf(jvm)) {
                    flags.add(String.format(Locale.ROOT, "%s at %s: left out; %d calls per request are more than its"
                            + " connection pool of %d holds, and the service refuses such requests", jvm.label(),
                            at.describe(), calls(at), poolOf(jvm)));
                } else if (starves(jvm, at) && drivable(jvm, at)) {
                    flags.add(String.format(Locale.ROOT, "%s at %s: driven, the mistake's lesson; %,d users on %d"
                            + " workers, each request waiting for %d calls queued on the same pool, starve it: its"
                            + " requests are answered 503 once they waited the client's connect and read timeouts",
                            jvm.label(), at.describe(), at.get(Axis.USERS), knobsOf(jvm).workerPoolMax(), calls(at)));
                } else if (!drivable(jvm, at)) {
                    flags.add(String.format(Locale.ROOT, "%s at %s: left out; %,d users on %d workers, each request"
                            + " waiting for %d calls queued on the same pool, would stop the service for good",
                            jvm.label(), at.describe(), at.get(Axis.USERS), knobsOf(jvm).workerPoolMax(), calls(at)));
                }
            }
            int pool = knobs.connectionPoolSize();
            long inFlight = (long) at.get(Axis.USERS) * (mode(at) == FanOutMode.PARALLEL ? calls(at) : 1);
            if (inFlight > pool) {
                flags.add(String.format(Locale.ROOT, "%s: up to %,d connections in flight, the pool holds %,d: the"
                        + " connections bind, requests queue for them", at.describe(), inFlight, pool));
            }
            double perSecond = delayCallsPerSecond(at);
            if (perSecond > oneCall) {
                flags.add(String.format(Locale.ROOT, "%s: the delay service may be asked up to %,.0f calls/s, more"
                        + " than this grid asks at one call (%,.0f/s); its headroom is measured in every window",
                        at.describe(), perSecond, oneCall));
            }
        }
        return flags;
    }

    /** The most calls per second a closed-model point can ask of the delay service: each user's calls per delay. */
    private static double delayCallsPerSecond(Point at) {
        double delaySeconds = Math.max(1, at.get(Axis.DELAY_MS)) / 1000.0;
        return at.get(Axis.USERS) * (mode(at) == FanOutMode.PARALLEL ? calls(at) : 1) / delaySeconds;
    }

    private static int calls(Point at) {
        return at.has(Axis.FAN_OUT) ? at.get(Axis.FAN_OUT) : 1;
    }

    private static FanOutMode mode(Point at) {
        return at.has(Axis.FAN_OUT_MODE) ? at.get(Axis.FAN_OUT_MODE) : FanOutMode.PARALLEL;
    }

    /**
     * Whether a window gets a recorded twin: every level in the first repetition (the thread analysis), the highest in
     * the second as well where that is the same JVM start's (the recording's cost, in two pairs); none after, where
     * the time goes to JVM starts. A default run has one repetition a JVM start: there a second JVM start's twin cost
     * 45 s of its 15-minute budget for an interval of the recording's cost too wide to judge anything (0.18-5.94 at
     * 500 users in 2026-11-28T02-33-20Z), where a third JVM start of the variant whose starts differ most was what
     * its undecided headline ratio needed.
     */
    private boolean recorded(Point at, int rep) {
        return jfrWindows && (rep == 1 || rep == 2 && rep <= repetitionsPerJvm && at.get(Axis.USERS) == topLevel());
    }

    private List<Window> windows(Jvm jvm, int rep) {
        List<Window> windows = new ArrayList<>();
        Window.Closed load = new Window.Closed(timing);
        for (Point at : windowPoints(jvm.variant()).stream().filter(p -> drivable(jvm, p)).toList()) {
            windows.add(new Window(jvm, at, load, false, rep));
            if (recorded(at, rep)) {
                // Right after its plain twin, so that the two differ in the recording only.
                windows.add(new Window(jvm, at, load, true, rep));
            }
        }
        if (rep == 1 && open.any()) { // at one call per request: its arrival rates are the headline's
            windowPoints(jvm.variant()).stream().filter(p -> calls(p) == 1).map(p -> p.without(Axis.USERS)).distinct()
                    .forEach(at -> windows.add(afterLastClosedAt(windows, at),
                            new Window(jvm, at, open.steps(timing.settleMaxSeconds()), false, rep)));
        }
        return windows;
    }

    /**
     * Where a point's open model goes: right after the last closed window there (users rise, so the highest level's),
     * so that the shares it takes of the closed peak are all measured, and its settle at the highest level is the load
     * that window ran, parked through the steps and resumed by the next window at that level instead of started
     * again (3,000 users take k6 15-20 s to start here). At the end where the point has no closed window.
     */
    private static int afterLastClosedAt(List<Window> windows, Point openAt) {
        for (int i = windows.size() - 1; i >= 0; i--) {
            Window w = windows.get(i);
            if (w.users() != null && w.at().without(Axis.USERS).equals(openAt)) {
                return i + 1;
            }
        }
        return windows.size();
    }
}
