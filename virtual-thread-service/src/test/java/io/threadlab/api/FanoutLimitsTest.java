package io.threadlab.api;

import com.github.tomakehurst.wiremock.WireMockServer;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Where this model's fan-out runs short: of connections, never of threads. Nothing bounds the calls in flight but
 * the delay client's pool (here 4). One request may not ask for more calls than the pool holds (400); requests together
 * may, and their calls wait for a pooled connection: while none times out, the delay service never sees more at once
 * than the pool's connections, and a call that waits longer than the read timeout (which the Quarkus REST client also gives the wait
 * for a connection) fails its request with 504, though the delay service answered every call it got in time.
 */
@QuarkusTest
@TestProfile(FanoutLimitsTest.FourConnections.class)
@QuarkusTestResource(DelayServiceStub.class)
class FanoutLimitsTest {

    static final int CONNECTIONS = 4;
    /** How long the stub keeps each call. */
    static final Duration CALL = Duration.ofMillis(200);
    static final int READ_TIMEOUT_MS = 2000;

    public static class FourConnections implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.rest-client.delay.connection-pool-size", String.valueOf(CONNECTIONS),
                    "quarkus.rest-client.delay.read-timeout", String.valueOf(READ_TIMEOUT_MS));
        }
    }

    @DelayServiceStub.InjectDelayService
    WireMockServer delayService;

    @DelayServiceStub.InjectDelayService
    CallsInFlight calls;

    @TestHTTPResource("/api/fanout")
    URI fanout;

    @BeforeEach
    void eachCallTakesItsTime() {
        DelayServiceStub.answerNormally(delayService);
        calls.reset();
        // Kept its full time unless more calls than the pool's connections are in flight, which must never be.
        calls.hold(CONNECTIONS + 1, CALL);
    }

    @Test
    void nBeyondThePoolIsRefused() {
        given().queryParam("n", CONNECTIONS + 1).when().get("/api/fanout")
                .then().statusCode(400)
                .contentType("application/json")
                .body("error", is("n must be an integer from 1 to " + CONNECTIONS))
                .body("cause", is("n=" + (CONNECTIONS + 1) + " was given; the delay client's connection pool holds "
                        + CONNECTIONS + " (lab.fanout.max-calls is 64)"));
    }

    @Test
    void requestsTogetherShareThePoolsConnections() throws Exception {
        // 2 requests of 4 calls: 8 calls on 4 connections, two turns of 200 ms, far within the read timeout.
        for (HttpResponse<String> response : answers(send(2))) {
            assertEquals(200, response.statusCode(), response.body());
        }
        assertEquals(CONNECTIONS, calls.most(), "calls the delay service served at once");
    }

    @Test
    void callsThatWaitForAConnectionPastTheReadTimeoutFailTheirRequests() throws Exception {
        // 16 requests of 4 calls: 64 calls on 4 connections, 16 turns of 200 ms, the last ones past the read timeout.
        List<HttpResponse<String>> answers = answers(send(16));
        long timedOut = answers.stream().filter(r -> r.statusCode() == 504).count();
        assertTrue(timedOut > 0, "no request timed out: " + answers.stream().map(HttpResponse::statusCode).toList());
        for (HttpResponse<String> response : answers) {
            assertTrue(response.statusCode() == 200 || response.body()
                    .contains("\"error\":\"delay service did not answer within the read timeout\""), response.body());
        }
        // No bound on what the delay service served at once here: a call abandoned at its read timeout gives its
        // connection back while the delay service still works on it, so the next queued call can be one more than
        // the pool (CI saw 5 on 4 connections). The pool bounds connections, not the downstream's work under
        // timeouts; requestsTogetherShareThePoolsConnections checks the bound where nothing times out.
    }

    private List<CompletableFuture<HttpResponse<String>>> send(int requests) {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        HttpRequest request = HttpRequest.newBuilder(URI.create(fanout + "?n=" + CONNECTIONS)).build();
        return IntStream.range(0, requests)
                .mapToObj(i -> http.sendAsync(request, HttpResponse.BodyHandlers.ofString()))
                .toList();
    }

    /** Every request is answered, none hangs. */
    private static List<HttpResponse<String>> answers(List<CompletableFuture<HttpResponse<String>>> sent)
            throws Exception {
        List<HttpResponse<String>> answers = new ArrayList<>();
        for (CompletableFuture<HttpResponse<String>> request : sent) {
            answers.add(request.get(30, TimeUnit.SECONDS));
        }
        return answers;
    }
}
