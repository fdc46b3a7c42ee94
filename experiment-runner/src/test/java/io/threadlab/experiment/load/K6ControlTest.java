package io.threadlab.experiment.load;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** k6's API, as a stand-in server that is slow to answer: a read that runs out of its deadline is made again. */
class K6ControlTest {

    private static final String METRICS = """
            {"data":[{"id":"lab_sent","attributes":{"type":"counter","sample":{"count":42}}}]}""";

    private HttpServer server;

    /** A server whose first {@code slow} answers to /v1/metrics come after 2 s. */
    private K6Control k6(int slow, AtomicInteger asked) throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/v1/metrics", exchange -> {
            if (asked.incrementAndGet() <= slow) {
                try {
                    Thread.sleep(2000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            byte[] body = METRICS.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            } catch (IOException e) {
                // the client gave up on this one
            }
        });
        server.start();
        return new K6Control("127.0.0.1", server.getAddress().getPort(), Duration.ofMillis(300));
    }

    @Test
    void aLoadsOwnCountersAreReadOneByOneWithoutEveryMetricAndAnUnobservedOneIsAbsent() throws IOException {
        AtomicInteger everything = new AtomicInteger();
        List<String> asked = new java.util.concurrent.CopyOnWriteArrayList<>();
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/v1/metrics", exchange -> {
            String path = exchange.getRequestURI().getPath();
            String id = path.substring("/v1/metrics".length()).replaceFirst("^/", "");
            if (id.isEmpty()) {
                everything.incrementAndGet();
            }
            asked.add(id);
            boolean observed = id.equals("lab_sent") || id.equals("lab_done");
            byte[] body = (observed ? "{\"data\":{\"id\":\"" + id + "\",\"attributes\":{\"type\":\"counter\","
                    + "\"sample\":{\"count\":" + (id.equals("lab_sent") ? 42 : 40) + "}}}}"
                    : "{\"errors\":[{\"status\":\"404\"}]}").getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(observed ? 200 : 404, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        K6Control control = new K6Control("127.0.0.1", server.getAddress().getPort());
        assertThat(control.counters(List.of("lab_done", "lab_sent", "lab_error_timeout")))
                .containsExactly(Map.entry("lab_done", 40.0), Map.entry("lab_sent", 42.0));
        assertThat(asked).containsExactly("lab_done", "lab_sent", "lab_error_timeout");
        assertThat(everything).hasValue(0);
    }

    /**
     * A steady load of 5 users whose requests go on while its counters are read one by one: between two reads 10 more
     * are sent and 10 more answered. Sent read first can only under-count the 5 in flight; completed first, over-count.
     */
    @Test
    void theOrderOfTheOneByOneReadsBoundsTheRequestsInFlight() throws IOException {
        AtomicInteger reads = new AtomicInteger();
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/v1/metrics", exchange -> {
            String id = exchange.getRequestURI().getPath().substring("/v1/metrics/".length());
            long answered = 10L * reads.getAndIncrement();
            long count = switch (id) {
                case "lab_sent" -> answered + 5;
                case "lab_done" -> answered;
                default -> 0;
            };
            byte[] body = ("{\"data\":{\"id\":\"" + id + "\",\"attributes\":{\"type\":\"counter\","
                    + "\"sample\":{\"count\":" + count + "}}}}").getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        K6Control control = new K6Control("127.0.0.1", server.getAddress().getPort());
        assertThat(LoadCounters.of(0, control.counters(LoadCounters.IN_FLIGHT_AT_LEAST)).inFlight()).isBetween(0L, 5L);
        assertThat(LoadCounters.of(0, control.counters(LoadCounters.IN_FLIGHT_AT_MOST)).inFlight())
                .isGreaterThanOrEqualTo(5L);
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    @Test
    void aReadThatTimesOutIsMadeAgainAndTheNextAnswerCounts() throws IOException {
        AtomicInteger asked = new AtomicInteger();
        assertThat(k6(K6Control.ATTEMPTS - 1, asked).counters()).containsEntry("lab_sent", 42.0);
        assertThat(asked).hasValue(K6Control.ATTEMPTS);
    }

    @Test
    void k6ThatNeverAnswersInTimeFailsTheReadAfterItsAttempts() throws IOException {
        AtomicInteger asked = new AtomicInteger();
        K6Control control = k6(Integer.MAX_VALUE, asked);
        assertThatThrownBy(control::counters).isInstanceOf(HttpTimeoutException.class)
                .hasMessageContaining("no whole answer from k6 in " + K6Control.ATTEMPTS + " tries of 300 ms each");
        assertThat(asked).hasValue(K6Control.ATTEMPTS);
    }
}
