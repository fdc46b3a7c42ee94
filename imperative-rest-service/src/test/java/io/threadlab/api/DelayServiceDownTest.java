package io.threadlab.api;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.notNullValue;

@QuarkusTest
@TestProfile(DelayServiceDownTest.NothingListening.class)
class DelayServiceDownTest {

    /** Points the client at a loopback port that was free a moment ago: connections are refused. */
    public static class NothingListening implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            try (ServerSocket socket = new ServerSocket(0)) {
                return Map.of("quarkus.rest-client.delay.url", "http://127.0.0.1:" + socket.getLocalPort());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    @Test
    void anUnreachableDelayServiceIsABadGateway() {
        given().when().get("/api")
                .then().statusCode(502)
                .contentType("application/json")
                .body("error", is("delay service unreachable"))
                .body("cause", notNullValue());
    }
}
