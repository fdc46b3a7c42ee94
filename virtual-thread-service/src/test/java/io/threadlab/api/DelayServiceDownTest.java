package io.threadlab.api;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.notNullValue;

@QuarkusTest
@TestProfile(NothingListening.class)
class DelayServiceDownTest {

    @Test
    void anUnreachableDelayServiceIsABadGateway() {
        given().when().get("/api")
                .then().statusCode(502)
                .contentType("application/json")
                .body("error", is("delay service unreachable"))
                .body("cause", notNullValue());
    }
}
