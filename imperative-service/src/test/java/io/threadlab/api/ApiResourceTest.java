package io.threadlab.api;

import com.github.tomakehurst.wiremock.WireMockServer;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.matchesPattern;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

@QuarkusTest
@QuarkusTestResource(DelayServiceStub.class)
class ApiResourceTest {

    // The lesson of this variant: requests run on the worker pool.
    static final String EXPECTED_THREAD = "executor-thread-\\d+";
    static final boolean EXPECTED_VIRTUAL = false;

    @DelayServiceStub.InjectDelayService
    WireMockServer delayService;

    @BeforeEach
    void answerNormally() {
        DelayServiceStub.answerNormally(delayService);
    }

    @Test
    void passesOnTheDownstreamMessageAndNamesTheThreadItRanOn() {
        given().when().get("/api")
                .then().statusCode(200)
                .contentType("application/json")
                .body("message", is("delayed 10 ms"))
                .body("servedBy.thread", matchesPattern(EXPECTED_THREAD))
                .body("servedBy.virtual", is(EXPECTED_VIRTUAL));
        // the same request from every variant: the delay service decides the wait
        delayService.verify(getRequestedFor(urlEqualTo("/delay")));
    }

    @Test
    void aDownstreamSlowerThanTheReadTimeoutIsAGatewayTimeout() {
        delayService.stubFor(get(urlPathEqualTo("/delay")).willReturn(aResponse().withFixedDelay(3_000)));
        long start = System.nanoTime();
        given().when().get("/api")
                .then().statusCode(504)
                .contentType("application/json")
                .body("error", is("delay service did not answer within the read timeout"));
        long waitedMs = (System.nanoTime() - start) / 1_000_000;
        assertTrue(waitedMs < 3_000, "gave up at the read timeout, not when the downstream answered: " + waitedMs);
    }

    @Test
    void aDownstreamErrorIsABadGateway() {
        delayService.stubFor(get(urlPathEqualTo("/delay")).willReturn(aResponse().withStatus(500)));
        given().when().get("/api")
                .then().statusCode(502)
                .contentType("application/json")
                .body("error", is("delay service answered HTTP 500"));
    }

    @Test
    void unknownPathsStayNotFound() {
        given().when().get("/nope").then().statusCode(404);
    }

    @Test
    void timeoutsLeakNeitherConnectionsNorThreads() throws InterruptedException {
        // Counted after a call has been served, so that what serving starts lazily (pools, the client) is counted.
        // A cold JVM's first call can outlast the test profile's 1 s read timeout: a 504 is tried again.
        int status = 0;
        for (int tries = 0; tries < 3 && status != 200; tries++) {
            status = given().when().get("/api").statusCode();
        }
        assertEquals(200, status, "the call before counting");
        int before = ServiceThreads.all().size();
        // A thread leaked per timed-out call adds 4; the pools grew by none for these calls on the lab's machine.
        int timeouts = 4;
        int spare = 2;
        // The test pool holds 2 connections: if timed-out calls kept theirs, the calls after them would starve.
        delayService.stubFor(get(urlPathEqualTo("/delay")).willReturn(aResponse().withFixedDelay(2_000)));
        for (int i = 0; i < timeouts; i++) {
            given().when().get("/api").then().statusCode(504);
        }
        DelayServiceStub.answerNormally(delayService);
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
            for (int i = 0; i < 4; i++) {
                given().when().get("/api").then().statusCode(200);
            }
        }, "a timed-out call kept its pooled connection");
        assertEquals(List.of(), ThreadsStillReading.downstream(), "threads still waiting on the delay service");
        // Every reply came back, so no thread, platform or virtual, may still be in request code: one that is there
        // has not finished its call and never will. And the pools may have grown by a thread or two for the calls
        // above, never by one per timed-out call, which is what a thread leaked per timeout adds (one without request
        // code on its stack too: an executor made per call and never shut down).
        ServiceThreads.Settled after = ServiceThreads.settle(before + spare, Duration.ofSeconds(10));
        assertEquals(List.of(), after.inRequestCode(), "threads still in request code after every reply came back");
        assertTrue(after.count() <= before + spare, before + " threads before " + timeouts + " timed-out"
                + " calls, " + after.count() + " after: " + after.names());
    }

    @Test
    void metricsShowServerAndClientTimersUnderOneClientName() {
        given().when().get("/api").then().statusCode(200);
        given().when().get("/q/metrics")
                .then().statusCode(200)
                .body(containsString("http_server_requests_seconds_bucket{"))
                .body(matchesPattern("(?s).*http_client_requests_seconds_count\\{[^}]*clientName=\"delay\".*"))
                .body(containsString("jvm_threads_live_threads"))
                .body(containsString("jvm_memory_used_bytes"))
                .body(containsString("worker_pool_"));
    }

    @Test
    void reportsHowTheJvmSizedItself() {
        Map<String, Object> info = given().when().get("/lab/runtime")
                .then().statusCode(200).extract().jsonPath().getMap("");
        assertEquals(200, info.get("workerPoolMax"));
        // Not compared with Runtime.availableProcessors() here: the service runs in this JVM, so that compared the
        // value with itself. Whether a variant sees its quota is MiniatureExperimentIT's to check (1 under 0.5 CPU).
        int cpus = (Integer) info.get("availableProcessors");
        assertTrue(cpus >= 1, "available processors: " + info);
        assertTrue((Integer) info.get("eventLoops") >= 1, "event loops: " + info);
        // Read from the scheduler itself, not derived from the processors: with no parallelism set, one carrier per
        // available processor, which the runner's check of the boost relies on.
        assertEquals(Integer.getInteger("jdk.virtualThreadScheduler.parallelism", cpus),
                info.get("carrierParallelism"), "carriers: " + info);
    }
}
