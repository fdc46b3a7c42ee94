package io.threadlab.api;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.threadlab.database.PostgresServer;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.matchesPattern;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code GET /api/articles?access=orm}: the same page through Hibernate, on the variant's own threads (as
 * ArticleResourceTest expects them): the JDBC path's bytes, its server-side wait and its errors, in the three
 * statements orm.PageQueries sends, logged once. Its service (RealDatabaseProfile) is shared only with classes that
 * never read through Hibernate, so that its first page through Hibernate is this class's. Skipped, with the reason,
 * in a build without Hibernate (the reactive service on Quarkus 3.27, whose 501 DatabaseDownTest checks).
 */
@QuarkusTest
@RealPostgres
@TestProfile(RealDatabaseProfile.class)
@WithTestResource(value = LabPostgres.class, scope = TestResourceScope.MATCHING_RESOURCES)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class OrmArticlesTest {

    static final String ORM = "/api/articles?access=orm";

    @LabPostgres.InjectServer
    PostgresServer database;

    @Inject
    FirstPageSql firstPageSql;

    @TestHTTPResource(ORM)
    URI orm;

    /** The {@code ?access=} kinds this build serves, as /lab/runtime says. */
    static List<String> servedAccess() {
        return given().when().get("/lab/runtime")
                .then().statusCode(200).extract().jsonPath().getList("dataAccess.served", String.class);
    }

    @BeforeEach
    void thisBuildReadsThroughHibernate() {
        List<String> served = servedAccess();
        assumeTrue(served.contains("orm"), "this build has no Hibernate (/lab/runtime: dataAccess.served " + served
                + "); its ?access=orm is a 501, which DatabaseDownTest checks");
    }

    @AfterEach
    void noWait() throws Exception {
        LabPostgres.setWait(database, 0);
    }

    /** The service's first pages through Hibernate, two at once: the first one's SQL alone is logged, once. */
    @Test
    @Order(1)
    void theFirstPageIsLoggedOnceInItsThreeStatementsWhateverOverlapsIt() throws Exception {
        List<LogRecord> logged = new CopyOnWriteArrayList<>();
        Handler handler = new Handler() {
            @Override
            public void publish(LogRecord record) {
                if (record.getLevel().intValue() >= Level.INFO.intValue()) {
                    logged.add(record);
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger log = Logger.getLogger(FirstPageSql.class.getName());
        log.addHandler(handler);
        try {
            LabPostgres.setWait(database, 200);
            HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            List<CompletableFuture<HttpResponse<String>>> pages = List.of(
                    http.sendAsync(HttpRequest.newBuilder(orm).build(), HttpResponse.BodyHandlers.ofString()),
                    http.sendAsync(HttpRequest.newBuilder(orm).build(), HttpResponse.BodyHandlers.ofString()));
            for (CompletableFuture<HttpResponse<String>> page : pages) {
                assertEquals(200, page.get(20, TimeUnit.SECONDS).statusCode());
            }
            given().when().get(ORM).then().statusCode(200);
        } finally {
            log.removeHandler(handler);
        }
        List<String> statements = firstPageSql.statements(DataAccess.ORM.label());
        assertEquals(3, statements.size(), "the wait, the articles with their authors, their comments: " + statements);
        assertTrue(statements.get(0).contains("pg_sleep"), "first the wait: " + statements.get(0));
        assertTrue(statements.get(1).matches("(?s)select .* from articles .*join authors .*"),
                "then the articles with their authors: " + statements.get(1));
        assertTrue(statements.get(2).matches("(?s)select .* from comments .* in \\(.*"),
                "then their comments, by their articles' ids: " + statements.get(2));
        assertEquals(1, logged.size(), "logged once: " + logged.stream().map(LogRecord::getMessage).toList());
        for (String statement : statements) {
            assertTrue(logged.getFirst().getMessage().contains(statement), "the log has " + statement);
        }
    }

    @Test
    void readsTheJdbcPathsPageByteForByteOnTheVariantsThreads() throws Exception {
        String jdbc = given().when().get("/api/articles").then().statusCode(200).extract().asString();
        String throughHibernate = given().when().get(ORM)
                .then().statusCode(200)
                .contentType("application/json")
                .body("articles", hasSize(100))
                .body("articles[0].id", is(1000))
                .body("articles[0].comments.id", contains(1999, 2000))
                .body("articles[99].id", is(901))
                .body("servedBy.thread", matchesPattern(ArticleResourceTest.EXPECTED_THREAD))
                .body("servedBy.virtual", is(ArticleResourceTest.EXPECTED_VIRTUAL))
                .extract().asString();
        assertEquals(beforeServedBy(jdbc), beforeServedBy(throughHibernate), "the page's bytes, the thread's aside");
        String articles = new ObjectMapper().readTree(throughHibernate).get("articles").toString();
        assertEquals(ArticleResourceTest.ARTICLES_SHA256, HexFormat.of().formatHex(
                MessageDigest.getInstance("SHA-256").digest(articles.getBytes(StandardCharsets.UTF_8))),
                "the page's JSON is not the other variants'");
        String explicitlyJdbc = given().when().get("/api/articles?access=jdbc").then().statusCode(200)
                .extract().asString();
        assertEquals(beforeServedBy(jdbc), beforeServedBy(explicitlyJdbc), "?access=jdbc is the default");
    }

    /** One pooled connection for the page's statements, as the JDBC path takes one for its query. */
    @Test
    void takesOnePooledConnectionPerPageAsTheJdbcPathDoes() {
        given().when().get(ORM).then().statusCode(200);
        double before = acquisitions();
        given().when().get(ORM).then().statusCode(200);
        double afterOrm = acquisitions();
        given().when().get("/api/articles").then().statusCode(200);
        assertEquals(1, afterOrm - before, ArticleResourceTest.POOL_ACQUISITIONS_METRIC + " for one page through"
                + " Hibernate");
        assertEquals(1, acquisitions() - afterOrm, ArticleResourceTest.POOL_ACQUISITIONS_METRIC + " for one page"
                + " over the variant's client");
    }

    /**
     * Each statement of the page is planned once: a page read again finds every plan in Hibernate's plan cache. Sent
     * typed, the wait was planned and stored again on every request (orm.PageQueries#WAIT), and this failed.
     */
    @Test
    void aPageReadAgainPlansNothingNew() {
        given().when().get(ORM).then().statusCode(200);
        int planned = queryPlans();
        for (int i = 0; i < 3; i++) {
            given().when().get(ORM).then().statusCode(200);
        }
        assertEquals(planned, queryPlans(), "query plans Hibernate holds, after three more pages");
    }

    @Test
    void waitsTheDatabasesWaitServerSide() throws Exception {
        LabPostgres.setWait(database, 200);
        long start = System.nanoTime();
        given().when().get(ORM).then().statusCode(200);
        long tookMs = (System.nanoTime() - start) / 1_000_000;
        assertTrue(tookMs >= 200, "lab_wait is 200 ms; the request took " + tookMs + " ms");
    }

    @Test
    void aQuerySlowerThanTheStatementTimeoutIsAGatewayTimeout() throws Exception {
        // a wait far beyond the statement timeout (1 s in tests): cancelled at the timeout, the answer comes seconds
        // before the wait would have ended, however slowly a loaded build machine opens the pool's first connection
        LabPostgres.setWait(database, 10_000);
        long start = System.nanoTime();
        given().when().get(ORM)
                .then().statusCode(504)
                .contentType("application/json")
                .body("error", is("database did not answer within the statement timeout"));
        long waitedMs = (System.nanoTime() - start) / 1_000_000;
        assertTrue(waitedMs < 10_000, "cancelled at the statement timeout, not when the wait ended: " + waitedMs);
    }

    @Test
    void runtimeInfoShowsHibernatesSettings() {
        Map<String, String> settings = given().when().get("/lab/runtime")
                .then().statusCode(200).extract().jsonPath().getMap("dataAccess.settings", String.class, String.class);
        assertEquals("false", settings.get("quarkus.hibernate-orm.second-level-caching-enabled"));
        assertEquals("none", settings.get("quarkus.hibernate-orm.schema-management.strategy"));
        assertEquals("false", settings.get("quarkus.hibernate-orm.log.sql"));
        assertEquals("-1", settings.get("quarkus.hibernate-orm.fetch.batch-size"));
        assertEquals("true", settings.get("quarkus.hibernate-orm.query.fail-on-pagination-over-collection-fetch"));
        assertEquals("false", settings.get("quarkus.hibernate-orm.database.version-check.enabled"));
        assertEquals("true", settings.get("quarkus.hibernate-orm.database.start-offline"));
        assertEquals("18", settings.get("quarkus.datasource.db-version"));
    }

    private static int queryPlans() {
        return given().when().get("/lab/runtime").then().statusCode(200).extract().jsonPath()
                .getInt("dataAccess.queryPlans");
    }

    private static double acquisitions() {
        String metrics = given().when().get("/q/metrics").then().statusCode(200).extract().asString();
        return metrics.lines().filter(line -> line.startsWith(ArticleResourceTest.POOL_ACQUISITIONS_METRIC + "{"))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .findFirst().orElseThrow(() -> new AssertionError(ArticleResourceTest.POOL_ACQUISITIONS_METRIC
                        + " is not in /q/metrics"));
    }

    /** The reply up to its servedBy, the last field: the thread's name differs from request to request. */
    private static String beforeServedBy(String reply) {
        int servedBy = reply.lastIndexOf(",\"servedBy\":");
        assertTrue(servedBy > 0, "servedBy closes the reply: " + reply);
        return reply.substring(0, servedBy);
    }
}
