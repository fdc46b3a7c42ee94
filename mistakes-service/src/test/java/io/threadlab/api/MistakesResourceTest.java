package io.threadlab.api;

import com.github.tomakehurst.wiremock.WireMockServer;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.matchesPattern;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every mistake answers as the variants do, and runs on the thread its mistake is about. */
@QuarkusTest
@QuarkusTestResource(DelayServiceStub.class)
class MistakesResourceTest {

    static final String EVENT_LOOP = "vert.x-eventloop-thread-\\d+";
    static final String WORKER = "executor-thread-\\d+";
    static final String VIRTUAL = "quarkus-virtual-thread-\\d+";

    @DelayServiceStub.InjectDelayService
    WireMockServer delayService;

    @BeforeEach
    void answerNormally() {
        DelayServiceStub.answerNormally(delayService);
    }

    @ParameterizedTest(name = "{0} runs on {1}")
    @CsvSource({
            "/mistakes/blocking-event-loop, " + EVENT_LOOP + ", false",
            "/mistakes/cpu/worker, " + WORKER + ", false",
            "/mistakes/cpu/event-loop, " + EVENT_LOOP + ", false",
            "/mistakes/cpu/virtual-thread, " + VIRTUAL + ", true",
            "/mistakes/pinning/synchronized, " + VIRTUAL + ", true",
            "/mistakes/pinning/class-init, " + VIRTUAL + ", true",
            "/mistakes/native-call, " + VIRTUAL + ", true"})
    void passesOnTheDownstreamMessageFromTheThreadOfItsMistake(String path, String thread, boolean virtual) {
        given().when().get(path)
                .then().statusCode(200)
                .contentType("application/json")
                .body("message", is("delayed 10 ms"))
                .body("servedBy.thread", matchesPattern(thread))
                .body("servedBy.virtual", is(virtual));
        // the same request from every variant: the delay service decides the wait
        delayService.verify(getRequestedFor(urlEqualTo("/delay")));
    }

    @Test
    void theNativeCallWaitsAsLongAsTheDownstreamBeforeCallingIt() {
        long start = System.nanoTime();
        given().when().get("/mistakes/native-call").then().statusCode(200);
        long tookMs = (System.nanoTime() - start) / 1_000_000;
        assertTrue(tookMs >= 20, "10 ms in the native call, then 10 ms downstream; took " + tookMs + " ms");
    }

    @Test
    void metricsShowServerAndClientTimersUnderOneClientName() {
        given().when().get("/mistakes/cpu/worker").then().statusCode(200);
        given().when().get("/q/metrics")
                .then().statusCode(200)
                .body(containsString("http_server_requests_seconds_bucket{"))
                .body(matchesPattern("(?s).*http_client_requests_seconds_count\\{[^}]*clientName=\"delay\".*"))
                .body(containsString("jvm_threads_live_threads"));
    }

    @Test
    void reportsHowTheJvmSizedItself() {
        Map<String, Object> info = given().when().get("/lab/runtime")
                .then().statusCode(200).extract().jsonPath().getMap("");
        assertEquals("mistakes", info.get("variant"));
        assertEquals(200, info.get("workerPoolMax"));
        // Not compared with Runtime.availableProcessors() here: the service runs in this JVM, so that compared the
        // value with itself. Whether a JVM sees its quota is MiniatureExperimentIT's to check (1 under 0.5 CPU), on
        // the four variants, whose RuntimeInfoResource is this one's, line for line.
        int cpus = (Integer) info.get("availableProcessors");
        assertTrue(cpus >= 1, "available processors: " + info);
        assertTrue((Integer) info.get("eventLoops") >= 1, "event loops: " + info);
        // Read from the scheduler itself, not derived from the processors: with no parallelism set, one carrier per
        // available processor, which the runner's check of the boost relies on.
        assertEquals(Integer.getInteger("jdk.virtualThreadScheduler.parallelism", cpus),
                info.get("carrierParallelism"), "carriers: " + info);
    }
}
