package io.threadlab.api;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.threadlab.database.PostgresServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.matchesPattern;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a user gets from JDBC on the event loop in Quarkus 3.27: the right answer, from the event loop, with no error;
 * the other requests on that loop wait their turn; and only a query longer than 2 s leaves a trace, a warning.
 */
@QuarkusTest
@RealPostgres
@TestProfile(OneEventLoopOnTheDatabase.class)
@WithTestResource(value = LabPostgres.class, scope = TestResourceScope.MATCHING_RESOURCES)
class JdbcOnEventLoopTest {

    static final String EVENT_LOOP = "vert.x-eventloop-thread-\\d+";

    /** The variants' ArticleResourceTest.ARTICLES_SHA256: the same query code makes the same JSON. */
    static final String ARTICLES_SHA256 = "51bb296c339e055a9e664b41fe466d9b6ab03c643a585469683562dfbf18c681";

    @LabPostgres.InjectServer
    PostgresServer database;

    @TestHTTPResource("/mistakes/jdbc-on-event-loop")
    URI mistake;

    @AfterEach
    void noWait() throws Exception {
        LabPostgres.setWait(database, 0);
    }

    @Test
    void answersTheVariantsJsonFromTheEventLoopWithoutAnError() throws Exception {
        String body = given().when().get("/mistakes/jdbc-on-event-loop")
                .then().statusCode(200)
                .contentType("application/json")
                .body("articles", hasSize(100))
                .body("servedBy.thread", matchesPattern(EVENT_LOOP))
                .body("servedBy.virtual", is(false))
                .extract().asString();
        String articles = new ObjectMapper().readTree(body).get("articles").toString();
        assertEquals(ARTICLES_SHA256, HexFormat.of().formatHex(
                MessageDigest.getInstance("SHA-256").digest(articles.getBytes(StandardCharsets.UTF_8))));
    }

    @Test
    void theOtherRequestsOnTheLoopWaitTheirTurn() throws Exception {
        LabPostgres.setWait(database, 300);
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        long start = System.nanoTime();
        List<CompletableFuture<HttpResponse<String>>> calls = List.of(
                http.sendAsync(HttpRequest.newBuilder(mistake).build(), HttpResponse.BodyHandlers.ofString()),
                http.sendAsync(HttpRequest.newBuilder(mistake).build(), HttpResponse.BodyHandlers.ofString()));
        for (CompletableFuture<HttpResponse<String>> call : calls) {
            assertEquals(200, call.get(20, TimeUnit.SECONDS).statusCode());
        }
        long tookMs = (System.nanoTime() - start) / 1_000_000;
        // Non-blocking, both would wait their 300 ms at once; here the second waits for the first to leave the loop.
        assertTrue(tookMs >= 600, "two 300 ms queries on one event loop took " + tookMs + " ms: not in turn");
    }

    @Test
    void onlyAQueryLongerThanTwoSecondsIsLoggedAndOnlyAsAWarning() throws Exception {
        List<String> warnings = new CopyOnWriteArrayList<>();
        Handler handler = new Handler() {
            @Override
            public void publish(LogRecord record) {
                if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
                    warnings.add(record.getMessage());
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger checker = Logger.getLogger("io.vertx.core.impl.BlockedThreadChecker");
        checker.addHandler(handler);
        try {
            // Vert.x looks every 2 s (Quarkus' warning-exception-time) for a task running over 2 s: seen past 4 s.
            LabPostgres.setWait(database, 4_500);
            given().when().get("/mistakes/jdbc-on-event-loop").then().statusCode(200);
        } finally {
            checker.removeHandler(handler);
        }
        assertTrue(warnings.stream().anyMatch(w -> w.contains("has been blocked for")),
                "Vert.x's blocked-thread warning: " + warnings);
    }
}
