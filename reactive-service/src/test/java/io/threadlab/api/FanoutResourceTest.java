package io.threadlab.api;

import com.github.tomakehurst.wiremock.WireMockServer;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.exactly;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code GET /api/fanout}, the same file in every variant (VariantParityTest keeps it so): the same JSON, the same
 * calls on the wire, the same errors; only the thread the request ran on is the variant's own
 * ({@link ApiResourceTest#EXPECTED_THREAD}). What happens when the threads or the connections run short differs by
 * model, and is FanoutLimitsTest's.
 */
@QuarkusTest
@TestProfile(FanoutResourceTest.RoomForTheCalls.class)
@QuarkusTestResource(DelayServiceStub.class)
class FanoutResourceTest {

    /** lab.fanout.max-calls in application.properties. */
    static final int MAX_CALLS = 64;
    static final int N = 8;

    public static class RoomForTheCalls implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            // The tests' pool of 2 connections would cap n at 2: as many connections as lab.fanout.max-calls let the
            // maximum itself be called, and N calls go out at once. The read timeout outlasts the stub's holds.
            return Map.of("quarkus.rest-client.delay.connection-pool-size", String.valueOf(MAX_CALLS),
                    "quarkus.rest-client.delay.read-timeout", "5000");
        }
    }

    @DelayServiceStub.InjectDelayService
    WireMockServer delayService;

    @DelayServiceStub.InjectDelayService
    CallsInFlight calls;

    @BeforeEach
    void answerNormally() {
        DelayServiceStub.answerNormally(delayService);
        calls.reset();
    }

    @Test
    void oneCallInParallelUnlessToldAndTheThreadItRanOn() {
        given().when().get("/api/fanout")
                .then().statusCode(200)
                .contentType("application/json")
                .body("calls", is(1))
                .body("mode", is("parallel"))
                .body("messages", is(List.of("delayed 10 ms")))
                .body("servedBy.thread", matchesPattern(ApiResourceTest.EXPECTED_THREAD))
                .body("servedBy.virtual", is(ApiResourceTest.EXPECTED_VIRTUAL));
        delayService.verify(exactly(1), getRequestedFor(urlEqualTo("/delay")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"parallel", "sequential"})
    void nCallsReachTheDelayServiceEachTheSameGetDelay(String mode) {
        given().queryParam("n", N).queryParam("mode", mode).when().get("/api/fanout")
                .then().statusCode(200)
                .body("calls", is(N))
                .body("mode", is(mode))
                .body("messages", is(Collections.nCopies(N, "delayed 10 ms")));
        // GET /delay with nothing else, N times: each call waits the delay service's default, which the runner sets.
        delayService.verify(exactly(N), getRequestedFor(urlEqualTo("/delay")));
        assertEquals(N, delayService.getAllServeEvents().size(), "requests the delay service saw");
    }

    @Test
    void theJsonIsTheSameInEveryVariant() {
        String body = given().queryParam("n", 3).queryParam("mode", "sequential").when().get("/api/fanout")
                .then().statusCode(200).extract().asString();
        // Byte for byte up to servedBy, whose thread name is the variant's own.
        assertTrue(body.startsWith("{\"calls\":3,\"mode\":\"sequential\",\"messages\":[\"delayed 10 ms\","
                + "\"delayed 10 ms\",\"delayed 10 ms\"],\"servedBy\":{\"thread\":\""), body);
        assertTrue(body.endsWith("\",\"virtual\":" + ApiResourceTest.EXPECTED_VIRTUAL + "}}"), body);
    }

    @Test
    void parallelCallsAreAtTheDelayServiceTogether() {
        // Each call is kept until all N are in flight: made at once, they are released together.
        calls.hold(N, Duration.ofSeconds(2));
        given().queryParam("n", N).queryParam("mode", "parallel").when().get("/api/fanout")
                .then().statusCode(200).body("messages", is(Collections.nCopies(N, "delayed 10 ms")));
        assertEquals(N, calls.most(), "calls the delay service served at once");
    }

    @Test
    void sequentialCallsAreAtTheDelayServiceOneAtATime() {
        // Each call is kept 200 ms, or until a second one comes: made in turn, none does.
        calls.hold(2, Duration.ofMillis(200));
        given().queryParam("n", N).queryParam("mode", "sequential").when().get("/api/fanout")
                .then().statusCode(200).body("messages", is(Collections.nCopies(N, "delayed 10 ms")));
        assertEquals(1, calls.most(), "calls the delay service served at once");
        delayService.verify(exactly(N), getRequestedFor(urlEqualTo("/delay")));
    }

    @Test
    void theMaximumIsCalledAndOneMoreIsRefused() {
        // In turn: 64 connections opened at once overflow the stub's accept backlog (50), which then answers some
        // only after the 1 s connect timeout, a limit of the test's WireMock and not of the service.
        given().queryParam("n", MAX_CALLS).queryParam("mode", "sequential").when().get("/api/fanout")
                .then().log().ifValidationFails().statusCode(200)
                .body("calls", is(MAX_CALLS))
                .body("messages", is(Collections.nCopies(MAX_CALLS, "delayed 10 ms")));
        delayService.verify(exactly(MAX_CALLS), getRequestedFor(urlEqualTo("/delay")));
        given().queryParam("n", MAX_CALLS + 1).when().get("/api/fanout")
                .then().statusCode(400)
                .contentType("application/json")
                .body("error", is("n must be an integer from 1 to " + MAX_CALLS))
                .body("cause", is("n=" + (MAX_CALLS + 1) + " was given; lab.fanout.max-calls is " + MAX_CALLS));
    }

    @ParameterizedTest
    @ValueSource(strings = {"n=0", "n=-3", "n=abc", "n=2.5", "mode=fast", "mode=PARALLEL", "n=2&mode=both"})
    void badInputIsABadRequestWithAJsonBodyAndNoCall(String query) {
        given().when().get("/api/fanout?" + query)
                .then().statusCode(400)
                .contentType("application/json")
                .body("error", matchesPattern("n must be an integer from 1 to 64|mode must be parallel or sequential"))
                .body("cause", startsWith(query.substring(query.lastIndexOf('&') + 1) + " was given"));
        delayService.verify(exactly(0), getRequestedFor(urlPathEqualTo("/delay")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"parallel", "sequential"})
    void aFailedCallFailsTheRequestAsGetApiWould(String mode) {
        delayService.stubFor(get(urlPathEqualTo("/delay")).willReturn(aResponse().withStatus(500)));
        given().queryParam("n", 3).queryParam("mode", mode).when().get("/api/fanout")
                .then().statusCode(502)
                .contentType("application/json")
                .body("error", is("delay service answered HTTP 500"));
    }
}
