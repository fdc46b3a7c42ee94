package io.threadlab.database;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.threadlab.database.testing.RealPostgres;
import io.threadlab.database.testing.TestPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.threadlab.database.testing.TestPostgres.assertNothingLeft;
import static org.assertj.core.api.Assertions.assertThat;

@RealPostgres
class ArticlePageQueryTest {

    private static Path work;
    private static PostgresServer server;

    @BeforeAll
    static void start() throws Exception {
        work = Files.createTempDirectory("lab-database-test-");
        server = PostgresServer.initdb(TestPostgres.binaries(),
                PostgresSettings.defaults().withPort(TestPostgres.freePort()), work);
        server.start();
        server.awaitReady(Duration.ofSeconds(60));
        LabData.load(server, DataSize.defaults());
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
            assertNothingLeft(server);
        }
        TestPostgres.deleteTree(work);
    }

    @Test
    void returnsTheNewestPageWithEachArticlesAuthorAndComments() throws Exception {
        Map<Integer, List<Integer>> commentsByArticle = new LinkedHashMap<>();
        try (Connection connection = server.connect()) {
            LabData.setWait(connection, 0);
            try (PreparedStatement query = connection.prepareStatement(ArticlePageQuery.jdbcSql())) {
                query.setInt(1, ArticlePageQuery.PAGE_SIZE);
                try (ResultSet rs = query.executeQuery()) {
                    while (rs.next()) {
                        int article = rs.getInt("article_id");
                        int author = rs.getInt("author_id");
                        assertThat(author).as("authors take turns").isEqualTo(1 + (article - 1) % 100);
                        assertThat(rs.getString("author_name")).isEqualTo("Author " + author);
                        assertThat(rs.getString("title")).startsWith("Article " + article + ": ");
                        assertThat(rs.getString("comment_body")).hasSize(3 * 32 + 2);
                        commentsByArticle.computeIfAbsent(article, a -> new ArrayList<>()).add(rs.getInt("comment_id"));
                    }
                }
            }
        }
        assertThat(commentsByArticle).hasSize(ArticlePageQuery.PAGE_SIZE);
        assertThat(commentsByArticle.keySet()).as("the newest first").startsWith(1_000, 999).endsWith(901);
        commentsByArticle.forEach((article, comments) ->
                assertThat(comments).containsExactly((article - 1) * 2 + 1, (article - 1) * 2 + 2));
    }

    @Test
    void waitsLabWaitServerSideOncePerQuery() throws Exception {
        int waitMs = 300;
        try (Connection connection = server.connect()) {
            LabData.setWait(connection, waitMs);
            try (PreparedStatement query = connection.prepareStatement(ArticlePageQuery.jdbcSql())) {
                query.setInt(1, ArticlePageQuery.PAGE_SIZE);
                long start = System.nanoTime();
                int rows = 0;
                try (ResultSet rs = query.executeQuery()) {
                    while (rs.next()) {
                        rows++;
                    }
                }
                Duration took = Duration.ofNanos(System.nanoTime() - start);
                System.out.printf("[lab-database] page query with lab_wait.ms=%d: %d rows in %d ms%n", waitMs, rows,
                        took.toMillis());
                assertThat(took).isGreaterThanOrEqualTo(Duration.ofMillis(waitMs));
            }
            // Once: the plan node that runs pg_sleep (the CTE's) ran one loop and made one row, for 200 rows out.
            try (PreparedStatement explain = connection.prepareStatement(
                    "EXPLAIN (ANALYZE, FORMAT JSON) " + ArticlePageQuery.jdbcSql())) {
                explain.setInt(1, ArticlePageQuery.PAGE_SIZE);
                try (ResultSet rs = explain.executeQuery()) {
                    rs.next();
                    JsonNode plan = new ObjectMapper().readTree(rs.getString(1)).get(0);
                    JsonNode wait = find(plan.get("Plan"), "CTE wait");
                    assertThat(wait).as("the plan has the CTE wait:\n" + plan.toPrettyString()).isNotNull();
                    assertThat(wait.get("Actual Loops").asInt()).isEqualTo(1);
                    assertThat(wait.get("Actual Rows").asDouble()).isEqualTo(1.0);
                    assertThat(plan.get("Plan").get("Actual Rows").asInt()).isEqualTo(200);
                    assertThat(plan.get("Execution Time").asDouble()).isGreaterThanOrEqualTo(waitMs);
                }
            }
        }
    }

    /** pgjdbc's ? goes out as $1: PostgreSQL receives the file's text itself, as from a Vert.x client. */
    @Test
    void postgresReceivesTheFilesTextFromJdbc() throws Exception {
        try (Connection connection = server.connect()) {
            connection.createStatement().execute("SET log_statement = 'all'");
            try (PreparedStatement query = connection.prepareStatement(ArticlePageQuery.jdbcSql())) {
                query.setInt(1, 3);
                query.executeQuery().close();
            }
            connection.createStatement().execute("SET log_statement = 'none'");
        }
        assertThat(ArticlePageQuery.sql()).contains("LIMIT $1").doesNotContain("?");
        // The log indents a statement's continuation lines with a tab; the text itself is the file's.
        assertThat(Files.readString(server.log()).replace("\n\t", "\n")).contains(ArticlePageQuery.sql().strip());
    }

    /** The subplan whose "Subplan Name" is {@code name}, anywhere in the plan. */
    private static JsonNode find(JsonNode node, String name) {
        if (name.equals(node.path("Subplan Name").asText())) {
            return node;
        }
        for (JsonNode child : node.path("Plans")) {
            JsonNode found = find(child, name);
            if (found != null) {
                return found;
            }
        }
        return null;
    }
}
