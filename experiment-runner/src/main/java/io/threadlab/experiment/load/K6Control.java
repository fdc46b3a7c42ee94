package io.threadlab.experiment.load;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.threadlab.experiment.process.Exchange;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * k6's REST API ({@code k6 run --address}), on loopback: the counters of a running test, and pause and stop. Pausing
 * lets every iteration in flight finish and starts no new one, so a load can be ended without aborting a request.
 */
final class K6Control {

    private static final ObjectMapper JSON = new ObjectMapper();
    /**
     * k6 answers its API from a goroutine of its own, mostly in milliseconds. Not always: at 3,000 users beside a JVM
     * boosted to both cores for its warm-up, one read got no answer within 10 s and ended a map. Each call has this
     * deadline, and a call that runs out of it is made again, up to {@link #ATTEMPTS} times in all: k6 starved of CPU
     * for a while is not k6 gone.
     */
    static final Duration DEADLINE = Duration.ofSeconds(10);
    static final int ATTEMPTS = 3;

    private final URI base;
    private final Duration deadline;
    /** HTTP/1.1, as every client of the runner's speaks it (see ServiceProcess: no h2c upgrade). */
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();

    K6Control(String address, int port) {
        this(address, port, DEADLINE);
    }

    K6Control(String address, int port, Duration deadline) {
        this.base = URI.create("http://" + (address.contains(":") ? "[" + address + "]" : address) + ":" + port);
        this.deadline = deadline;
    }

    /** Every counter's cumulative value by name, or empty while k6 is not yet listening. */
    Map<String, Double> counters() throws IOException {
        JsonNode data = get("/v1/metrics").path("data");
        Map<String, Double> values = new LinkedHashMap<>();
        for (JsonNode metric : data) {
            JsonNode attributes = metric.path("attributes");
            if ("counter".equals(attributes.path("type").asText())) {
                values.put(metric.path("id").asText(), attributes.path("sample").path("count").asDouble(0));
            }
        }
        return values;
    }

    /**
     * These counters' cumulative values, each read on its own ({@code /v1/metrics/{id}}), in the order given; a counter
     * k6 has not observed yet is absent. Reading every metric at once ({@link #counters()}) makes k6 format each of its
     * own latency trends over every request since the load began: behind a warm-up at 3,000 users, after about 195 s
     * and 585,000 requests, that read got no whole answer in three tries of 10 s, twice, and cost a map its JVM.
     */
    Map<String, Double> counters(List<String> ids) throws IOException {
        Map<String, Double> values = new LinkedHashMap<>();
        for (String id : ids) {
            JsonNode metric = send(HttpRequest.newBuilder(base.resolve("/v1/metrics/" + id)).GET().build(), true);
            if (metric != null) {
                values.put(id, metric.path("data").path("attributes").path("sample").path("count").asDouble(0));
            }
        }
        return values;
    }

    boolean running() throws IOException {
        return get("/v1/status").path("data").path("attributes").path("running").asBoolean(false);
    }

    void pause() throws IOException {
        patch("{\"data\":{\"type\":\"status\",\"id\":\"default\",\"attributes\":{\"paused\":true}}}");
    }

    void resume() throws IOException {
        patch("{\"data\":{\"type\":\"status\",\"id\":\"default\",\"attributes\":{\"paused\":false}}}");
    }

    void stop() throws IOException {
        patch("{\"data\":{\"type\":\"status\",\"id\":\"default\",\"attributes\":{\"stopped\":true}}}");
    }

    /** Whether k6's API answers yet. */
    boolean listening() {
        try {
            get("/v1/status");
            return true;
        } catch (ConnectException e) {
            return false;
        } catch (IOException e) {
            return false;
        }
    }

    private JsonNode get(String path) throws IOException {
        return send(HttpRequest.newBuilder(base.resolve(path)).GET().build(), false);
    }

    private void patch(String body) throws IOException {
        send(HttpRequest.newBuilder(base.resolve("/v1/status")).header("Content-Type", "application/json")
                .method("PATCH", HttpRequest.BodyPublishers.ofString(body)).build(), false);
    }

    /**
     * Reads and pause and stop alike are idempotent, so a call that timed out is simply made again.
     *
     * @param absentIsNull whether a 404 (a metric k6 has not observed yet) answers null rather than fails
     */
    private JsonNode send(HttpRequest request, boolean absentIsNull) throws IOException {
        HttpResponse<String> response = null;
        for (int attempt = 1; response == null; attempt++) {
            try {
                response = Exchange.send(http, request, HttpResponse.BodyHandlers.ofString(), deadline);
            } catch (HttpTimeoutException e) {
                if (attempt == ATTEMPTS) {
                    throw new HttpTimeoutException(request.method() + " " + request.uri().getPath() + ": no whole"
                            + " answer from k6 in " + ATTEMPTS + " tries of " + deadline.toMillis() + " ms each");
                }
            }
        }
        if (absentIsNull && response.statusCode() == 404) {
            return null;
        }
        if (response.statusCode() / 100 != 2) {
            throw new IOException("k6 answered " + request.method() + " " + request.uri().getPath() + " with "
                    + response.statusCode() + ": " + response.body());
        }
        return JSON.readTree(response.body());
    }
}
