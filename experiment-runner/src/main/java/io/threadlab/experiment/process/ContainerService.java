package io.threadlab.experiment.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A service in a compose-managed container. Its JVM is the container's PID 1 (exec-form entrypoint), whose host PID
 * gives /proc and the container's cgroup.
 */
public final class ContainerService extends ServiceProcess {

    /** compose.yaml's stop_grace_period: Quarkus shuts down and JFR dumps within it. */
    private static final int STOP_SECONDS = 30;

    private final ComposeCli compose;
    private final String container;
    private final long pid;
    private final Path log;

    public ContainerService(String name, int port, ComposeCli compose, String container, long pid, Path log) {
        super(name, port);
        this.compose = compose;
        this.container = container;
        this.pid = pid;
        this.log = log;
    }

    @Override
    public long pid() {
        return pid;
    }

    @Override
    public boolean isAlive() {
        return Files.exists(Path.of("/proc", String.valueOf(pid)));
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
