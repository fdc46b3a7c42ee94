package io.threadlab.api;

import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;

/**
 * THE page over JDBC (pgjdbc), through Agroal's pool: the calling thread waits for a pooled connection, for the query
 * and for its rows, blocked in a socket read while PostgreSQL works.
 */
@ApplicationScoped
public class ArticleRepository {

    /** pgjdbc's placeholder: it rewrites {@code ?} into {@code $1} again, so PostgreSQL receives the file's text. */
    private static final String SQL = ArticlePageQuery.sql().replace("$1", "?");

    @Inject
    AgroalDataSource pool;

    public List<Article> newestPage() {
        Connection connection;
        try {
            connection = pool.getConnection();
        } catch (SQLException e) {
            // Agroal's own acquisition timeout carries no SQLSTATE; a connection the database refused does.
            throw e.getSQLState() == null ? DatabaseFailures.noConnectionInTime(e)
                    : DatabaseFailures.answered(e.getSQLState(), e);
        }
        try (connection; PreparedStatement query = connection.prepareStatement(SQL)) {
            query.setInt(1, ArticlePageQuery.PAGE_SIZE);
            try (ResultSet rows = query.executeQuery()) {
                ArticlePage page = new ArticlePage();
                while (rows.next()) {
                    page.add(row(rows));
                }
                return page.articles();
            }
        } catch (SQLException e) {
            throw DatabaseFailures.answered(e.getSQLState(), e);
        }
    }

    private static ArticleRow row(ResultSet rows) throws SQLException {
        return new ArticleRow(rows.getInt("article_id"), rows.getString("title"), rows.getString("body"),
                instant(rows.getObject("published_at", OffsetDateTime.class)), rows.getInt("author_id"),
                rows.getString("author_name"), rows.getString("author_email"),
                rows.getObject("comment_id", Integer.class), rows.getString("comment_author"),
                rows.getString("comment_body"), instant(rows.getObject("comment_created_at", OffsetDateTime.class)));
    }

    private static Instant instant(OffsetDateTime time) {
        return time == null ? null : time.toInstant();
    }
}
