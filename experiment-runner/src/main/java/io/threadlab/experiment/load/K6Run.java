package io.threadlab.experiment.load;

import io.threadlab.experiment.confine.CpuReading;
import io.threadlab.experiment.process.ComposeCli;
import io.threadlab.experiment.process.InheritedOptions;
import io.threadlab.experiment.process.Processes;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** One k6 running one of the lab's scripts, wherever its host runs it; its console output goes to a log file. */
public final class K6Run implements AutoCloseable {

    private final Process process;
    private final K6Host host;
    private final String name;
    private final Path summary;
    private final Path log;

    private K6Run(Process process, K6Host host, String name, Path summary, Path log) {
        this.process = process;
        this.host = host;
        this.name = name;
        this.summary = summary;
        this.log = log;
    }

    /**
     * @param name    the load's name: its summary is {@code name.json} and its log {@code name.log} in {@code out}
     * @param apiPort where k6's REST API listens (0: the API is off)
     */
    static K6Run start(K6Host host, String script, Map<String, String> env, Path out, String name, int apiPort) {
        Path summary = out.resolve(name + ".json");
        Path log = out.resolve(name + ".log");
        List<String> args = new ArrayList<>(List.of("run", "--quiet", "--no-color"));
        if (apiPort > 0) {
            args.add("--address=" + host.apiBind() + ":" + apiPort); // k6 v2 has its API off unless asked; v1 on 6565
        }
        args.add(host.script(script));
        env.forEach((k, v) -> args.addAll(List.of("-e", k + "=" + v)));
        args.addAll(List.of("-e", "SUMMARY_PATH=" + host.summary(name, summary)));
        try {
            ProcessBuilder builder = new ProcessBuilder(host.command(name, args)).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
            InheritedOptions.remove(builder.environment());
            builder.environment().put("K6_NO_USAGE_REPORT", "true"); // no phoning home from the lab
            ComposeCli.reach(builder, host.environment());
            return new K6Run(Processes.track(builder.start()), host, name, summary, log);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start k6: " + e.getMessage(), e);
        }
    }

    /** k6's CPU counters now, wherever it runs. */
    CpuReading cpu() {
        return host.cpu(name, process.pid());
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
                close();
                throw new IOException("k6 did not finish within " + timeout.toSeconds() + " s; see " + log);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while k6 ran");
        }
        host.collect(name, summary);
        host.remove(name);
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
        host.collect(name, summary);
        host.remove(name);
    }

    /** The exit status, or -1 while k6 runs. */
    int exitValue() {
        return process.isAlive() ? -1 : process.exitValue();
    }

    @Override
    public void close() {
        Processes.stop(process, Duration.ofSeconds(10));
        host.remove(name);
    }

    public Path log() {
        return log;
    }
}
