package io.threadlab.experiment.plan;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Everything that changes results, set explicitly and identically for every variant, and recorded in the manifest:
 * the run's value on every JVM and run axis ({@link Axis}), whether the delay service is confined too, and whether
 * the variants get a database pool. The services carry the same defaults (from .env); the runner states them again
 * on the command line so that a run never depends on what a jar happened to be built with.
 *
 * @param values   a value on each of the run's JVM axes and knobs
 * @param database the lab's PostgreSQL, where a window waits on it (then every variant gets the pool's settings);
 *                 else null
 */
public record Knobs(Point values, boolean confineDelayService, Database database) {

    /**
     * The services' pool to the database, the same for JDBC (Agroal) and the reactive client: its size, and how long
     * a request waits for a connection before it is answered 503.
     */
    public record DatabasePool(int size, int acquisitionTimeoutMs) {
    }

    /** The axes every run has a value on: what the variants need to start. */
    private static final List<Axis<?>> REQUIRED = List.of(Axis.CPUS, Axis.HEAP, Axis.GC, Axis.POOL_SIZE,
            Axis.CONNECT_TIMEOUT_MS, Axis.READ_TIMEOUT_MS, Axis.WORKER_MAX);

    /**
     * A JVM that used more than its quota by this share over a window broke its confinement: CFS periods are 100 ms,
     * and a window's edges fall inside them.
     */
    public static final double QUOTA_TOLERANCE = 0.05;

    /**
     * How long a pooled client connection may live (classic) or idle (Quarkus REST): longer than any run. With 60 s,
     * connections opened in one burst expired together, and the imperative variant stalled for up to 9 s while the
     * classic client replaced them, closing and leasing under its single pool lock (measured: 306 req/s in a window
     * against ~3,500).
     */
    public static final int CONNECTION_TTL_MS = 3_600_000;

    /** The settings every variant gets that are no axis: what they are set to, and why, is said where they are. */
    private static final Set<String> OWN_SETTINGS = Set.of("quarkus.rest-client.delay.url",
            "quarkus.rest-client.delay.connection-ttl", "lab.db.url", "lab.db.acquisition-timeout-ms",
            "lab.db.statement-timeout-ms");

    public Knobs {
        List<String> missing = REQUIRED.stream().filter(a -> !values.has(a)).map(a -> a.flag().name()).toList();
        if (!missing.isEmpty() || database != null && !values.has(Axis.DB_POOL_SIZE)) {
            throw new IllegalArgumentException("the knobs need a value for " + (missing.isEmpty()
                    ? List.of(Axis.DB_POOL_SIZE.flag().name()) : missing));
        }
        for (Axis<?> axis : values.axes()) {
            check(axis, values);
        }
    }

    /** Knobs of a run without a database, as the tests write them. */
    public Knobs(double cpuQuota, String heap, String gc, int connectionPoolSize, int connectTimeoutMs,
                 int readTimeoutMs, int workerPoolMax, boolean confineDelayService) {
        this(Point.of(Axis.CPUS, cpuQuota).with(Axis.HEAP, heap).with(Axis.GC, gc)
                .with(Axis.POOL_SIZE, connectionPoolSize).with(Axis.CONNECT_TIMEOUT_MS, connectTimeoutMs)
                .with(Axis.READ_TIMEOUT_MS, readTimeoutMs).with(Axis.WORKER_MAX, workerPoolMax),
                confineDelayService, null);
    }

    /** Whether every run must have a value on {@code axis}: what the variants need to start. */
    public static boolean required(Axis<?> axis) {
        return REQUIRED.contains(axis);
    }

    /** These knobs with the lab's PostgreSQL, and every variant's pool to it of {@code size}. */
    public Knobs withDatabase(Database database, int size) {
        return new Knobs(values.with(Axis.DB_POOL_SIZE, size), confineDelayService, database);
    }

    private static <T extends Comparable<T>> void check(Axis<T> axis, Point values) {
        axis.check(List.of(values.get(axis)), axis.flag().name());
    }

    public double cpuQuota() {
        return values.get(Axis.CPUS);
    }

    public String heap() {
        return values.get(Axis.HEAP);
    }

    public String gc() {
        return values.get(Axis.GC);
    }

    public int connectionPoolSize() {
        return values.get(Axis.POOL_SIZE);
    }

    public int connectTimeoutMs() {
        return values.get(Axis.CONNECT_TIMEOUT_MS);
    }

    public int readTimeoutMs() {
        return values.get(Axis.READ_TIMEOUT_MS);
    }

    public int workerPoolMax() {
        return values.get(Axis.WORKER_MAX);
    }

    /** The pool to the database, where the run has one; null otherwise. */
    public DatabasePool databasePool() {
        // a request waits for a pooled connection as long as it would for the delay service's answer
        return database != null ? new DatabasePool(values.get(Axis.DB_POOL_SIZE), readTimeoutMs()) : null;
    }

