package io.threadlab.experiment.predict;

/**
 * What can cap a variant's throughput at one point, each predicted from its JVM's calibration: what the quota allows
 * at the CPU one request costs, what the workers and the connections (the REST client's, or the database pool's)
 * allow at the time each request holds one, what the database's own quota allows at the CPU its query costs, and what
 * the closed model's users ask for.
 */
public enum Ceiling {
    /** The CPU quota divided by the CPU one request costs. */
    CPU("CPU", "quota ÷ CPU per request (calibrated at as many requests waiting in the JVM)"),
    /** The worker-pool maximum divided by how long a worker is held per request (worker variants only). */
    WORKERS("workers", "worker maximum ÷ time a worker is held"),
    /** The client's connection pool divided by how long a connection is held per call. */
    CONNECTIONS("connections", "connection pool ÷ time a connection is held"),
    /** The database pool divided by how long a request holds a pooled connection. */
    DB_POOL("database pool", "database pool ÷ time a connection is held"),
    /** The database's CPU quota divided by the CPU its query costs it. */
    DB_CPU("database CPU", "database quota ÷ its CPU per query"),
    /** A closed model's users divided by the least response time: no more requests are asked for. */
    USERS("users", "users ÷ least response time"),
    /**
     * The load generator on the machine it shares with the service: the CPUs the service's quota and the delay service
     * leave k6, over what k6 spends per request (and per user). A ceiling of the measurement, not of the service.
     */
    LOAD("load generator", "CPUs left to k6 ÷ its CPU per request");

    private final String label;
    private final String formula;

    Ceiling(String label, String formula) {
        this.label = label;
        this.formula = formula;
    }

    public String label() {
        return label;
    }

    public String formula() {
        return formula;
    }
}
