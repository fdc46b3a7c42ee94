package io.threadlab.database;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * THE query the services run against the lab's database, kept as one SQL file ({@value #RESOURCE}) so that every
 * service sends the identical text: the newest page of articles with their authors and comments, after waiting
 * {@code lab_wait.ms} server-side once. Its one parameter is the page size, {@code $1}.
 *
 * <p>{@code $1} is PostgreSQL's own placeholder, which the reactive (Vert.x) client sends as it is. pgjdbc takes
 * {@code ?} instead and rewrites each into {@code $n} before sending, so the JDBC services use {@link #jdbcSql()} and
 * PostgreSQL receives the same text from both (ArticlePageQueryTest finds it in the server's log).
 */
public final class ArticlePageQuery {

    /** The file, on the class path and in this module's sources (src/main/resources). */
    public static final String RESOURCE = "io/threadlab/database/article-page.sql";

    /** The page the services return: the 100 articles of the comparison the lab follows. */
    public static final int PAGE_SIZE = 100;

    private static final String SQL = read();

    private ArticlePageQuery() {
    }

    /** The file's text, byte for byte: what PostgreSQL receives, and what a Vert.x client sends. */
    public static String sql() {
        return SQL;
    }

    /** The same with pgjdbc's placeholder, {@code ?}, for {@code $1}. */
    public static String jdbcSql() {
        return SQL.replace("$1", "?");
    }

    private static String read() {
        try (InputStream in = ArticlePageQuery.class.getClassLoader().getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