    /**
     * The knobs a JVM runs with: the run's, changed by its setup, then by its variant's own settings on the JVM axes
     * they set (fanout-connection-pool's pool of 50), so that its results and its manifest say what it ran with.
     */
    public Knobs of(Jvm jvm) {
        Point setup = jvm.setup();
        for (Axis<?> axis : Axis.all()) {
            String key = axis.effect().quarkusProperty();
            if (axis.scope() == Axis.Scope.JVM && key != null && jvm.variant().properties().containsKey(key)) {
                setup = withText(setup, axis, jvm.variant().properties().get(key));
            }
        }
        return at(setup);
    }

    private static <T extends Comparable<T>> Point withText(Point p, Axis<T> axis, String text) {
        return p.with(axis, axis.read(text));
    }

    /** The knobs of a JVM started at {@code setup}: each JVM axis' value in place of the run's. */
    public Knobs at(Point setup) {
        Point applied = setup.without(Axis.DB_CPUS); // the database's own: no knob of a variant
        if (database == null) {
            applied = applied.without(Axis.DB_POOL_SIZE);
        }
        return new Knobs(values.and(applied), confineDelayService, database);
    }

    /** The JVM axes at the run's own values: what every window of a JVM without a setup ran at. */
    public Point asPoint() {
        Point jvm = values.only(Axis.Scope.JVM);
        return database != null ? jvm : jvm.without(Axis.DB_POOL_SIZE);
    }

    /** JVM flags for every service: fixed heap (no resizing noise) and an explicit GC (at 1 CPU the JVM picks Serial). */
    public List<String> jvmFlags() {
        return List.of("-Xms" + heap(), "-Xmx" + heap(), "-XX:+Use" + gc() + "GC");
    }

    /** The variants' fairness knobs as Quarkus system properties. */
    public List<String> variantProperties(String delayUrl, String databaseUrl) {
        List<String> properties = new ArrayList<>();
        serviceSettings(delayUrl, databaseUrl).forEach((key, value) -> properties.add("-D" + key + "=" + value));
        return properties;
    }

    /**
     * Every setting the variants get, by its Quarkus name: the delay service's client, the worker pool, and where the
     * run has a database, its pool (lab.db.*, which each database client spells in its own keys). A request waits for
     * a pooled connection, and PostgreSQL lets a query run, as long as the REST client waits for the delay service.
     * Then any other axis that takes effect as a Quarkus setting, in the axes' order.
     */
    public Map<String, Object> serviceSettings(String delayUrl, String databaseUrl) {
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("quarkus.rest-client.delay.url", delayUrl);
        put(settings, Axis.POOL_SIZE);
        put(settings, Axis.CONNECT_TIMEOUT_MS);
        put(settings, Axis.READ_TIMEOUT_MS);
        settings.put("quarkus.rest-client.delay.connection-ttl", CONNECTION_TTL_MS);
        put(settings, Axis.WORKER_MAX);
        if (database != null) {
            settings.put("lab.db.url", databaseUrl);
            put(settings, Axis.DB_POOL_SIZE);
            settings.put("lab.db.acquisition-timeout-ms", databasePool().acquisitionTimeoutMs());
            settings.put("lab.db.statement-timeout-ms", readTimeoutMs());
        }
        for (Axis<?> axis : values.axes()) {
            String key = axis.effect().quarkusProperty();
            if (key != null && !settings.containsKey(key) && !OWN_SETTINGS.contains(key)
                    && (axis != Axis.DB_POOL_SIZE || database != null)) {
                put(settings, axis);
            }
        }
        return settings;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private void put(Map<String, Object> settings, Axis axis) {
        settings.put(axis.effect().quarkusProperty(), axis.json(values.get(axis)));
    }

    /**
     * Every knob by the .env key compose reads it from ({@code LAB_CPUS=0.5}): what {@code --engine compose} hands to
     * docker compose, so that the containers get this run's values and not the file's.
     */
    public Map<String, String> composeVariables() {
        Map<String, String> variables = new LinkedHashMap<>();
        for (Axis<?> axis : values.axes()) {
            if (axis.envKey() != null && (axis != Axis.DB_POOL_SIZE || database != null)) {
                variables.put(axis.envKey(), text(axis));
            }
        }
        return variables;
    }

    /**
     * k6's environment from the run's knobs that take effect there, by the variable's name ({@code GOGC=400}): the
     * same k6 for every variant, wherever it runs.
     */
    public Map<String, String> k6Environment() {
        Map<String, String> environment = new LinkedHashMap<>();
        for (Axis<?> axis : values.axes()) {
            if (axis.effect().k6Environment() != null) {
                environment.put(axis.effect().k6Environment(), text(axis));
            }
        }
        return environment;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private String text(Axis axis) {
        Object value = values.get(axis);
        return value instanceof Double d ? String.valueOf(d) : axis.text((Comparable) value);
    }
}
