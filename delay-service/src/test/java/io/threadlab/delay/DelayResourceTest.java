package io.threadlab.delay;

import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.junit.jupiter.api.Assertions.assertTrue;

@QuarkusTest
class DelayResourceTest {

    @Test
    void answersJsonAfterTheDefaultWait() {
        given().when().get("/delay")
                .then().statusCode(200)
                .contentType("application/json")
                .body("message", equalTo("delayed 10 ms"))
                .body("requestedMs", equalTo(10))
                .body("servedMs", greaterThanOrEqualTo(10.0f));
    }

    @ParameterizedTest
    @ValueSource(longs = {0, 1, 150})
    void aWaitOfNMillisecondsTakesAtLeastN(long ms) {
        long start = System.nanoTime();
        given().queryParam("ms", ms).when().get("/delay")
                .then().statusCode(200)
                .body("requestedMs", equalTo((int) ms));
        long elapsedMs = (System.nanoTime() - start) / 1_000_000;
        assertTrue(elapsedMs >= ms, "asked for " + ms + " ms, answered after " + elapsedMs + " ms");
    }

    @ParameterizedTest
    @ValueSource(strings = {"-5", "abc", "60001", "1.5", "99999999999999999999"})
    void rejectsAnythingButAnIntegerFromZeroToTheMaximum(String ms) {
        given().queryParam("ms", ms).when().get("/delay")
                .then().statusCode(400)
                .contentType("application/json")
                .body("error", equalTo("ms must be an integer from 0 to 60000"))
                .body("value", equalTo(ms));
    }

    @Test
    void recordsTheServedWaitAsAMetric() {
        given().queryParam("ms", 3).when().get("/delay").then().statusCode(200);
        given().when().get("/q/metrics")
                .then().statusCode(200)
                .body(containsString("delay_served_seconds_count"))
                .body(containsString("delay_served_seconds_bucket"));
    }

    @Test
    void theDefaultWaitCanBeChangedWhileRunning() {
        try {
            given().queryParam("ms", 40).when().put("/delay/default")
                    .then().statusCode(200).body("defaultMs", equalTo(40));
            given().when().get("/delay/default").then().statusCode(200).body("defaultMs", equalTo(40));
            long start = System.nanoTime();
            given().when().get("/delay").then().statusCode(200)
                    .body("message", equalTo("delayed 40 ms")).body("requestedMs", equalTo(40));
            assertTrue((System.nanoTime() - start) / 1_000_000 >= 40, "the new default was not waited");
        } finally {
            given().queryParam("ms", 10).when().put("/delay/default").then().statusCode(200);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"-5", "abc", "60001", ""})
    void rejectsABadDefaultAndKeepsTheOldOne(String ms) {
        given().queryParam("ms", ms).when().put("/delay/default")
                .then().statusCode(400)
                .contentType("application/json")
                .body("error", equalTo("ms must be an integer from 0 to 60000"));
        given().when().get("/delay/default").then().statusCode(200).body("defaultMs", equalTo(10));
    }
}
