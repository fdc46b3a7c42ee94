package io.threadlab.experiment.start;

import io.threadlab.experiment.confine.Confinement;
import io.threadlab.experiment.confine.CpuReading;
import io.threadlab.experiment.plan.Database;
import io.threadlab.experiment.process.ServiceProcess;
import io.threadlab.experiment.record.DatabaseReading;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Properties;

/**
 * The lab's PostgreSQL during a run: started by the engine like a service ({@code lab-database serve} in a CPU group
 * of its own locally, the {@code database} container with compose), its data loaded before any warm-up, and one
 * connection of the runner's own, which sets the page query's wait between windows and reads the database's counters
 * at each window's edges. That connection names itself, so that the connections counted are the services' alone.
 */
public final class LabDatabase implements AutoCloseable {

    /** The compose service, and the name of the process and its group. */
    public static final String SERVICE = "database";
    /** The module whose jar {@code serve}s it locally. */
    public static final String MODULE = "lab-database";
    /** PostgreSQL's own port, where the services look by default. */
    public static final int PORT = 5432;
    private static final String RUNNER = "threadlab-runner";
    /** Every statement of the runner's, connecting included, answers within this or fails: a run never hangs here. */
    private static final int STATEMENT_SECONDS = 10;
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(90);

    private final ServiceProcess process;
    private final Confinement confinement;
    private final Connection control;
    private final Map<String, Object> facts;

    private LabDatabase(ServiceProcess process, Confinement confinement, Connection control, Map<String, Object> facts) {
        this.process = process;
        this.confinement = confinement;
        this.control = control;
        this.facts = facts;
    }

    /** The variants' URL of it (Quarkus' {@code lab.db.url}: each client prefixes its own scheme). */
    public static String url() {
        return "postgresql://127.0.0.1:" + PORT + "/lab";
    }

    /** The command line that serves it at {@code port}, writes {@code ready} once it is, logs to {@code serverLog}. */
    @FunctionalInterface
    public interface Command {
        List<String> serve(Database database, int port, Path ready, Path serverLog);
    }

    /**
     * Starts it, loads its data and waits until it is ready. {@code work} is a directory of the run's own outside the
     * results, for the ready file; the log (the server's and serve's) goes to {@code log}.
     */
    public static LabDatabase start(Engine engine, Command command, Database database, Path work, Path log) {
        Path ready = work.resolve("database.ready");
        long begin = System.nanoTime();
        ServiceProcess process = engine.start(SERVICE, PORT, SERVICE, OptionalDouble.of(database.cpus()),
                command.serve(database, PORT, ready, log.resolveSibling("postgres.log")), log);
        try {
            Connection control = awaitReady(process, engine.name().equals("local") ? ready : null);
            Map<String, Object> facts = facts(control, database, Duration.ofNanos(System.nanoTime() - begin));
            return new LabDatabase(process, engine.confinement(), control, facts);
        } catch (RuntimeException e) {
            process.close();
            throw e;
        }
    }

