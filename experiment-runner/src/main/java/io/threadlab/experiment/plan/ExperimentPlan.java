package io.threadlab.experiment.plan;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What one run measures, as a schedule of steps.
 *
 * <p>{@code run}: every variant is started {@code jvmStarts} times, and each JVM is measured in a block of its own
 * (see {@link #schedule}): warm-up, calibration, its repetitions' windows, stop; the blocks rotate the variants.
 * Headline windows run without the detailed JFR settings. At the highest level each repetition adds a twin with the
 * detailed recording right after its plain window, so that the recording's cost is measured in pairs; at other levels
 * the first repetition does, for the thread analysis. The open model's steps run in the first repetition, at every
 * delay.
 *
 * <p>{@code map}: every point of the grid, per variant and per setup (the JVM axes: CPU quota, worker-pool maximum,
 * connection-pool size, each value a JVM of its own). Within one JVM the grid's outer axes change least often (users
 * rise, and at each number of users the delays rise), so the load at one level runs on from one delay to the next;
 * then the open model at each delay, its rates shares of what the closed model reached there.
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
        if (calibration.any() && calibration.delayMs() >= knobs.readTimeoutMs()) {
            throw new IllegalArgumentException("the calibration's delay (" + calibration.delayMs() + " ms) is not below"
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
        if (precision.active() && precision.maxJvmStarts() < jvmStarts) {
            throw new IllegalArgumentException("--max-jvm-starts must be at least --jvm-starts (" + jvmStarts + ")");
        }
        variants = List.copyOf(variants);
        setups = setups.isEmpty() ? List.of(Point.NONE) : List.copyOf(setups);
    }

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
        for (Point downstream : jvm.start() == 1 ? downstreams(jvm.variant()) : List.<Point>of()) {
            for (int users : calibration.levels()) {
                steps.add(new Step.Measure(new Window(jvm, downstream.with(Axis.DELAY_MS, calibration.delayMs())
                        .with(Axis.USERS, users), new Window.Closed(timing.settleSeconds(), timing.settleMaxSeconds(),
                        calibration.windowSeconds()), false, WindowId.Role.CALIBRATION, jvm.start())));
            }
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

    /** The grid's points a variant has an endpoint for (a mistake of the database has no delay-service one). */
    private List<Point> windowPoints(Variant variant) {
        List<Point> points = grid.points().stream().filter(p -> !p.has(Axis.DOWNSTREAM)
                || variant.path(p.get(Axis.DOWNSTREAM)) != null).toList();
        if (points.isEmpty()) {
            throw new IllegalArgumentException(variant + " has no endpoint for " + grid.values(Axis.DOWNSTREAM));
        }
        return points;
    }

    /** The downstreams of the grid a variant has an endpoint for, each as a point (none: the delay service). */
    private List<Point> downstreams(Variant variant) {
        return windowPoints(variant).stream().map(p -> p.has(Axis.DOWNSTREAM)
                ? Point.of(Axis.DOWNSTREAM, p.get(Axis.DOWNSTREAM)) : Point.NONE).distinct().toList();
    }

    /**
     * Whether a window gets a recorded twin: every level in the first repetition (the thread analysis), the highest
     * in the second as well (the recording's cost, in two pairs); none after, where the time goes to JVM starts.
     */
    private boolean recorded(Point at, int rep) {
        return jfrWindows && (rep == 1 || rep == 2 && at.get(Axis.USERS) == topLevel());
    }

    private List<Window> windows(Jvm jvm, int rep) {
        List<Window> windows = new ArrayList<>();
        Window.Closed load = new Window.Closed(timing);
        for (Point at : windowPoints(jvm.variant())) {
            windows.add(new Window(jvm, at, load, false, rep));
            if (recorded(at, rep)) {
                // Right after its plain twin, so that the two differ in the recording only.
                windows.add(new Window(jvm, at, load, true, rep));
            }
        }
        if (rep == 1 && open.any()) {
            windowPoints(jvm.variant()).stream().map(p -> p.without(Axis.USERS)).distinct()
                    .forEach(at -> windows.add(new Window(jvm, at, open.steps(timing.settleMaxSeconds()), false, rep)));
        }
        return windows;
    }
}
