package io.threadlab.experiment.load;

import io.threadlab.experiment.process.Processes;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** One k6 process running one of the lab's scripts; its console output goes to a log file. */
public final class K6Run implements AutoCloseable {

    private final Process process;
    private final Path summary;
    private final Path log;

    private K6Run(Process process, Path summary, Path log) {
        this.process = process;
        this.summary = summary;
        this.log = log;
    }

    /**
     * @param wrapper prefix that puts k6 in its own accounted group (empty for none), so its CPU can be measured
     */
    public static K6Run start(K6 k6, List<String> wrapper, Path script, Map<String, String> env, Path summary, Path log) {
        return start(k6, wrapper, script, env, summary, log, 0);
    }

    /** @param apiPort where k6's REST API listens on loopback (0: the API is off) */
    static K6Run start(K6 k6, List<String> wrapper, Path script, Map<String, String> env, Path summary, Path log,
                       int apiPort) {
        List<String> command = new ArrayList<>(wrapper);
        command.addAll(List.of(k6.executable().toString(), "run", "--quiet", "--no-color"));
        if (apiPort > 0) {
            command.add("--address=127.0.0.1:" + apiPort); // k6 v2 has its API off unless asked; v1 on 6565
        }
        command.add(script.toString());
        env.forEach((k, v) -> command.addAll(List.of("-e", k + "=" + v)));
        command.addAll(List.of("-e", "SUMMARY_PATH=" + summary.toAbsolutePath()));
        try {
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
            builder.environment().put("K6_NO_USAGE_REPORT", "true"); // no phoning home from the lab
            return new K6Run(Processes.track(builder.start()), summary, log);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start k6: " + e.getMessage(), e);
        }
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /**
     * Waits for k6 to finish and reads its summary. k6 exits 99 when a threshold failed: that is a finding, the
     * numbers still count. Any other non-zero exit without a summary is an error.
     */
    public K6Summary finish(Duration timeout) throws IOException {
        try {
            if (!process.waitFor(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)) {
                Processes.stop(process, Duration.ofSeconds(10));
                throw new IOException("k6 did not finish within " + timeout.toSeconds() + " s; see " + log);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while k6 ran");
        }
        try {
            return K6Summary.read(summary);
        } catch (IOException e) {
            throw new IOException("k6 exited with " + process.exitValue() + " and no summary; see " + log, e);
        }
    }

    /** Waits for k6 to exit by itself; stops it if it has not within {@code timeout}. */
    void awaitExit(Duration timeout) {
        try {
            if (!process.waitFor(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)) {
                Processes.stop(process, Duration.ofSeconds(10));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            Processes.stop(process, Duration.ofSeconds(10));
        }
    }

    /** The exit status, or -1 while k6 runs. */
    int exitValue() {
        return process.isAlive() ? -1 : process.exitValue();
    }

    @Override
    public void close() {
        Processes.stop(process, Duration.ofSeconds(10));
    }

    public Path log() {
        return log;
    }
}
