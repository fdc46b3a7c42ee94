package io.threadlab.experiment.start;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** One running service JVM: started with its output in a log file, ready when its health check says so. */
public final class ServiceProcess implements AutoCloseable {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final String name;
    private final int port;
    private final Path log;
    private final Process process;

    private ServiceProcess(String name, int port, Path log, Process process) {
        this.name = name;
        this.port = port;
        this.log = log;
        this.process = process;
    }

    public static ServiceProcess start(String name, int port, List<String> command, Path log) {
        PortCheck.requireFree(port, name);
        try {
            Files.createDirectories(log.getParent());
            Process process = Processes.track(new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start());
            return new ServiceProcess(name, port, log, process);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name + ": " + e.getMessage(), e);
        }
    }

    /** Waits for {@code /q/health/ready}; on death or timeout, fails with the tail of the service's log. */
    public void awaitReady(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " exited with code " + process.exitValue()
                        + " while starting. Last lines of " + log + ":\n" + logTail(30));
            }
            try {
                HttpResponse<Void> health = HTTP.send(HttpRequest.newBuilder(uri("/q/health/ready"))
                        .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.discarding());
                if (health.statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + name);
            }
            sleep(200);
        }
        throw new IllegalStateException(name + " was not ready within " + timeout.toSeconds() + " s. Last lines of "
                + log + ":\n" + logTail(30));
    }

    public String get(String path) {
        try {
            HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(uri(path))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException(name + " answered " + response.statusCode() + " to " + path);
            }
            return response.body();
        } catch (IOException e) {
            throw new UncheckedIOException(name + " did not answer " + path + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while asking " + name + " for " + path);
        }
    }

    public URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    public String name() {
        return name;
    }

    public Path log() {
        return log;
    }

    public String logTail(int lines) {
        try {
            List<String> all = Files.readAllLines(log);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    /** SIGTERM, so Quarkus shuts down cleanly; SIGKILL if it has not gone after 15 s. */
    @Override
    public void close() {
        Processes.stop(process, Duration.ofSeconds(15));
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static boolean waitFor(Process process, Duration timeout) {
        try {
            return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
