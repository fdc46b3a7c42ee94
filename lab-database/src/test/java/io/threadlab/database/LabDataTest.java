package io.threadlab.database;

import io.threadlab.database.testing.RealPostgres;
import io.threadlab.database.testing.TestPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

import static io.threadlab.database.testing.TestPostgres.assertNothingLeft;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@RealPostgres
class LabDataTest {

    private static Path work;
    private static PostgresServer server;

    @BeforeAll
    static void start() throws Exception {
        work = Files.createTempDirectory("lab-database-test-");
        server = PostgresServer.initdb(TestPostgres.binaries(),
                PostgresSettings.defaults().withPort(TestPostgres.freePort()), work);
        server.start();
        server.awaitReady(Duration.ofSeconds(60));
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
    void theDefaultDataSetIsAsSpecifiedAndIdenticalOnEveryLoad() throws Exception {
        LoadedData first = LabData.load(server, DataSize.defaults());
        System.out.printf("[lab-database] default data set loaded in %.2f s%n", first.loadTime().toNanos() / 1e9);
        try (Connection connection = server.connect()) {
            assertThat(count(connection, "SELECT count(*) FROM authors")).isEqualTo(100);
            assertThat(count(connection, "SELECT count(*) FROM articles")).isEqualTo(1_000);
            assertThat(count(connection, "SELECT count(*) FROM comments")).isEqualTo(2_000);
            assertThat(count(connection, "SELECT count(DISTINCT article_id) FROM comments")).isEqualTo(1_000);
            assertThat(count(connection, "SELECT count(DISTINCT author_id) FROM articles")).isEqualTo(100);
            assertThat(count(connection, "SELECT max(n) - min(n) FROM (SELECT count(*) AS n FROM articles "
                    + "GROUP BY author_id) AS per_author")).as("authors take turns").isZero();
            assertThat(count(connection, "SELECT ms FROM lab_wait")).isZero();
            assertThat(count(connection, "SELECT count(*) FROM lab_wait")).isEqualTo(1);
            assertThatThrownBy(() -> connection.createStatement().execute("INSERT INTO lab_wait VALUES (5)"))
                    .as("lab_wait holds one row").isInstanceOf(SQLException.class)
                    .hasMessageContaining("lab_wait_one_row");
        }
        assertThat(first.checksum()).matches("[0-9a-f]{32}");

        LoadedData second = LabData.load(server, DataSize.defaults());
        assertThat(second.checksum()).as("the same sizes, the same rows").isEqualTo(first.checksum());
        LoadedData other = LabData.load(server, new DataSize(50, 3, 7));
        assertThat(other.checksum()).isNotEqualTo(first.checksum());
        try (Connection connection = server.connect()) {
            assertThat(count(connection, "SELECT count(*) FROM comments")).isEqualTo(150);
            assertThat(count(connection, "SELECT count(*) FROM authors")).isEqualTo(7);
        }
    }

    @Test
    void theWaitIsSetAndBounded() throws Exception {
        LabData.load(server, new DataSize(10, 1, 2));
        try (Connection connection = server.connect()) {
            LabData.setWait(connection, 250);
            assertThat(count(connection, "SELECT ms FROM lab_wait")).isEqualTo(250);
            assertThatThrownBy(() -> LabData.setWait(connection, -1)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> LabData.setWait(connection, 60_001)).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void badSizesAreRefused() {
        assertThatThrownBy(() -> new DataSize(0, 2, 100)).hasMessageContaining("articles must be");
        assertThatThrownBy(() -> new DataSize(10, -1, 100)).hasMessageContaining("comments per article must be");
        assertThatThrownBy(() -> new DataSize(10, 2, 0)).hasMessageContaining("authors must be");
    }

    static long count(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet rs = statement.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
