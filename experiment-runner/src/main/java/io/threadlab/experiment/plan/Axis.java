package io.threadlab.experiment.plan;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * One dimension of the lab's grid, declared once: its name (as results.json, results.csv and the manifest write it),
 * the flag that sets it, whether it changes between windows of one warm JVM or needs a JVM of its own, how a value is
 * read, and how a window's name shows it. A point of the grid ({@link Point}) is a value on each axis; a new axis is
 * one declaration here plus its effect (a Quarkus setting of the JVM, or what the window's requests do).
 *
 * <p>JVM axes are left out of names at the run's own value (a JVM with nothing but the run's knobs is named by its
 * variant alone, as it always was); window axes are left out at their {@code quiet} value, so that a window of
 * today's runs is named as before.
 *
 * @param idPrefix what a window's name writes before the value ("-cpu" in {@code imperative-cpu0.25-...})
 * @param idSuffix what it writes after ("ms" in {@code -300ms})
 * @param idDigits the value's form in a name, as a regular expression
 * @param quiet    a window axis' value its name leaves out, or null to name every value
 */
public record Axis<T extends Comparable<T>>(String name, String flag, Scope scope, Class<T> type,
                                            Function<String, T> reader, String idPrefix, String idSuffix,
                                            String idDigits, T quiet) {

    public enum Scope {
        /** Changes between windows of one warm JVM (the delay service is told the wait, k6 makes the users). */
        WINDOW,
        /** Set when the JVM starts: each value a JVM of its own. */
        JVM
    }

    /** The closed model's concurrent users: k6's virtual users, each with one request at a time and no think time. */
    public static final Axis<Integer> USERS = new Axis<>("users", "--levels", Scope.WINDOW, Integer.class,
            Integer::valueOf, "closed-", "", "\\d+", null);
    /** The downstream's wait, in milliseconds: what the delay service is told before each window. */
    public static final Axis<Integer> DELAY_MS = new Axis<>("delay_ms", "--delay-ms", Scope.WINDOW, Integer.class,
            Integer::valueOf, "-", "ms", "\\d+", null);
    /** The JVM's CPU quota, in CPUs (its cgroup's or its container's). */
    public static final Axis<Double> CPUS = new Axis<>("cpu_quota", "--cpus", Scope.JVM, Double.class,
            Double::valueOf, "-cpu", "", "[0-9.]+", null);
    /** The worker pool's maximum: where the imperative variants run their requests. */
    public static final Axis<Integer> WORKER_MAX = new Axis<>("worker_max", "--worker-max", Scope.JVM,
            Integer.class, Integer::valueOf, "-w", "", "\\d+", null);
    /** The REST client's connection pool to the downstream. */
    public static final Axis<Integer> POOL_SIZE = new Axis<>("pool_size", "--pool-size", Scope.JVM, Integer.class,
            Integer::valueOf, "-pool", "", "\\d+", null);
    /** The database connection pool (Agroal's on workers and virtual threads, the reactive client's on the loop). */
    public static final Axis<Integer> DB_POOL_SIZE = new Axis<>("db_pool_size", "--db-pool-size", Scope.JVM,
            Integer.class, Integer::valueOf, "-dbpool", "", "\\d+", null);
    /** The database's CPU quota, in CPUs: a setting of the run's PostgreSQL, which its database windows carry. */
    public static final Axis<Double> DB_CPUS = new Axis<>("db_cpu_quota", "--db-cpus", Scope.JVM, Double.class,
            Double::valueOf, "-dbcpu", "", "[0-9.]+", null);
    /** What the requests wait on: the delay service, or the database. Named only when it is the database. */
    public static final Axis<Downstream> DOWNSTREAM = new Axis<>("downstream", "--downstream", Scope.WINDOW,
            Downstream.class, Downstream::parse, "-", "", "db|http", Downstream.HTTP);
    /**
     * The calls to the delay service each request makes ({@code GET /api/fanout?n=N}). Named only above 1: a window of
     * one call is today's {@code GET /api}.
     */
    public static final Axis<Integer> FAN_OUT = new Axis<>("fan_out", "--fan-out", Scope.WINDOW, Integer.class,
            Integer::valueOf, "-fan", "", "\\d+", 1);
    /** Whether a request's calls run at once or one after another. Named only when sequential. */
    public static final Axis<FanOutMode> FAN_OUT_MODE = new Axis<>("fan_out_mode", "--fan-out-mode", Scope.WINDOW,
            FanOutMode.class, FanOutMode::parse, "-", "", "parallel|sequential", FanOutMode.PARALLEL);

    /** Every axis, in the order names and tables give them: the JVM's first, then the window's. */
    public static final List<Axis<?>> ALL = List.of(CPUS, WORKER_MAX, POOL_SIZE, DB_POOL_SIZE, DB_CPUS, DOWNSTREAM,
            DELAY_MS, FAN_OUT, FAN_OUT_MODE, USERS);

    public static Optional<Axis<?>> named(String name) {
        return ALL.stream().filter(a -> a.name.equals(name)).findFirst();
    }

    /** A value as the flag or results.json gives it; a clear message naming the flag when it is not one. */
    public T read(String text) {
        try {
            return reader.apply(text.trim());
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(flag + " takes " + type.getSimpleName().toLowerCase(Locale.ROOT)
                    + " values, was '" + text + "'");
        }
    }

    /** A value of this axis from JSON (numbers come back as whatever Jackson chose, enums as their label). */
    public T cast(Object value) {
        if (value == null || type.isInstance(value)) {
            return type.cast(value);
        }
        return read(String.valueOf(value));
    }

    /** The value as results.json and the manifest write it: a number, or an enum's label. */
    public Object json(Object value) {
        return value instanceof Enum<?> e ? e.name().toLowerCase(Locale.ROOT) : value;
    }

    /** The value as a window's name writes it: {@code 0.5} not {@code 0.50}, {@code 1} not {@code 1.0}. */
    public String text(T value) {
        if (value instanceof Double d) {
            return d % 1 == 0 ? String.valueOf(d.intValue()) : String.valueOf(d);
        }
        return String.valueOf(value).toLowerCase(Locale.ROOT);
    }

    /** The value's part of a window's name, e.g. {@code -cpu0.25}. */
    public String idPart(T value) {
        return idPrefix + text(value) + idSuffix;
    }

    @Override
    public String toString() {
        return name;
    }
}
