package io.threadlab.api;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import io.vertx.sqlclient.ClosedConnectionException;
import io.vertx.sqlclient.DatabaseException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.net.ConnectException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;

/**
 * THE page through the reactive PostgreSQL client (Vert.x) and its pool: the query is sent, and the rows arrive later
 * as an event on the event loop; no thread waits meanwhile.
 */
@ApplicationScoped
public class ArticleRepository {

    /** The file's text as it is: {@code $1} is PostgreSQL's own placeholder, which this client sends unchanged. */
    private static final String SQL = ArticlePageQuery.sql();

    /**
     * The Vert.x pool's only sign that no connection came within its connectionTimeout: an exception of no type of its
     * own, with this text (SqlConnectionPool, vertx-sql-client 4.5).
     */
    private static final String NO_CONNECTION_IN_TIME = "Timeout waiting for connection";

    @Inject
    Pool pool;

    public Uni<List<Article>> newestPage() {
        return pool.preparedQuery(SQL).execute(Tuple.of(ArticlePageQuery.PAGE_SIZE))
                .map(ArticleRepository::articles)
                .onFailure().transform(ArticleRepository::failure);
    }

    private static List<Article> articles(RowSet<Row> rows) {
        ArticlePage page = new ArticlePage();
        for (Row row : rows) {
            page.add(new ArticleRow(row.getInteger("article_id"), row.getString("title"), row.getString("body"),
                    instant(row.getOffsetDateTime("published_at")), row.getInteger("author_id"),
                    row.getString("author_name"), row.getString("author_email"), row.getInteger("comment_id"),
                    row.getString("comment_author"), row.getString("comment_body"),
                    instant(row.getOffsetDateTime("comment_created_at"))));
        }
        return page.articles();
    }

    private static Instant instant(OffsetDateTime time) {
        return time == null ? null : time.toInstant();
    }

    /**
     * A failure of the pool or of the database, as DatabaseFailures reads it; public for Hibernate Reactive, which
     * reads through this same pool and passes its failures on (io.threadlab.api.orm.ArticleRepository).
     */
    public static Throwable failure(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof DatabaseException answer) {
                return DatabaseFailures.answered(answer.getSqlState(), e);
            }
            if (t instanceof ConnectException || t instanceof ClosedConnectionException) {
                return DatabaseFailures.unreachable(e);
            }
            if (NO_CONNECTION_IN_TIME.equals(t.getMessage())) {
                return DatabaseFailures.noConnectionInTime(e);
            }
        }
        return e;
    }
}
