package io.threadlab.database;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * One PostgreSQL server of the lab: a data directory made for it by initdb, the server's command line, and its whole
 * life: start, ready, alive, stopped, its data directory removed. Never left behind: {@link #close()} on success or
 * failure, and a shutdown hook for Ctrl-C and any other JVM exit (only a JVM killed outright, SIGKILL, cannot stop
 * it: its processes are then named "postgres: lab-database: ..." in {@code ps}).
 *
 * <pre>{@code
 * try (PostgresServer db = PostgresServer.initdb(binaries, PostgresSettings.defaults(), runDirectory)) {
 *     db.start(List.of("sh", "-c", "echo $$ > /sys/fs/cgroup/.../cgroup.procs; exec \"$@\"", "sh"));
 *     db.awaitReady(Duration.ofSeconds(30));
 *     LabData.load(db, DataSize.defaults());
 *     ...
 *     db.ensureRunning();   // at the edges of each window: died mid-run?
 * }
 * }</pre>
 *
 * <p>The work directory holds {@code data/} (removed by {@link #close()}) and {@code postgres.log} (kept: the
 * caller's to keep or remove).
 */
public final class PostgresServer implements AutoCloseable {

    /** The database, user and password the services use. A throwaway password: the server listens on loopback. */
    public static final String DATABASE = "lab";
    public static final String USER = "lab";
    public static final String PASSWORD = "lab";

    /** A fast shutdown ends every session and writes one checkpoint: well under a second here. */
    private static final long FAST_SHUTDOWN_SECONDS = 15;
    private static final Duration FAST_SHUTDOWN = Duration.ofSeconds(FAST_SHUTDOWN_SECONDS);
    private static final Duration IMMEDIATE_SHUTDOWN = Duration.ofSeconds(5);
    private static final int LOG_TAIL_LINES = 12;

    private final PostgresBinaries binaries;
    private final PostgresSettings settings;
    private final ServerAccount account;
    private final Path workDirectory;
    private final Path dataDirectory;
    private final Path log;
    private final Thread shutdownHook = new Thread(this::closeOnExit, "lab-database-shutdown");

    private volatile Duration initdbTime;
    private volatile Process process;
    private volatile long startedAtNanos;
    private volatile boolean stopRequested;
    private boolean closed;

    private PostgresServer(PostgresBinaries binaries, PostgresSettings settings, ServerAccount account,
                           Path workDirectory) {
        this.binaries = binaries;
        this.settings = settings;
        this.account = account;
        this.workDirectory = workDirectory;
        this.dataDirectory = workDirectory.resolve("data");
        this.log = workDirectory.resolve("postgres.log");
    }

    /** A new server in {@code workDirectory}, as the account {@link ServerAccount#choose()} picks. */
    public static PostgresServer initdb(PostgresBinaries binaries, PostgresSettings settings, Path workDirectory) {
        return initdb(binaries, settings, ServerAccount.choose(), workDirectory);
    }

    /**
     * Makes a new data directory, {@code workDirectory/data}, with initdb: user {@value #USER} with password
     * {@value #PASSWORD}, UTF-8, locale C (sorting and comparing the same on every machine), and no fsync of the new
     * files (the directory lives for one run). From here on a JVM exit removes it.
     */
    public static PostgresServer initdb(PostgresBinaries binaries, PostgresSettings settings, ServerAccount account,
                                        Path workDirectory) {
        Path work = workDirectory.toAbsolutePath().normalize();
        PostgresServer server = new PostgresServer(binaries, settings, account, work);
        Path passwordFile = work.resolve("initdb-password");
        long start = System.nanoTime();
        if (Files.exists(server.dataDirectory)) { // not the lab's, then: left alone
            throw new IllegalStateException("cannot make a PostgreSQL data directory at " + server.dataDirectory
                    + ": it exists already (a data directory is made for one server and removed with it)");
        }
        try {
            Files.createDirectories(work);
            account.makeReachable(work);
            account.makeReachable(binaries.home());
            Files.createDirectory(server.dataDirectory, PosixFilePermissions.asFileAttribute(
                    PosixFilePermissions.fromString("rwx------"))); // PostgreSQL refuses a directory others can read
            Files.writeString(passwordFile, PASSWORD);
            Files.setPosixFilePermissions(passwordFile, PosixFilePermissions.fromString("rw-------"));
            account.own(server.dataDirectory);
            account.own(passwordFile);
        } catch (IOException e) {
            deleteTree(server.dataDirectory);
            deleteQuietly(passwordFile);
            throw new IllegalStateException("cannot prepare PostgreSQL's data directory in " + work + ": " + e, e);
        }
        Runtime.getRuntime().addShutdownHook(server.shutdownHook);
        try {
            List<String> command = new ArrayList<>(account.commandPrefix());
            command.addAll(List.of(binaries.initdb().toString(), "-D", server.dataDirectory.toString(),
                    "-U", USER, "--pwfile=" + passwordFile, "--auth-local=trust", "--auth-host=scram-sha-256",
                    "-E", "UTF8", "--locale=C", "--no-sync", "--no-instructions"));
            Process initdb = server.processBuilder(command).start();
            if (!initdb.waitFor(120, TimeUnit.SECONDS)) {
                initdb.destroyForcibly();
                throw new IllegalStateException("initdb did not finish within 120 s" + server.logTail());
            }
            if (initdb.exitValue() != 0) {
                throw new IllegalStateException("initdb failed (exit code " + initdb.exitValue() + ")"
                        + server.logTail());
            }
            if (settings.listensBeyondLoopback()) {
                // initdb allows loopback only; a container's clients come from its network, with the same password.
                Files.writeString(server.dataDirectory.resolve("pg_hba.conf"),
                        "host all all all scram-sha-256\n", StandardOpenOption.APPEND);
            }
            Files.deleteIfExists(passwordFile);
        } catch (IOException | RuntimeException e) {
            server.close();
            deleteQuietly(passwordFile);
            throw e instanceof IllegalStateException ise ? ise
                    : new IllegalStateException("initdb could not run: " + e + server.logTail(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            server.close();
            deleteQuietly(passwordFile);
            throw new IllegalStateException("interrupted during initdb", e);
        }
        server.initdbTime = Duration.ofNanos(System.nanoTime() - start);
        return server;
    }

    /**
     * The server's command line, for a caller that runs it itself or records it:
     * {@code setsid [setpriv ... --] postgres -D <data> -c name=value ...}, every setting of
     * {@link PostgresSettings#asMap()} on it. {@code setsid} puts the server in a session of its own, so that a
     * terminal's Ctrl-C reaches the lab alone, which then stops the server in order (and a server that exits without
     * being asked has died). {@code setsid} and {@code setpriv} exec the server in their own process: its PID is the
     * one the caller started.
     */
    public List<String> serverCommand() {
        List<String> command = new ArrayList<>(List.of("setsid"));
        command.addAll(account.commandPrefix());
        command.addAll(List.of(binaries.postgres().toString(), "-D", dataDirectory.toString()));
        settings.asMap().forEach((name, value) -> command.addAll(List.of("-c", name + "=" + value)));
        return command;
    }

    /** Starts the server. */
    public Process start() {
        return start(List.of());
    }

    /**
     * Starts the server with {@code prefix} in front of {@link #serverCommand()}: a wrapper that must end by
     * exec'ing its arguments, such as the runner's {@code sh -c 'echo $$ > <group>/cgroup.procs; exec "$@"' sh},
     * which enrols the server into its CPU group before it starts. Its output goes to {@link #log()}.
     *
     * @throws IllegalStateException naming the cause: the port in use (and by whom), or no program to start
     */
    public synchronized Process start(List<String> prefix) {
        if (process != null) {
            throw new IllegalStateException("this PostgreSQL server was started already");
        }
        requirePortFree();
        List<String> command = new ArrayList<>(prefix);
        command.addAll(serverCommand());
        startedAtNanos = System.nanoTime();
        try {
            process = processBuilder(command).start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot start PostgreSQL (" + String.join(" ", command) + "): " + e, e);
        }
        return process;
    }

    /**
     * Waits until the server answers a query ({@code SELECT 1} over JDBC, pg_isready's equivalent and a little more),
     * makes the lab's database ({@value #DATABASE}) on a new data directory's first start, and returns how long it all
     * took from {@link #start()} (or from this call, for a server started by the caller).
     *
     * @throws IllegalStateException with its log's last lines when the server exits meanwhile (a port taken by then
     *                               is named as such) or is not ready in time
     */
    public Duration awaitReady(Duration timeout) {
        long since = process != null ? startedAtNanos : System.nanoTime();
        long deadline = System.nanoTime() + timeout.toNanos();
        SQLException last = null;
        while (true) {
            if (process != null && !process.isAlive()) {
                throw new IllegalStateException(exitedDuringStart());
            }
            try (Connection connection = connect(MAINTENANCE_DATABASE);
                 Statement statement = connection.createStatement()) {
                statement.executeQuery("SELECT 1").close();
                createLabDatabase(statement);
                return Duration.ofNanos(System.nanoTime() - since);
            } catch (SQLException e) {
                last = e; // refused until it listens, then "the database system is starting up"
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("PostgreSQL on port " + settings.port() + " was not ready within "
                        + timeout.toSeconds() + " s (last answer: " + last.getMessage() + ")" + logTail());
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for PostgreSQL", e);
            }
        }
    }

    /**
     * Checks that the server still runs, as the runner does at the edges of its windows.
     *
     * @throws IllegalStateException saying that the database died mid-run, how, and the last lines of its log
     */
    public void ensureRunning() {
        if (postmaster().filter(ProcessHandle::isAlive).isEmpty()) {
            throw new IllegalStateException(diedMessage());
        }
    }

    /**
     * Calls {@code reaction} with a message like {@link #ensureRunning()}'s if the server exits without
     * {@link #stop()} having been asked, for a caller that waits on nothing else (the {@code serve} command).
     */
    public void whenDiedMidRun(Consumer<String> reaction) {
        ProcessHandle postmaster = postmaster().orElseThrow(() -> new IllegalStateException(diedMessage()));
        CompletableFuture<?> exit = process != null ? process.onExit() : postmaster.onExit(); // the first knows how
        exit.thenRun(() -> {
            if (!stopRequested) {
                reaction.accept(diedMessage());
            }
        });
    }

    /**
     * Stops the server, fast: SIGINT to the postmaster (PostgreSQL's "fast shutdown": sessions ended, one checkpoint),
     * then SIGQUIT ("immediate") if it has not ended within {@value #FAST_SHUTDOWN_SECONDS} s, then SIGKILL to every
     * process of the data directory; and checks that none is left, orphans of a dead postmaster included.
     *
     * @throws IllegalStateException naming the processes that survived all of it
     */
    public synchronized void stop() {
        stopRequested = true;
        Optional<ProcessHandle> postmaster = postmaster().filter(ProcessHandle::isAlive);
        if (postmaster.isPresent()) {
            ServerProcesses.signal(postmaster.get().pid(), "INT");
            if (!ended(FAST_SHUTDOWN)) {
                ServerProcesses.signal(postmaster.get().pid(), "QUIT");
                ended(IMMEDIATE_SHUTDOWN);
            }
        }
        // A postmaster that died (or would not stop) leaves its children to end by themselves: make sure they do.
        ServerProcesses.in(dataDirectory).forEach(ProcessHandle::destroyForcibly);
        if (!ended(IMMEDIATE_SHUTDOWN)) {
            throw new IllegalStateException("PostgreSQL processes of " + dataDirectory + " are still running after "
                    + "SIGINT, SIGQUIT and SIGKILL: pids " + ServerProcesses.in(dataDirectory).stream()
                    .map(p -> String.valueOf(p.pid())).toList());
        }
        if (process != null) {
            try {
                process.waitFor(IMMEDIATE_SHUTDOWN.toSeconds(), TimeUnit.SECONDS); // reaped: no zombie either
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Stops the server and removes its data directory; the log stays. Once: later calls (the hook's) return. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            stop();
        } finally {
            deleteTree(dataDirectory);
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException alreadyExiting) {
                // the hook is running this very close
            }
        }
    }

    private void closeOnExit() {
        try {
            close();
        } catch (RuntimeException e) {
            System.err.println("lab-database: " + e.getMessage());
        }
    }

    /** Made by initdb: where the lab connects until its own database exists. */
    private static final String MAINTENANCE_DATABASE = "postgres";

    /** On the first start of a new data directory, the lab's database; later starts find it. */
    private static void createLabDatabase(Statement statement) throws SQLException {
        try (ResultSet exists = statement.executeQuery("SELECT 1 FROM pg_database WHERE datname = '" + DATABASE + "'")) {
            if (exists.next()) {
                return;
            }
        }
        statement.execute("CREATE DATABASE " + DATABASE);
    }

    /** A new connection to the lab's database, as {@value #USER}. */
    public Connection connect() throws SQLException {
        return connect(DATABASE);
    }

    private Connection connect(String database) throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("user", USER);
        properties.setProperty("password", PASSWORD);
        properties.setProperty("connectTimeout", "5");
        properties.setProperty("ApplicationName", "lab-database");
        return DriverManager.getConnection(jdbcUrl(database), properties);
    }

    /** What the server says its settings are ({@code current_setting} of each of {@link PostgresSettings#asMap()}). */
    public Map<String, String> settingsInForce() throws SQLException {
        Map<String, String> inForce = new LinkedHashMap<>();
        try (Connection connection = connect();
             var query = connection.prepareStatement("SELECT current_setting(?)")) {
            for (String name : settings.asMap().keySet()) {
                query.setString(1, name);
                try (ResultSet rs = query.executeQuery()) {
                    rs.next();
                    inForce.put(name, rs.getString(1));
                }
            }
        }
        return inForce;
    }

    public String jdbcUrl() {
        return jdbcUrl(DATABASE);
    }

    private String jdbcUrl(String database) {
        return "jdbc:postgresql://" + clientHost() + ":" + settings.port() + "/" + database;
    }

    /** The URL of Quarkus' reactive (Vert.x) client: {@code quarkus.datasource.reactive.url}. */
    public String reactiveUrl() {
        return "postgresql://" + clientHost() + ":" + settings.port() + "/" + DATABASE;
    }

    public PostgresSettings settings() {
        return settings;
    }

    public PostgresBinaries binaries() {
        return binaries;
    }

    public ServerAccount account() {
        return account;
    }

    public Path dataDirectory() {
        return dataDirectory;
    }

    /** The server's and initdb's output. */
    public Path log() {
        return log;
    }

    public Duration initdbTime() {
        return initdbTime;
    }

    /** The postmaster: the process started here, else the one its data directory's postmaster.pid names. */
    public Optional<ProcessHandle> postmaster() {
        if (process != null) {
            return Optional.of(process.toHandle());
        }
        try {
            String pid = Files.readAllLines(dataDirectory.resolve("postmaster.pid")).getFirst().trim();
            return ProcessHandle.of(Long.parseLong(pid));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private String clientHost() {
        String first = settings.listenAddresses().split(",")[0];
        return first.equals("*") || first.equals("0.0.0.0") ? "127.0.0.1" : first;
    }

    private ProcessBuilder processBuilder(List<String> command) {
        ProcessBuilder builder = new ProcessBuilder(command).directory(workDirectory.toFile()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        // The server reads PGDATA, PGPORT and the like; the lab's command line is the whole truth.
        builder.environment().keySet().removeIf(name -> name.startsWith("PG"));
        builder.environment().put("LC_ALL", "C");
        return builder;
    }

    private void requirePortFree() {
        String address = settings.listensBeyondLoopback() ? "0.0.0.0" : clientHost();
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true); // as PostgreSQL binds: a closed connection's TIME_WAIT does not count
            socket.bind(new InetSocketAddress(address, settings.port()));
        } catch (IOException e) {
            throw new IllegalStateException(portInUse(address));
        }
    }

    private String portInUse(String address) {
        return "port " + settings.port() + " on " + address + " is already in use" + portHolder()
                + ": PostgreSQL cannot listen there. Stop that process, or choose another port (--port)";
    }

    private String portHolder() {
        try {
            Process ss = new ProcessBuilder("ss", "-ltnpH", "sport = :" + settings.port()).redirectErrorStream(true)
                    .start();
            String out = new String(ss.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            ss.waitFor(5, TimeUnit.SECONDS);
            int users = out.indexOf("users:");
            return users >= 0 ? " by " + out.substring(users) : "";
        } catch (IOException e) {
            return ""; // no ss here: the port alone must do
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    private String exitedDuringStart() {
        String log = readLog();
        if (log.contains("Address already in use") || log.contains("could not create any TCP/IP sockets")) {
            return portInUse(settings.listenAddresses()) + logTail();
        }
        return "PostgreSQL exited while starting (" + exitOf(process) + ")" + logTail();
    }

    private String diedMessage() {
        String pid = process != null ? " (pid " + process.pid() + ", " + exitOf(process) + ")" : "";
        return "the database died mid-run: PostgreSQL" + pid + " on port " + settings.port() + " is no longer running,"
                + " so nothing measured since it was last seen running can be trusted" + logTail();
    }

    private static String exitOf(Process process) {
        if (process == null || process.isAlive()) {
            return "still running";
        }
        int code = process.exitValue();
        // Java reports a death by signal as 128 + the signal's number.
        return code > 128 ? "killed by signal " + (code - 128) + signalName(code - 128) : "exit code " + code;
    }

    private static String signalName(int signal) {
        return switch (signal) {
            case 2 -> " (SIGINT)";
            case 3 -> " (SIGQUIT)";
            case 6 -> " (SIGABRT)";
            case 9 -> " (SIGKILL, as the kernel's out-of-memory killer or a kill -9 sends)";
            case 11 -> " (SIGSEGV)";
            case 15 -> " (SIGTERM)";
            default -> "";
        };
    }

    private String logTail() {
        List<String> lines = readLog().lines().toList();
        if (lines.isEmpty()) {
            return "";
        }
        return ". Last lines of " + log + ":\n  " + String.join("\n  ",
                lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size()));
    }

    private String readLog() {
        try {
            return Files.readString(log, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return "";
        } catch (IOException e) {
            return "(log unreadable: " + e + ")";
        }
    }

    private boolean ended(Duration within) {
        long deadline = System.nanoTime() + within.toNanos();
        while (System.nanoTime() < deadline) {
            if (postmaster().filter(ProcessHandle::isAlive).isEmpty() && ServerProcesses.in(dataDirectory).isEmpty()) {
                return true;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return false;
    }

    private static void deleteTree(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> tree = Files.walk(root)) {
            tree.sorted(Comparator.reverseOrder()).forEach(PostgresServer::deleteQuietly);
        } catch (IOException e) {
            throw new IllegalStateException("cannot remove PostgreSQL's data directory " + root + ": " + e, e);
        }
        if (Files.exists(root)) {
            throw new IllegalStateException("cannot remove PostgreSQL's data directory " + root + ": something in it "
                    + "would not be deleted");
        }
    }

    private static void deleteQuietly(Path path) {
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            // reported by the walk's caller if the tree is still there
        }
    }
}
