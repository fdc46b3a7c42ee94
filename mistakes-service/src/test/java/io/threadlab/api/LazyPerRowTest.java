package io.threadlab.api;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.threadlab.api.orm.LazyPerRowRepository;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.matchesPattern;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * N+1 through Hibernate ORM: the variants' JSON, from a worker, in a statement per article and per author after the
 * articles' own query, where the same service's page as the variants read it sends three. Counted in the SQL Hibernate
 * logged for each first page (FirstPageSql), in a service shared only with JdbcOnEventLoopTest, which reads no page
 * through Hibernate, so that both are this class's.
 */
@QuarkusTest
@RealPostgres
@TestProfile(OneEventLoopOnTheDatabase.class)
@WithTestResource(value = LabPostgres.class, scope = TestResourceScope.MATCHING_RESOURCES)
class LazyPerRowTest {

    static final String WORKER = "executor-thread-\\d+";

    /** The variants' ArticleResourceTest.ARTICLES_SHA256: the same rows make the same JSON. */
    static final String ARTICLES_SHA256 = "51bb296c339e055a9e664b41fe466d9b6ab03c643a585469683562dfbf18c681";

    @Inject
    FirstPageSql firstPageSql;

    /** The variants' page through Hibernate ORM, which this service has too (for /mistakes/orm/on-event-loop). */
    @Inject
    HibernatePage<List<Article>> rightWay;

    @Test
    void answersTheVariantsJsonInAStatementPerArticleAndPerAuthorWhereTheRightWaySendsThree() throws Exception {
        String body = given().when().get("/mistakes/orm/n-plus-one")
                .then().statusCode(200)
                .contentType("application/json")
                .body("articles", hasSize(100))
                .body("servedBy.thread", matchesPattern(WORKER))
                .body("servedBy.virtual", is(false))
                .extract().asString();
        String articles = new ObjectMapper().readTree(body).get("articles").toString();
        assertEquals(ARTICLES_SHA256, HexFormat.of().formatHex(
                MessageDigest.getInstance("SHA-256").digest(articles.getBytes(StandardCharsets.UTF_8))));
        assertEquals(100, rightWay.newestPage().size()); // on this test's thread, in its request context

        List<String> lazy = firstPageSql.statements(LazyPerRowRepository.PAGE);
        assertEquals(1, count(lazy, "(?s).*pg_sleep.*"), "the wait: " + lazy);
        assertEquals(1, count(lazy, "(?s)select .* from articles .* fetch first .*"), "the page: " + lazy);
        assertEquals(100, count(lazy, "(?s)select .* from comments .* where c1_0\\.article_id=\\?.*"),
                "one statement per article for its comments: " + lazy);
        assertEquals(100, count(lazy, "(?s)select .* from authors .* where a1_0\\.id=\\?.*"),
                "one statement per author: " + lazy);
        assertEquals(202, lazy.size(), "nothing else: " + lazy);
        List<String> right = firstPageSql.statements(DataAccess.ORM.label());
        assertEquals(3, right.size(), "the wait, the articles with their authors, their comments: " + right);
    }

    private static long count(List<String> statements, String regex) {
        return statements.stream().filter(statement -> statement.matches(regex)).count();
    }
}
