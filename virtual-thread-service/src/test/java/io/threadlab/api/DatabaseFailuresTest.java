package io.threadlab.api;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.threadlab.database.PostgresServer;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * What the database does to a request, each with its status: PostgreSQL's own ceiling (max_connections), the pool's
 * (its size), the same pool's through Hibernate (?access=orm, which has none of its own), and the database stopped
 * mid-run. One server and one application for the four, in this order, each leaving them as the next needs: a pool of
 * one connection, not yet opened, and a server of 4 connection slots.
 */
@QuarkusTest
@RealPostgres
@TestProfile(DatabaseFailuresTest.OnePooledConnection.class)
@QuarkusTestResource(value = LabPostgres.class, restrictToAnnotatedClass = true,
        initArgs = @ResourceArg(name = LabPostgres.MAX_CONNECTIONS, value = DatabaseFailuresTest.SLOTS))
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DatabaseFailuresTest {

    static final String SLOTS = "4";
    private static final int ACQUISITION_TIMEOUT_MS = 1_000;

    public static class OnePooledConnection implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            // The statement timeout leaves room for the query that holds the pool's connection.
            return Map.of("lab.db.pool-size", "1",
                    "lab.db.acquisition-timeout-ms", String.valueOf(ACQUISITION_TIMEOUT_MS),
                    "lab.db.statement-timeout-ms", "10000");
        }
    }

    @LabPostgres.InjectServer
    PostgresServer database;

    @TestHTTPResource("/api/articles")
    URI articles;

    /** A pool that may grow is refused a new connection at once, with no queue, when the server has no slot left. */
    @Test
    @Order(1)
    void aDatabaseWithNoConnectionSlotLeftIsServiceUnavailable() throws Exception {
        List<Connection> others = new ArrayList<>();
        try {
            // Every slot: the lab's user is the server's superuser, so no slot is reserved from it.
            for (int i = 0; i < Integer.parseInt(SLOTS); i++) {
                others.add(database.connect());
            }
            given().when().get("/api/articles")
                    .then().statusCode(503)
                    .contentType("application/json")
                    .body("error", is("database refused a connection: too many clients (max_connections)"));
        } finally {
            for (Connection connection : others) {
                connection.close();
            }
        }
        given().when().get("/api/articles").then().statusCode(200); // and the pool now holds its one connection
    }

    /** The pool is the ceiling: with its one connection held, a request waits the acquisition timeout, then 503. */
    @Test
    @Order(2)
    void aRequestWithNoPooledConnectionFreeWithinTheAcquisitionTimeoutIsServiceUnavailable() throws Exception {
        LabPostgres.setWait(database, 2_500);
        CompletableFuture<HttpResponse<String>> holder = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()
                .sendAsync(HttpRequest.newBuilder(articles).build(), HttpResponse.BodyHandlers.ofString());
        awaitTheQueryInTheDatabase();
        long start = System.nanoTime();
        given().when().get("/api/articles")
                .then().statusCode(503)
                .contentType("application/json")
                .body("error", is("no database connection free within the acquisition timeout"));
        long waitedMs = (System.nanoTime() - start) / 1_000_000;
        assertTrue(waitedMs >= ACQUISITION_TIMEOUT_MS, "waited the acquisition timeout first: " + waitedMs + " ms");
        assertEquals(200, holder.get(20, TimeUnit.SECONDS).statusCode(), "the request holding the connection");
        LabPostgres.setWait(database, 0);
    }

    /** Hibernate reads through the same pool: with its one connection held by THE query, it waits, then 503. */
    @Test
    @Order(3)
    void throughHibernateTheSamePoolIsTheCeiling() throws Exception {
        List<String> served = OrmArticlesTest.servedAccess();
        assumeTrue(served.contains("orm"), "this build has no Hibernate (dataAccess.served " + served + ")");
        LabPostgres.setWait(database, 2_500);
        CompletableFuture<HttpResponse<String>> holder = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()
                .sendAsync(HttpRequest.newBuilder(articles).build(), HttpResponse.BodyHandlers.ofString());
        awaitTheQueryInTheDatabase();
        long start = System.nanoTime();
        given().when().get("/api/articles?access=orm")
                .then().statusCode(503)
                .contentType("application/json")
                .body("error", is("no database connection free within the acquisition timeout"));
        long waitedMs = (System.nanoTime() - start) / 1_000_000;
        assertTrue(waitedMs >= ACQUISITION_TIMEOUT_MS, "waited the acquisition timeout first: " + waitedMs + " ms");
        assertEquals(200, holder.get(20, TimeUnit.SECONDS).statusCode(), "the request holding the connection");
        LabPostgres.setWait(database, 0);
    }

    @Test
    @Order(4)
    void aDatabaseStoppedMidRunIsABadGatewayFromTheNextRequestOn() {
        given().when().get("/api/articles").then().statusCode(200);
        database.stop();
        // First on the pooled connection that the stop ended, then on a new one that is refused.
        for (int i = 0; i < 2; i++) {
            given().when().get("/api/articles")
                    .then().statusCode(502)
                    .contentType("application/json")
                    .body("error", is("database unreachable"));
        }
    }

    /** Until PostgreSQL runs the page query for the first request, which then holds the pool's one connection. */
    private void awaitTheQueryInTheDatabase() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        try (Connection connection = database.connect(); Statement statement = connection.createStatement()) {
            while (System.nanoTime() < deadline) {
                try (ResultSet running = statement.executeQuery("SELECT count(*) FROM pg_stat_activity"
                        + " WHERE state = 'active' AND query LIKE '%FROM lab_wait%' AND pid <> pg_backend_pid()")) {
                    running.next();
                    if (running.getInt(1) > 0) {
                        return;
                    }
                }
                Thread.sleep(20);
            }
        }
        throw new AssertionError("the first request's query never reached PostgreSQL");
    }
}
