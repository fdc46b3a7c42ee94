package io.threadlab.experiment.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A service in a compose-managed container. Its JVM is the container's PID 1 (exec-form entrypoint). On this
 * machine's engine its host PID gives /proc and the container's cgroup; on another engine ({@link #elsewhere}) the
 * same files are read inside the container, through the engine.
 */
public final class ContainerService extends ServiceProcess {

    /** compose.yaml's stop_grace_period: Quarkus shuts down and JFR dumps within it. */
    private static final int STOP_SECONDS = 30;

    private static final Duration EXEC = Duration.ofSeconds(30);
    /** How long a remote container's "running" stands: each answer costs a round trip to the engine. */
    private static final long ALIVE_FOR_NANOS = 1_000_000_000L;

    private final ComposeCli compose;
    private final String container;
    private final long pid;
    private final Path log;
    private long aliveAt;

    /** A container of this machine's engine, its JVM's host PID {@code pid}. */
    public ContainerService(String name, int port, ComposeCli compose, String container, long pid, Path log) {
        super(name, port);
        this.compose = compose;
        this.container = container;
        this.pid = pid;
        this.log = log;
    }

    private ContainerService(String name, int port, String host, ComposeCli compose, String container, Path log) {
        super(name, port, host);
        this.compose = compose;
        this.container = container;
        this.pid = -1;
        this.log = log;
    }

    /** A container of another engine, its port published on {@code host}. */
    public static ContainerService elsewhere(String name, int port, String host, ComposeCli compose, String container,
                                             Path log) {
        return new ContainerService(name, port, host, compose, container, log);
    }

    @Override
    public long pid() {
        return pid;
    }

    @Override
    public synchronized boolean isAlive() {
        if (pid > 0) {
            return Files.exists(Path.of("/proc", String.valueOf(pid)));
        }
        if (aliveAt != 0 && System.nanoTime() - aliveAt < ALIVE_FOR_NANOS) {
            return true;
        }
        try {
            boolean running = compose.docker(EXEC, "inspect", "--format", "{{.State.Running}}", container).strip()
                    .equals("true");
            aliveAt = running ? System.nanoTime() : 0;
            return running;
        } catch (IllegalStateException e) {
            return false;
        }
    }

    @Override
    public ThreadGroupTimes threadTimes() {
        if (pid > 0) {
            return super.threadTimes();
        }
        try {
            return ThreadGroupTimes.fromDump(compose.docker(EXEC, "exec", container, "sh", "-c",
                    ThreadGroupTimes.DUMP));
        } catch (IllegalStateException e) {
            return new ThreadGroupTimes(java.util.Map.of()); // ended, as a local process that ended reads
        }
    }

    @Override
    public ProcessStats processStats() {
        if (pid > 0) {
            return super.processStats();
        }
        try {
            return ProcessStats.parse(compose.docker(EXEC, "exec", container, "cat", "/proc/1/status"));
        } catch (IllegalStateException e) {
            return ProcessStats.parse("");
        }
    }

    /** The container's id. */
    public String container() {
        return container;
    }

    @Override
    protected String howItEnded() {
        return "stopped (its container " + shortId() + " exited)";
    }

    @Override
    public String logTail(int lines) {
        try {
            return compose.docker(Duration.ofSeconds(30), "logs", "--tail", String.valueOf(lines), container);
        } catch (IllegalStateException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    @Override
    public String logLocation() {
        return log + " (docker logs " + shortId() + ")";
    }

    /**
     * Stops the container (SIGTERM to the JVM, which is PID 1), then keeps its whole log, shutdown included. The
     * engine removes the container afterwards.
     */
    @Override
    public void close() {
        try {
            compose.docker(Duration.ofSeconds(STOP_SECONDS + 30), "stop", "--time", String.valueOf(STOP_SECONDS),
                    container);
        } finally {
            try {
                Files.createDirectories(log.getParent());
                Files.writeString(log, compose.docker(Duration.ofSeconds(60), "logs", container));
            } catch (IOException | RuntimeException e) {
                System.err.println("WARNING: could not keep the log of " + name() + " in " + log + ": " + e.getMessage());
            }
        }
    }

    private String shortId() {
        return container.substring(0, Math.min(12, container.length()));
    }
}
