package io.threadlab.experiment;

import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.Database;
import io.threadlab.experiment.plan.Downstream;
import io.threadlab.experiment.plan.FanOutMode;
import io.threadlab.experiment.plan.Grid;
import io.threadlab.experiment.plan.Knobs;
import io.threadlab.experiment.plan.Point;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What the axes' flags of {@code run} or {@code map} make of a plan: the run's knobs (each JVM and run axis at its
 * first value), the map's JVM setups (every combination of the JVM axes given several values), and the grid of window
 * axes. Every axis is handled alike; the few rules between axes (the fan-out's mode goes with more than one call, the
 * database's pool only where a window waits on it, the database's quota is one per run) are said here.
 */
final class PlanAxes {

    /** The axes whose values the lab takes as the JVMs' setup, but which set no variant: the database's own. */
    private static final List<Axis<?>> DATABASE_OWN = List.of(Axis.DB_CPUS, Axis.DB_MAX_CONNECTIONS);
    /** The window axes the grid nests by rules of their own, the rest follow, innermost. */
    private static final List<Axis<?>> OWN_NESTING = List.of(Axis.USERS, Axis.REQUESTS, Axis.DOWNSTREAM,
            Axis.DELAY_MS, Axis.FAN_OUT, Axis.FAN_OUT_MODE);

    private final AxisOptions given;
    private final boolean map;

    PlanAxes(AxisOptions given, boolean map) {
        this.given = given;
        this.map = map;
    }

    /**
     * The run's own knobs: the first value of every JVM and run axis; .env's where none is given.
     *
     * @param poolDefault the pool when none is given (the map's: its most users × calls); null: .env's
     */
    Knobs knobs(Integer poolDefault, boolean confineDelayService) {
        Point values = Point.NONE;
        List<String> missing = new ArrayList<>();
        for (Axis<?> axis : Axis.all()) {
            if (axis.scope() == Axis.Scope.WINDOW || DATABASE_OWN.contains(axis)
                    || axis == Axis.DB_POOL_SIZE && !usesDatabase()) {
                continue;
            }
            List<?> values1 = values(axis, poolDefault);
            if (values1 == null) {
                if (Knobs.required(axis)) {
                    missing.add(axis.flag().name());
                }
                continue;
            }
            if (!map && values1.size() > 1) {
                throw new IllegalArgumentException("run takes one value per knob (" + axis.flag().name()
                        + "); ./experiment map takes several");
            }
            values = with(values, axis, values1.getFirst());
        }
        if (usesDatabase() && !values.has(Axis.DB_POOL_SIZE)) {
            throw new IllegalArgumentException("--downstream db needs --db-pool-size (from .env: "
                    + Axis.DB_POOL_SIZE.envKey() + ")");
        }
        if (!missing.isEmpty()) {
            throw new IllegalArgumentException("no .env found (the lab's settings, at the checkout's root) and no "
                    + String.join(", ", missing) + " given: run ./experiment from the lab's checkout");
        }
        requireOnThisMachine(Axis.CPUS, values.get(Axis.CPUS));
        return new Knobs(values, confineDelayService, database());
    }

    /** An axis' values: given, else the map's pool, else its default. */
    private List<?> values(Axis<?> axis, Integer poolDefault) {
        if (axis == Axis.POOL_SIZE && poolDefault != null && !given.has(axis)) {
            return List.of(poolDefault);
        }
        return given.valuesOrDefault(axis);
    }

    /** The map's JVMs: every combination of the JVM axes given more than one value (the others: the run's knobs). */
    List<Point> setups(Integer poolDefault) {
        Grid grid = Grid.of();
        for (Axis<?> axis : Axis.all()) {
            if (axis.scope() != Axis.Scope.JVM || DATABASE_OWN.contains(axis)
                    || axis == Axis.DB_POOL_SIZE && !usesDatabase()) {
                continue;
            }
            List<?> values = values(axis, poolDefault);
            if (values != null && values.size() > 1) {
                values.forEach(v -> requireOnThisMachine(axis, v));
                grid = and(grid, axis, values);
            }
        }
        return grid.points().stream().filter(p -> !p.isEmpty()).toList();
    }

