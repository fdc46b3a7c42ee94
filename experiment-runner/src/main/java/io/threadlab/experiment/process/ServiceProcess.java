package io.threadlab.experiment.process;

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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * One running service: started by an engine (a local JVM, or a container), ready when its health check says so,
 * and reached over HTTP on its loopback port either way.
 */
public abstract class ServiceProcess implements AutoCloseable {

    /**
     * HTTP/1.1, as curl speaks it. The JDK client's default, HTTP/2, offers every plain-http request an h2c upgrade,
     * which Vert.x accepts; the runner's reads of a service's /q/metrics (tens of KB) then stalled after the headers
     * now and then (a map's warm-up parked 15 minutes there while curl got the URL in 21 ms; a fan-out run failed on
     * the same read at 700 users, 2026-11-26), as other projects saw the JDK client's h2c path do on large bodies
     * from Vert.x (fabric8io/kubernetes-client#7662). Nothing the runner asks needs HTTP/2.
     */
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();

    private final String name;
    private final int port;
    private final String host;

    protected ServiceProcess(String name, int port) {
        this(name, port, "127.0.0.1");
    }

    /** @param host where the service's port is reached from this machine */
    protected ServiceProcess(String name, int port, String host) {
        this.name = name;
        this.port = port;
        this.host = host;
    }

    /** The JVM's process id as this machine sees it (for /proc and cgroups); -1 when it runs elsewhere. */
    public abstract long pid();

    /** Its threads' scheduler counters, by group; empty once it has ended. */
    public ThreadGroupTimes threadTimes() {
        return ThreadGroupTimes.of(pid());
    }

    /** Its resident memory and OS threads. */
    public ProcessStats processStats() {
        return ProcessStats.of(pid());
    }

    public abstract boolean isAlive();

    /** Why the service is not running, for messages. */
    protected abstract String howItEnded();

    public abstract String logTail(int lines);

    /** Where its full log is. */
    public abstract String logLocation();

    /** Stops the service: SIGTERM, so Quarkus shuts down cleanly; harder if it does not go. */
    @Override
    public abstract void close();

    /** Waits for {@code /q/health/ready}; on death or timeout, fails with the tail of the service's log. */
    public void awaitReady(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!isAlive()) {
                throw new IllegalStateException(name + " " + howItEnded() + " while starting. Last lines of "
                        + logLocation() + ":\n" + logTail(30));
            }
            try {
                if (Exchange.send(HTTP, HttpRequest.newBuilder(uri("/q/health/ready")).build(),
                        HttpResponse.BodyHandlers.discarding(), Duration.ofSeconds(2)).statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet, or not answering in time
            }
            sleep(200);
        }
        throw new IllegalStateException(name + " was not ready within " + timeout.toSeconds() + " s. Last lines of "
                + logLocation() + ":\n" + logTail(30));
    }

    public String get(String path) {
        return get(path, Duration.ofSeconds(10));
    }

    /** A GET that may wait its turn behind a deliberate load, for as long as {@code timeout}, body included. */
    public String get(String path, Duration timeout) {
        return send(HttpRequest.newBuilder(uri(path)).build(), path, timeout);
    }

    /** A PUT without a body, for a service's controls (the delay service's default wait). */
    public String put(String path) {
        return send(HttpRequest.newBuilder(uri(path)).PUT(HttpRequest.BodyPublishers.noBody()).build(), path,
                Duration.ofSeconds(10));
    }

    private String send(HttpRequest request, String path, Duration timeout) {
        try {
            HttpResponse<String> response = Exchange.send(HTTP, request, HttpResponse.BodyHandlers.ofString(),
                    timeout);
            if (response.statusCode() != 200) {
                throw new IllegalStateException(name + " answered " + response.statusCode() + " to "
                        + request.method() + " " + path + ": " + response.body());
            }
            return response.body();
        } catch (IOException e) {
            if (!isAlive()) {
                throw new IllegalStateException(name + " " + howItEnded() + ". Last lines of " + logLocation()
                        + ":\n" + logTail(30), e);
            }
            throw new ServiceUnresponsive(name + " did not answer " + request.method() + " " + path + ": "
                    + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()), e);
        }
    }

    /**
     * Like {@link #get}, but for readings that may not fail a run: a service saturated on purpose (or queueing its
     * metrics endpoint behind hundreds of requests on 0.5 CPU) may answer late or not at all.
     */
    public java.util.Optional<String> tryGet(String path, Duration timeout) {
        try {
            HttpResponse<String> response = Exchange.send(HTTP, HttpRequest.newBuilder(uri(path)).build(),
                    HttpResponse.BodyHandlers.ofString(), timeout);
            return response.statusCode() == 200 ? java.util.Optional.of(response.body()) : java.util.Optional.empty();
        } catch (IOException e) {
            return java.util.Optional.empty();
        }
    }

    /**
     * A GET made and not waited for: true when the whole answer was 200 within {@code timeout}, false otherwise (late,
     * refused, another status). For requests made for their effect on the service, not for their answer.
     */
    public CompletableFuture<Boolean> getInBackground(String path, Duration timeout) {
        return Exchange.sendInBackground(HTTP, HttpRequest.newBuilder(uri(path)).build(),
                        HttpResponse.BodyHandlers.discarding(), timeout)
                .handle((response, failure) -> failure == null && response.statusCode() == 200);
    }

    public URI uri(String path) {
        return URI.create("http://" + host + ":" + port + path);
    }

    /** Where its port is reached from this machine. */
    public String host() {
        return host;
    }

    public String name() {
        return name;
    }

    static String tail(Path log, int lines) {
        try {
            List<String> all = Files.readAllLines(log);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    static void sleep(long ms) {
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
