package io.threadlab.api;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * THE query of {@code GET /api/articles}: the lab's page query, kept in lab-database
 * ({@code io/threadlab/database/article-page.sql}) and copied byte for byte into each module's resources, since a
 * module runs alone (VariantParityTest compares every copy with lab-database's). The newest page of articles, each
 * with its author and comments, after waiting {@code lab_wait.ms} server-side once; its one parameter, {@code $1},
 * is the page size. Every variant sends this text: the reactive client as it is, JDBC with pgjdbc's placeholder.
 */
public final class ArticlePageQuery {

    /**
     * The page every variant returns, through either path: the 100 articles of the published comparison the lab
     * follows.
     */
    public static final int PAGE_SIZE = 100;

    private static final String RESOURCE = "article-page.sql";
    private static final String SQL = read();

    private ArticlePageQuery() {
    }

    /** The file's text, with PostgreSQL's own placeholder {@code $1}. */
    static String sql() {
        return SQL;
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
