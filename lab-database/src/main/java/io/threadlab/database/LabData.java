package io.threadlab.database;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

/**
 * The lab's schema and data: {@code schema.sql} (authors, articles, comments, and the one-row {@code lab_wait}) and
 * {@code data.sql} (every row generated in SQL from the sizes, so every load of the same sizes is identical), both in
 * this module's resources and runnable in psql as they are.
 */
public final class LabData {

    private static final String SCHEMA = resource("schema.sql");
    private static final String DATA = resource("data.sql");

    /**
     * A digest of every row of authors, articles and comments, in id order. Timestamps as epoch seconds: their text
     * would follow the session's time zone, which pgjdbc takes from the JVM.
     */
    private static final String CHECKSUM = """
            SELECT md5(string_agg(part, '' ORDER BY ord)) FROM (
                SELECT 1 AS ord,
                       md5(coalesce(string_agg(concat_ws('|', id, name, email), E'\\n' ORDER BY id), '')) AS part
                FROM authors
                UNION ALL
                SELECT 2, md5(coalesce(string_agg(concat_ws('|', id, author_id, title, body,
                       extract(epoch FROM published_at)), E'\\n' ORDER BY id), ''))
                FROM articles
                UNION ALL
                SELECT 3, md5(coalesce(string_agg(concat_ws('|', id, article_id, author_name, body,
                       extract(epoch FROM created_at)), E'\\n' ORDER BY id), ''))
                FROM comments
            ) AS parts""";

    private LabData() {
    }

    /** Makes the schema and loads the data on a connection of its own. */
    public static LoadedData load(PostgresServer server, DataSize size) throws SQLException {
        try (Connection connection = server.connect()) {
            return load(connection, size);
        }
    }

    /**
     * Drops and makes the schema and loads the data in one transaction; then freezes and analyses the tables and
     * checkpoints, so that no measured query pays for what a first read of new rows costs (hint bits written back),
     * for statistics gathered by autovacuum, or for a checkpoint of the load. {@code lab_wait} starts at 0 ms.
     */
    public static LoadedData load(Connection connection, DataSize size) throws SQLException {
        long start = System.nanoTime();
        boolean autoCommit = connection.getAutoCommit();
        connection.setAutoCommit(false);
        try (Statement statement = connection.createStatement();
             PreparedStatement sizes = connection.prepareStatement("SELECT set_config(?, ?, true)")) {
            statement.execute(SCHEMA);
            setting(sizes, "lab.authors", size.authors());
            setting(sizes, "lab.articles", size.articles());
            setting(sizes, "lab.comments_per_article", size.commentsPerArticle());
            statement.execute(DATA);
            connection.commit();
        } catch (SQLException | RuntimeException e) {
            connection.rollback();
            throw e;
        } finally {
            connection.setAutoCommit(autoCommit);
        }
        try (Statement statement = connection.createStatement()) {
            statement.execute("VACUUM (FREEZE, ANALYZE) authors, articles, comments, lab_wait");
            statement.execute("CHECKPOINT");
        }
        Duration loadTime = Duration.ofNanos(System.nanoTime() - start);
        return new LoadedData(size, checksum(connection), loadTime);
    }

    private static void setting(PreparedStatement sizes, String name, int value) throws SQLException {
        sizes.setString(1, name);
        sizes.setString(2, String.valueOf(value));
        sizes.execute();
    }

    /** The digest of the data: the same for the same sizes, on every load. */
    public static String checksum(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet rs = statement.executeQuery(CHECKSUM)) {
            rs.next();
            return rs.getString(1);
        }
    }

    /** Sets how long the page query waits server-side, as the runner does between windows. */
    public static void setWait(Connection connection, int ms) throws SQLException {
        if (ms < 0 || ms > 60_000) {
            throw new IllegalArgumentException("the wait must be 0 to 60000 ms, not " + ms);
        }
        try (PreparedStatement update = connection.prepareStatement("UPDATE lab_wait SET ms = ?")) {
            update.setInt(1, ms);
            if (update.executeUpdate() != 1) {
                throw new IllegalStateException("lab_wait must hold exactly one row; load the data first");
            }
        }
    }

    private static String resource(String name) {
        String path = "io/threadlab/database/" + name;
        try (InputStream in = LabData.class.getClassLoader().getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException(path + " is missing from the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
