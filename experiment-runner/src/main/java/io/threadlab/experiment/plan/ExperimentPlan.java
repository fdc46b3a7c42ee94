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
 * @param repeats   how many JVM starts of each variant, and how many repetitions of its windows in each
 * @param toPeak    each variant started once more to follow its time to peak; null: not measured
 * @param calibration what each JVM measures after its warm-up, for the predictions of its later windows
 */
public record ExperimentPlan(Mode mode, List<Variant> variants, List<Point> setups, Grid grid, Timing timing,
                             Repeats repeats, WarmUpPolicy warmUp, OpenModel open, boolean jfrWindows,
                             TimeToPeak toPeak, boolean sideBySide, Knobs knobs, PrecisionGoal precision,
                             LoadPlacement placement, Calibration calibration) {

    /** JVM starts per variant, and repetitions of every plain window per JVM start. */
    public record Repeats(int jvmStarts, int perJvm) {
    }

    /** A fresh JVM of each variant under load at the quota from its start, followed until its compiler has finished. */
    public record TimeToPeak(int ceilingSeconds) {
    }

    public enum Mode { RUN, MAP }

    public ExperimentPlan {
        if (variants.isEmpty()) {
            throw new IllegalArgumentException("at least one variant");
        }
        GridRules.scenario(grid, open.any() || toPeak != null || precision.active() || mode != Mode.RUN);
        if (grid.values(Axis.DELAY_MS).isEmpty() || grid.values(Axis.DELAY_MS).stream()
                .anyMatch(d -> d < 0 || d > 60_000)) {
            throw new IllegalArgumentException("--delay-ms must be delays from 0 to 60000 ms, was "
                    + grid.values(Axis.DELAY_MS));
        }
        if (repeats.jvmStarts() < 1 || repeats.perJvm() < 1) {
            throw new IllegalArgumentException("--jvm-starts and --repetitions must be at least 1");
        }
        if (toPeak != null && toPeak.ceilingSeconds() < 30) {
            throw new IllegalArgumentException("--time-to-peak-max must be at least 30 s (one judged window), was "
                    + toPeak.ceilingSeconds());
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
        if (precision.active() && (mode != Mode.RUN || toPeak != null)) {
            throw new IllegalArgumentException("--precision and --budget add JVM starts to a run; not to a map, and"
                    + " not with --time-to-peak");
        }
        boolean usesDatabase = grid.values(Axis.DOWNSTREAM).contains(Downstream.DB);
        if (usesDatabase && knobs.database() == null) {
            throw new IllegalArgumentException("the database downstream needs the database's settings and a pool");
        }
        if (usesDatabase) {
            List<String> without = variants.stream().filter(v -> v.dbPath() == null).map(Variant::label).toList();
            if (!without.isEmpty() && without.size() == variants.size()) {
                throw new IllegalArgumentException("--downstream db: no endpoint for it in " + without);
            }
        }
        FanOutPoints.require(grid, knobs, setups, variants);
        GridRules.dbAccess(grid, variants);
        if (precision.active() && precision.maxJvmStarts() < repeats.jvmStarts()) {
            throw new IllegalArgumentException("--max-jvm-starts must be at least --jvm-starts (" + repeats.jvmStarts()
                    + ")");
        }
        variants = List.copyOf(variants);
        setups = setups.isEmpty() ? List.of(Point.NONE) : List.copyOf(setups);
    }

    /** The most calls one fan-out request may make: the services' {@code lab.fanout.max-calls}. */
    public static final int MAX_FAN_OUT = Axis.MAX_FAN_OUT;

    /** The closed model's users, in the grid's order; none in a burst. */
    public List<Integer> levels() {
        return grid.values(Axis.USERS);
    }

    /** The bursts' sizes, in the grid's order; none but in a burst. */
    public List<Integer> bursts() {
        return grid.values(Axis.REQUESTS);
    }

    /** Whether the run fires bursts ({@link Burst}) rather than the closed model's users. */
    public boolean burst() {
        return !bursts().isEmpty();
    }

    /** The downstream delays, in the grid's order. */
    public List<Integer> delays() {
        return grid.values(Axis.DELAY_MS);
    }

    /** Whether any window waits on the database: then the lab's PostgreSQL runs beside the delay service. */
    public boolean usesDatabase() {
        return knobs.database() != null;
    }

    /** The lab's PostgreSQL, where the grid has the database downstream; else null. */
    public Database database() {
        return knobs.database();
    }

    public int jvmStarts() {
        return repeats.jvmStarts();
    }

    public int repetitionsPerJvm() {
        return repeats.perJvm();
    }

    /** Whether each variant is started once more to follow its time to peak. */
    public boolean timeToPeak() {
        return toPeak != null;
    }

    public int timeToPeakCeiling() {
        return toPeak != null ? toPeak.ceilingSeconds() : 0;
    }

    public int repetitions() {
        return repeats.jvmStarts() * repeats.perJvm();
    }

    /** The most users of the closed model; a burst's warm-up users, where the run has no closed model. */
    public int topLevel() {
        return levels().stream().mapToInt(i -> i).max().orElse(BURST_WARM_UP_USERS);
    }

    /**
     * The users a burst's JVMs are warmed up at, as the default run's top level: the burst meets a JVM whose compiler
     * has finished with the request path, as every measured window does.
     */
    public static final int BURST_WARM_UP_USERS = 500;

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
        for (int start = 1; start <= repeats.jvmStarts(); start++) {
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

    /** The knobs a JVM runs with: the run's, changed by its setup and its variant's own settings. */
    public Knobs knobsOf(Jvm jvm) {
        return knobs.of(jvm);
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
        for (int start = 1; start <= repeats.jvmStarts(); start++) {
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
        if (toPeak != null) {
            WarmUpPolicy atQuota = WarmUpPolicy.atQuota(knobs.cpuQuota(), toPeak.ceilingSeconds());
            int jvmStarts = repeats.jvmStarts();
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
     * Each kind of work the JVM measures is warmed up first, at its first point: its code is compiled on a path of
     * its own (through Hibernate, a JVM warmed up on the plain client compiled 18 % of its quota in its first measured
     * window, at a quarter of its later throughput).
     */
    private void block(List<Step> steps, Jvm jvm) {
        for (Point kind : kinds(jvm.variant())) {
            Point first = windowPoints(jvm.variant()).stream().filter(p -> WorkKind.of(p).equals(kind)).findFirst()
                    .orElseThrow().without(Axis.USERS).without(Axis.REQUESTS);
            steps.add(new Step.WarmUp(jvm, warmUpLevels(), warmUp, first));
        }
        // at one call: a mistake that only fans out has no such request, and no calibration
        for (Point kind : jvm.start() == 1 ? kinds(jvm.variant()).stream()
                .filter(d -> jvm.variant().path(d) != null).toList() : List.<Point>of()) {
            for (Calibration.Stage stage : calibration.stages()) {
                for (int users : stage.levels()) {
                    steps.add(new Step.Measure(new Window(jvm, kind.with(Axis.DELAY_MS, stage.delayMs())
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
            fanOut().calibrations(jvm, windowPoints(jvm.variant())).forEach(at -> steps.add(new Step.Measure(new Window(jvm, at, new Window.Closed(
                    timing.settleSeconds(), settleMax, calibration.windowSeconds()), false,
                    WindowId.Role.CALIBRATION, jvm.start()))));
        }
        for (int r = 1; r <= repeats.perJvm(); r++) {
            windows(jvm, (jvm.start() - 1) * repeats.perJvm() + r).forEach(w -> steps.add(new Step.Measure(w)));
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
        return new Schedule(block(repeats.jvmStarts() + 1, List.of(variants.getFirst()))).estimatedSeconds();
    }

    /**
     * The grid's points a variant has an endpoint for (a mistake of the database has no delay-service one, a database
     * window no fan-out). One call is one call in either mode: such points are the parallel one, measured once. A
     * variant that a mistake of the plan spoils is also measured where that mistake's reference is (its
     * {@link Variant#referencePoint}), right after the mistake's own point, should the grid not have it.
     */
    private List<Point> windowPoints(Variant variant) {
        List<Point> points = grid.points().stream().map(FanOutPoints::oneCallParallel)
                .flatMap(p -> Stream.concat(Stream.of(p), variants.stream().filter(m -> m.isMistake()
                        && variant.label().equals(m.spoils()) && m.path(p) != null).map(m -> m.referencePoint(p))))
                .filter(p -> variant.path(p) != null).distinct().toList();
        if (points.isEmpty()) {
            throw new IllegalArgumentException(variant + " has no endpoint for " + grid.values(Axis.DOWNSTREAM));
        }
        return points;
    }

    /**
     * The kinds of work of the grid a variant has an endpoint for, each as a point ({@link WorkKind#of}: none, the delay
     * service; the database; the database through Hibernate), each calibrated apart.
     */
    private List<Point> kinds(Variant variant) {
        return windowPoints(variant).stream().map(WorkKind::of).distinct().toList();
    }

    private FanOutPoints fanOut() {
        return new FanOutPoints(grid, knobs, calibration);
    }

    /** Whether a JVM's requests can be driven at a point at all ({@link FanOutPoints#drivable}). */
    public boolean drivable(Jvm jvm, Point at) {
        return fanOut().drivable(jvm, at);
    }

    /**
     * What the plan flags before it starts about its fan-out points, for the console and the manifest
     * ({@link FanOutPoints#flags}).
     */
    public List<String> fanOutFlags() {
        return fanOut().flags(jvms());
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
        return jfrWindows && (rep == 1 || rep == 2 && rep <= repeats.perJvm() && at.has(Axis.USERS)
                && at.get(Axis.USERS) == topLevel());
    }

    private List<Window> windows(Jvm jvm, int rep) {
        List<Window> windows = new ArrayList<>();
        Window.Closed closed = new Window.Closed(timing);
        for (Point at : windowPoints(jvm.variant()).stream().filter(p -> drivable(jvm, p)).toList()) {
            Window.Load load = at.has(Axis.REQUESTS) ? Burst.of(at.get(Axis.REQUESTS)) : closed;
            windows.add(new Window(jvm, at, load, false, rep));
            if (recorded(at, rep)) {
                // Right after its plain twin, so that the two differ in the recording only.
                windows.add(new Window(jvm, at, load, true, rep));
            }
        }
        if (rep == 1 && open.any()) { // at one call per request: its arrival rates are the headline's
            windowPoints(jvm.variant()).stream().filter(p -> FanOutPoints.calls(p) == 1).map(p -> p.without(Axis.USERS)).distinct()
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
