package io.threadlab.experiment.plan;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything that changes results, set explicitly and identically for every variant, and recorded in the manifest.
 * The services carry the same defaults in application.properties; the runner states them again on the command line
 * so that a run never depends on what a jar happened to be built with.
 */
public record Knobs(double cpuQuota, String heap, String gc, int connectionPoolSize,
                    int connectTimeoutMs, int readTimeoutMs, int workerPoolMax, boolean confineDelayService,
                    DatabasePool database) {

    /**
     * The services' pool to the database, the same for JDBC (Agroal) and the reactive client: its size, and how long
     * a request waits for a connection before it is answered 503. Null where the run has no database downstream.
     */
    public record DatabasePool(int size, int acquisitionTimeoutMs) {
        public DatabasePool {
            if (size < 1 || acquisitionTimeoutMs < 1) {
                throw new IllegalArgumentException("--db-pool-size and the acquisition timeout must be positive");
            }
        }
    }

    /** Knobs of a run without a database. */
    public Knobs(double cpuQuota, String heap, String gc, int connectionPoolSize, int connectTimeoutMs,
                 int readTimeoutMs, int workerPoolMax, boolean confineDelayService) {
        this(cpuQuota, heap, gc, connectionPoolSize, connectTimeoutMs, readTimeoutMs, workerPoolMax,
                confineDelayService, null);
    }

    public static final List<String> GCS = List.of("Serial", "Parallel", "G1", "Z");

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

    public Knobs {
        if (cpuQuota <= 0 || cpuQuota > 64) {
            throw new IllegalArgumentException("--cpus must be above 0 and at most 64, was " + cpuQuota);
        }
        if (!heap.matches("\\d+[kmgKMG]")) {
            throw new IllegalArgumentException("--heap must look like 512m or 1g, was '" + heap + "'");
        }
        if (!GCS.contains(gc)) {
            throw new IllegalArgumentException("--gc must be one of " + GCS + ", was '" + gc + "'");
        }
        if (connectionPoolSize < 1 || workerPoolMax < 1 || connectTimeoutMs < 1 || readTimeoutMs < 1) {
            throw new IllegalArgumentException("pool sizes and timeouts must be positive");
        }
    }

    /** The knobs of a JVM started at {@code setup}: each JVM axis' value in place of the run's. */
    public Knobs at(Point setup) {
        Double cpus = setup.get(Axis.CPUS);
        Integer workers = setup.get(Axis.WORKER_MAX);
        Integer pool = setup.get(Axis.POOL_SIZE);
        Integer dbPool = setup.get(Axis.DB_POOL_SIZE);
        return new Knobs(cpus != null ? cpus : cpuQuota, heap, gc, pool != null ? pool : connectionPoolSize,
                connectTimeoutMs, readTimeoutMs, workers != null ? workers : workerPoolMax, confineDelayService,
                database == null || dbPool == null ? database
                        : new DatabasePool(dbPool, database.acquisitionTimeoutMs()));
    }

    /** The JVM axes at the run's own values: what every window of a JVM without a setup ran at. */
    public Point asPoint() {
        return Point.of(Axis.CPUS, cpuQuota).with(Axis.WORKER_MAX, workerPoolMax).with(Axis.POOL_SIZE,
                connectionPoolSize).with(Axis.DB_POOL_SIZE, database == null ? null : database.size());
    }

    /** JVM flags for every service: fixed heap (no resizing noise) and an explicit GC (at 1 CPU the JVM picks Serial). */
    public List<String> jvmFlags() {
        return List.of("-Xms" + heap, "-Xmx" + heap, "-XX:+Use" + gc + "GC");
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
     */
    public Map<String, Object> serviceSettings(String delayUrl, String databaseUrl) {
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("quarkus.rest-client.delay.url", delayUrl);
        settings.put("quarkus.rest-client.delay.connection-pool-size", connectionPoolSize);
        settings.put("quarkus.rest-client.delay.connect-timeout", connectTimeoutMs);
        settings.put("quarkus.rest-client.delay.read-timeout", readTimeoutMs);
        settings.put("quarkus.rest-client.delay.connection-ttl", CONNECTION_TTL_MS);
        settings.put("quarkus.thread-pool.max-threads", workerPoolMax);
        if (database != null) {
            settings.put("lab.db.url", databaseUrl);
            settings.put("lab.db.pool-size", database.size());
            settings.put("lab.db.acquisition-timeout-ms", database.acquisitionTimeoutMs());
            settings.put("lab.db.statement-timeout-ms", readTimeoutMs);
        }
        return settings;
    }
}
