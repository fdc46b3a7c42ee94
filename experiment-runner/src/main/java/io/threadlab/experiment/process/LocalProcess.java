package io.threadlab.experiment.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** A service JVM started on this machine, its output in a log file. */
public final class LocalProcess extends ServiceProcess {

    private final Path log;
    private final Process process;

    private LocalProcess(String name, int port, Path log, Process process) {
        super(name, port);
        this.log = log;
        this.process = process;
    }

    public static LocalProcess start(String name, int port, List<String> command, Path log) {
        PortCheck.requireFree(port, name);
        try {
            Files.createDirectories(log.getParent());
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
            InheritedOptions.remove(builder.environment());
            Process process = Processes.track(builder.start());
            return new LocalProcess(name, port, log, process);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name + ": " + e.getMessage(), e);
        }
    }

    @Override
    public long pid() {
        return process.pid();
    }

    @Override
    public boolean isAlive() {
        return process.isAlive();
    }

    @Override
    protected String howItEnded() {
        return "exited with code " + process.exitValue();
    }

    @Override
    public String logTail(int lines) {
        return tail(log, lines);
    }

    @Override
    public String logLocation() {
        return log.toString();
    }

    /** SIGTERM; SIGKILL if it has not gone after 15 s. */
    @Override
    public void close() {
        Processes.stop(process, Duration.ofSeconds(15));
    }
}