    /** A quota no larger than this machine: a JVM cannot use CPUs that are not there. */
    private static void requireOnThisMachine(Axis<?> axis, Object value) {
        int machine = Runtime.getRuntime().availableProcessors();
        if ((axis == Axis.CPUS || axis == Axis.DB_CPUS) && (Double) value > machine) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "%s %s is more than this machine's %d CPUs",
                    axis.flag().name(), value, machine));
        }
    }

    /**
     * The grid: users outermost, then the downstreams, the delays and the fan-out, then any other window axis. An
     * axis at its default alone (the delay service, one call) is left out, so that such a run's windows are named,
     * requested and reported as they always were.
     */
    Grid grid(List<Integer> users, List<Integer> delays) {
        Grid grid = Grid.of().and(Axis.USERS, users);
        List<Downstream> kinds = downstreams();
        if (!kinds.equals(List.of(Downstream.HTTP))) {
            grid = grid.and(Axis.DOWNSTREAM, kinds);
        }
        grid = withFanOut(grid.and(Axis.DELAY_MS, delays));
        for (Axis<?> axis : Axis.all()) {
            if (axis.scope() == Axis.Scope.WINDOW && !OWN_NESTING.contains(axis)) {
                List<?> values = given.valuesOrDefault(axis);
                if (values != null && !(values.size() == 1 && axis.quiet(values.getFirst()))) {
                    grid = and(grid, axis, values);
                }
            }
        }
        return grid;
    }

    /**
     * A burst's grid: the bursts' sizes outermost, then the axes as {@link #grid} nests them (no users). The map takes
     * none ({@link MapCommand}).
     */
    Grid burstGrid(List<Integer> requests, List<Integer> delays) {
        Grid grid = Grid.of().and(Axis.REQUESTS, requests);
        Grid rest = grid(List.of(), delays);
        for (Axis<?> axis : rest.axes()) {
            grid = and(grid, axis, rest.values(axis));
        }
        return grid;
    }

    /** The bursts' sizes given (--requests), or null. */
    List<Integer> requests() {
        return given.values(Axis.REQUESTS);
    }

    /** Whether the command line gave {@code axis} a value. */
    boolean has(Axis<?> axis) {
        return given.has(axis);
    }

    /** The users given, or the command's own. */
    List<Integer> users(List<Integer> commandDefault) {
        List<Integer> given1 = given.values(Axis.USERS);
        return given1 != null ? given1 : commandDefault;
    }

    /** The delays given, or null: the command's own default then. */
    List<Integer> delays() {
        return given.values(Axis.DELAY_MS);
    }

    /** The delays given, or .env's. */
    List<Integer> delaysOrDefault() {
        return given.valuesOrDefault(Axis.DELAY_MS);
    }

    /** The most calls per request the grid asks for. */
    int mostCalls() {
        List<Integer> calls = given.values(Axis.FAN_OUT);
        return calls == null ? 1 : calls.stream().mapToInt(n -> n).max().orElse(1);
    }

    /**
     * The fan-out axes, innermost: left out at one call (the default), so that such a run's windows are named,
     * requested and reported as they always were; with more, the mode goes with them (parallel unless given).
     */
    private Grid withFanOut(Grid grid) {
        List<Integer> calls = given.valuesOrDefault(Axis.FAN_OUT);
        List<FanOutMode> modes = given.valuesOrDefault(Axis.FAN_OUT_MODE).stream().distinct().toList();
        if (calls.equals(List.of(1)) && given.has(Axis.FAN_OUT_MODE) && !modes.equals(List.of(FanOutMode.PARALLEL))) {
            throw new IllegalArgumentException("--fan-out-mode " + String.join(",", modes.stream()
                    .map(FanOutMode::label).toList()) + " needs --fan-out above 1: one call is one call in either mode");
        }
        return calls.equals(List.of(1)) ? grid : grid.and(Axis.FAN_OUT, calls).and(Axis.FAN_OUT_MODE, modes);
    }

    /** The downstreams asked for, the delay service's alone by default. */
    List<Downstream> downstreams() {
        return given.valuesOrDefault(Axis.DOWNSTREAM).stream().distinct().toList();
    }

    boolean usesDatabase() {
        return downstreams().contains(Downstream.DB);
    }

    /** The lab's PostgreSQL, where a window waits on it: its quota and settings, from .env or their flags. */
    private Database database() {
        if (!usesDatabase()) {
            return null;
        }
        Map<String, String> env = LabSettings.read();
        Double cpus = given.valuesOrDefault(Axis.DB_CPUS) == null ? null : one(Axis.DB_CPUS);
        List<Integer> maxConnections = given.valuesOrDefault(Axis.DB_MAX_CONNECTIONS);
        if (cpus == null || maxConnections == null || !env.containsKey("LAB_DB_SHARED_BUFFERS")
                || !env.containsKey("LAB_DB_FSYNC")) {
            throw new IllegalArgumentException("--downstream db needs the database's settings from .env"
                    + " (LAB_DB_CPUS, LAB_DB_MAX_CONNECTIONS, LAB_DB_SHARED_BUFFERS, LAB_DB_FSYNC) or --db-cpus and"
                    + " --db-max-connections: run ./experiment from the lab's checkout");
        }
        requireOnThisMachine(Axis.DB_CPUS, cpus);
        return new Database(cpus, maxConnections.getFirst(), env.get("LAB_DB_SHARED_BUFFERS"),
                !env.get("LAB_DB_FSYNC").equalsIgnoreCase("off"));
    }

    /** The one value of an axis the database has once per run. */
    private <T extends Comparable<T>> T one(Axis<T> axis) {
        List<T> values = given.valuesOrDefault(axis);
        if (values.size() > 1) {
            throw new IllegalArgumentException(axis.flag().name() + " takes one value: the run has one database,"
                    + " was " + values);
        }
        return values.getFirst();
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Point with(Point point, Axis axis, Object value) {
        return point.with(axis, (Comparable) value);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Grid and(Grid grid, Axis axis, List<?> values) {
        return grid.and(axis, (List) values);
    }
}
