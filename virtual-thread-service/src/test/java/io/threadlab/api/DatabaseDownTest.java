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

/** No database at all, as in every HTTP-only run: the service is ready anyway, and GET /api/articles is a 502. */
@QuarkusTest
@TestProfile(DatabaseDownTest.NothingListening.class)
class DatabaseDownTest {

    /** Points the datasource at a loopback port that was free a moment ago: connections are refused. */
    public static class NothingListening implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            try (ServerSocket socket = new ServerSocket(0)) {
                return Map.of("lab.db.url", "postgresql://127.0.0.1:" + socket.getLocalPort() + "/lab");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    @Test
    void theServiceIsReadyWithoutItsDatabase() {
        given().when().get("/q/health/ready")
                .then().statusCode(200)
                .body("status", is("UP"));
    }

    @Test
    void anUnreachableDatabaseIsABadGateway() {
        given().when().get("/api/articles")
                .then().statusCode(502)
                .contentType("application/json")
                .body("error", is("database unreachable"))
                .body("cause", notNullValue());
    }
}