    /**
     * Ready once serve says so (its ready file, written after the data is loaded, frozen and checkpointed; a
     * container's healthcheck reads the same file, so compose's {@code --wait} has waited for it) and the runner's
     * connection answers.
     */
    private static Connection awaitReady(ServiceProcess process, Path readyFile) {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        SQLException last = null;
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the lab's PostgreSQL ended while starting. Last lines of "
                        + process.logLocation() + ":\n" + process.logTail(30));
            }
            if (readyFile == null || Files.exists(readyFile)) {
                try {
                    Connection connection = connect(process.host());
                    try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(
                            "SELECT ms FROM lab_wait")) {
                        rs.next();
                    }
                    return connection;
                } catch (SQLException e) {
                    last = e;
                }
            }
            sleep(200);
        }
        throw new IllegalStateException("the lab's PostgreSQL was not ready within " + READY_TIMEOUT.toSeconds()
                + " s" + (last == null ? "" : " (last answer: " + last.getMessage() + ")") + ". Last lines of "
                + process.logLocation() + ":\n" + process.logTail(30));
    }

    /** The runner's own connection, to the database's port where its engine publishes it. */
    private static Connection connect(String host) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", "lab");
        p.setProperty("password", "lab");
        p.setProperty("ApplicationName", RUNNER);
        p.setProperty("connectTimeout", String.valueOf(STATEMENT_SECONDS));
        p.setProperty("socketTimeout", String.valueOf(STATEMENT_SECONDS));
        return DriverManager.getConnection("jdbc:postgresql://" + host + ":" + PORT + "/lab", p);
    }

    /** What the manifest records: the server's version, its settings as it reports them, the data, the quota. */
    private static Map<String, Object> facts(Connection c, Database database, Duration startup) {
        Map<String, Object> facts = new LinkedHashMap<>();
        try (Statement s = c.createStatement()) {
            facts.put("version", single(s, "SHOW server_version"));
            facts.put("cpus", database.cpus());
            Map<String, String> settings = new LinkedHashMap<>();
            for (String name : List.of("max_connections", "shared_buffers", "work_mem", "fsync", "synchronous_commit",
                    "max_parallel_workers_per_gather", "jit", "statement_timeout")) {
                settings.put(name, single(s, "SHOW " + name));
            }
            facts.put("settings", settings);
            Map<String, Object> rows = new LinkedHashMap<>();
            for (String table : List.of("authors", "articles", "comments")) {
                rows.put(table, Long.parseLong(single(s, "SELECT count(*) FROM " + table)));
            }
            facts.put("rows", rows);
            facts.put("ready_after_seconds", Math.round(startup.toMillis() / 10.0) / 100.0);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the lab's PostgreSQL's settings: " + e.getMessage(), e);
        }
        return facts;
    }

    private static String single(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }

    /** Sets how long the page query waits server-side ({@code lab_wait}), for the requests from now on. */
    public synchronized void setWait(int ms) {
        try (PreparedStatement update = control.prepareStatement("UPDATE lab_wait SET ms = ?")) {
            update.setInt(1, ms);
            update.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot set the database's wait to " + ms + " ms: " + e.getMessage()
                    + deathNotice(), e);
        }
    }

    /**
     * The database at this instant: its group's CPU, its transactions so far (each page query is one; PostgreSQL
     * publishes a backend's counts within about a second, so a window's count lags its edges by up to that), and the
     * services' connections (open, and running a query now).
     */
    public synchronized DatabaseReading read() {
        CpuReading cpu = confinement.read(SERVICE, process.pid());
        try (Statement s = control.createStatement(); ResultSet rs = s.executeQuery("""
                SELECT (SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = 'lab'),
                       count(*), count(*) FILTER (WHERE state = 'active')
                FROM pg_stat_activity
                WHERE datname = 'lab' AND backend_type = 'client backend' AND application_name <> '""" + RUNNER + "'")) {
            rs.next();
            return new DatabaseReading(cpu, rs.getLong(1), rs.getInt(2), rs.getInt(3));
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the database's counters: " + e.getMessage() + deathNotice(),
                    e);
        }
    }

    /** Throws, naming how it ended, when the database is gone: a window on it would measure only errors. */
    public void requireAlive() {
        if (!process.isAlive()) {
            throw new IllegalStateException("the lab's PostgreSQL died mid-run. Last lines of " + process.logLocation()
                    + ":\n" + process.logTail(30));
        }
    }

    private String deathNotice() {
        return process.isAlive() ? "" : " (the lab's PostgreSQL has died; last lines of " + process.logLocation()
                + ":\n" + process.logTail(30) + ")";
    }

    public long pid() {
        return process.pid();
    }

    public Map<String, Object> facts() {
        return facts;
    }

    /** The runner's connection, then the database: serve stops PostgreSQL in order and removes what it made. */
    @Override
    public void close() {
        try {
            control.close();
        } catch (SQLException e) {
            // the server may be gone already; stopping it is what matters
        }
        process.close();
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the lab's PostgreSQL", e);
        }
    }
}
