package io.threadlab.api;

import com.github.tomakehurst.wiremock.WireMockServer;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.concurrent.TimeUnit;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.matchesPattern;

/**
 * The blocking join on the event loop never gets its replies, which that same loop was to deliver: the request ends
 * only by its bounded wait (the test profile's connect and read timeouts, 1 s + 1 s), answered 503 with a JSON body
 * naming the blocked loop, and the service answers again afterwards. The JUnit timeout is the safety should it hang.
 */
@QuarkusTest
@QuarkusTestResource(DelayServiceStub.class)
class BlockingJoinTest {

    static final String PATH = "/mistakes/fanout/blocking-join";

    @DelayServiceStub.InjectDelayService
    WireMockServer delayService;

    @BeforeEach
    void answerNormally() {
        DelayServiceStub.answerNormally(delayService);
    }

    @ParameterizedTest
    @ValueSource(strings = {"n=1", "n=2", "n=2&mode=sequential"})
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void theJoinWaitsOutItsBoundAndAnswers503(String query) {
        given().when().get(PATH + "?" + query)
                .then().statusCode(503)
                .contentType("application/json")
                .body("error", is("the event loop waited for replies that only it could deliver"))
                .body("cause", matchesPattern("java.util.concurrent.TimeoutException: vert.x-eventloop-thread-\\d+"
                        + " blocked 2000 ms \\(the connect and read timeouts together\\) joining \\d of \\d calls"));
        // The loop was given back: the service answers again.
        given().when().get("/q/health/live").then().statusCode(200);
    }

    @ParameterizedTest
    @ValueSource(strings = {"n=0", "n=3", "mode=fast"})
    void badInputIsABadRequestAsForTheVariantsFanOut(String query) {
        // The tests' pool of 2 connections caps n at 2.
        given().when().get(PATH + "?" + query)
                .then().statusCode(400)
                .contentType("application/json")
                .body("error", matchesPattern("n must be an integer from 1 to 2|mode must be parallel or sequential"));
    }
}
