package io.threadlab.api;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.threadlab.database.PostgresServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@QuarkusTest
@RealPostgres
@TestProfile(RealDatabaseProfile.class)
@WithTestResource(value = LabPostgres.class, scope = TestResourceScope.MATCHING_RESOURCES)
class ArticleResourceTest {

    // The lesson of this variant: requests run on the worker pool.
    static final String EXPECTED_THREAD = "executor-thread-\\d+";
    static final boolean EXPECTED_VIRTUAL = false;

    // Threads that may block read the database over JDBC, through Agroal, which meters its pool.
    static final String POOL_WAITERS_METRIC = "agroal_awaiting_count";
    // ... and counts the connections it lends: Agroal's acquisitions.
    static final String POOL_ACQUISITIONS_METRIC = "agroal_acquire_count_total";

    /** SHA-256 of the page's articles as JSON: the same in every variant, for the lab's default data set. */
    static final String ARTICLES_SHA256 = "51bb296c339e055a9e664b41fe466d9b6ab03c643a585469683562dfbf18c681";

    @LabPostgres.InjectServer
    PostgresServer database;

    @AfterEach
    void noWait() throws Exception {
        LabPostgres.setWait(database, 0);
    }

    @Test
    void answersTheNewestPageWithAuthorsAndCommentsAndNamesTheThreadItRanOn() throws Exception {
        String body = given().when().get("/api/articles")
                .then().statusCode(200)
                .contentType("application/json")
                .body("articles", hasSize(100))
                .body("articles[0].id", is(1000))
                .body("articles[0].title", startsWith("Article 1000: "))
                .body("articles[0].publishedAt", is("2026-02-11T16:00:00Z"))
                .body("articles[0].author.id", is(100))
                .body("articles[0].author.name", is("Author 100"))
                .body("articles[0].author.email", is("author100@lab.example"))
                .body("articles[0].comments.id", contains(1999, 2000))
                .body("articles[0].comments[0].author", is("Reader 2"))
                .body("articles[0].comments[0].createdAt", is("2026-02-11T16:01:00Z"))
                .body("articles[99].id", is(901))
                .body("servedBy.thread", matchesPattern(EXPECTED_THREAD))
                .body("servedBy.virtual", is(EXPECTED_VIRTUAL))
                .extract().asString();
        String articles = new ObjectMapper().readTree(body).get("articles").toString();
        assertEquals(ARTICLES_SHA256, HexFormat.of().formatHex(
                MessageDigest.getInstance("SHA-256").digest(articles.getBytes(StandardCharsets.UTF_8))),
                "the page's JSON is not the other variants'");
    }

    @Test
    void metricsShowHowManyRequestsWaitForAPooledConnection() {
        given().when().get("/api/articles").then().statusCode(200);
        given().when().get("/q/metrics")
                .then().statusCode(200)
                .body(containsString(POOL_WAITERS_METRIC + "{"));
    }

    @Test
    void waitsTheDatabasesWaitServerSide() throws Exception {
        LabPostgres.setWait(database, 200);
        long start = System.nanoTime();
        given().when().get("/api/articles").then().statusCode(200);
        long tookMs = (System.nanoTime() - start) / 1_000_000;
        assertTrue(tookMs >= 200, "lab_wait is 200 ms; the request took " + tookMs + " ms");
    }

    @Test
    void aQuerySlowerThanTheStatementTimeoutIsAGatewayTimeout() throws Exception {
        // a wait far beyond the statement timeout (1 s in tests): cancelled at the timeout, the answer comes seconds
        // before the wait would have ended, however slowly a loaded build machine opens the pool's first connection
        LabPostgres.setWait(database, 10_000);
        long start = System.nanoTime();
        given().when().get("/api/articles")
                .then().statusCode(504)
                .contentType("application/json")
                .body("error", is("database did not answer within the statement timeout"));
        long waitedMs = (System.nanoTime() - start) / 1_000_000;
        assertTrue(waitedMs < 10_000, "cancelled at the statement timeout, not when the wait ended: " + waitedMs);
    }
}
