package io.threadlab.experiment.start;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A service in a compose-managed container. Its JVM is the container's PID 1 (exec-form entrypoint), whose host PID
 * gives /proc and the container's cgroup.
 */
final class ContainerService extends ServiceProcess {

    private final ComposeCli compose;
    private final long pid;
    private final Path log;

    ContainerService(String name, int port, ComposeCli compose, long pid, Path log) {
        super(name, port);
        this.compose = compose;
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
        return "stopped (its container exited)";
    }

    @Override
    public String logTail(int lines) {
        try {
            return compose.run(Duration.ofSeconds(30), "logs", "--no-color", "--tail", String.valueOf(lines), name());
        } catch (IllegalStateException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    @Override
    public String logLocation() {
        return log + " (docker compose logs " + name() + ")";
    }

    /** Keeps the container's log, then stops it (SIGTERM to the JVM, which is PID 1). */
    @Override
    public void close() {
        try {
            Files.writeString(log, compose.run(Duration.ofSeconds(60), "logs", "--no-color", name()));
        } catch (Exception e) {
            // the log is a convenience; stopping is what matters
        }
        compose.run(Duration.ofSeconds(60), "stop", name());
    }
}
