package io.threadlab.api.orm;

import io.quarkus.arc.ClientProxy;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.smallrye.mutiny.Uni;
import io.threadlab.api.ArticlePageQuery;
import io.threadlab.api.DataAccess;
import io.threadlab.api.DatabaseFailures;
import io.threadlab.api.FirstPageSql;
import io.threadlab.api.HibernatePage;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.hibernate.reactive.common.spi.Implementor;
import org.hibernate.reactive.mutiny.Mutiny;
import org.hibernate.service.ServiceRegistry;
import org.hibernate.service.spi.SessionFactoryServiceInitiatorContext;

import java.sql.SQLException;
import java.util.List;

/**
 * THE page through Hibernate Reactive with Panache ({@link PageQueries}), on the event loop: each statement is sent,
 * and the next one chained to its reply, through the reactive pool that io.threadlab.api.ArticleRepository's query
 * uses (the reactive datasource's Vert.x pool: Hibernate Reactive has none of its own); no thread waits meanwhile.
 * <p>
 * One pooled connection for the page, as the JDBC path and the variants on Hibernate ORM hold one: a Hibernate
 * Reactive session keeps the connection it took until it closes, when the page is read, so no transaction is needed
 * to hold it ({@code withTransaction} would add a BEGIN and a COMMIT, two round trips). The session is
 * {@code Panache.withSession}'s rather than {@code @WithSession}'s, so that a failure to open it, the pool's, is read
 * below as the queries' failures are.
 */
@ApplicationScoped
public class ArticleRepository implements PanacheRepositoryBase<Article, Integer>,
        HibernatePage<Uni<List<io.threadlab.api.Article>>> {

    /**
     * The Vert.x pool's only sign that no connection came within its connectionTimeout to a caller that asks for a
     * connection, as Hibernate Reactive does: an exception of no type of its own, with this text (SqlConnectionPool's
     * PoolRequest, vertx-sql-client 4.5). A query sent to the pool itself, as the reactive client's, gets another.
     */
    private static final String NO_CONNECTION_IN_TIME = "Timeout";

    @Inject
    FirstPageSql firstPageSql;

    @Inject
    Mutiny.SessionFactory sessionFactory;

    @Override
    public Uni<List<io.threadlab.api.Article>> newestPage() {
        FirstPageSql.Recording recording = firstPageSql.begin(DataAccess.ORM.label());
        return Panache.withSession(() -> getSession().chain(session -> session
                        .createNativeQuery(PageQueries.WAIT).executeUpdate()
                        .chain(() -> find(PageQueries.NEWEST_ARTICLES).<Article>page(0, ArticlePageQuery.PAGE_SIZE)
                                .list())
                        .chain(page -> session.createSelectionQuery(PageQueries.THEIR_COMMENTS, Comment.class)
                                .setParameter("page", page).getResultList()
                                .map(comments -> EntityPage.of(page, comments)))))
                .onTermination().invoke((articles, failure, cancelled) -> recording.end(failure == null && !cancelled))
                .onFailure().transform(ArticleRepository::failure);
    }

    /**
     * The plans in the plan cache of Hibernate ORM's session factory, which Hibernate Reactive's wraps: its API offers
     * no count, and the wrapped factory's service registry, which the wrapper shares, names the factory it serves.
     */
    @Override
    public int queryPlans() {
        ServiceRegistry services = ((Implementor) ClientProxy.unwrap(sessionFactory)).getServiceRegistry();
        if (!(services instanceof SessionFactoryServiceInitiatorContext factory)) {
            throw new IllegalStateException("Hibernate Reactive's session factory shares no session factory's"
                    + " service registry: " + services.getClass().getName());
        }
        return factory.getSessionFactory().getQueryEngine().getInterpretationCache().getNumberOfCachedQueryPlans();
    }

    /**
     * A failure of the database, as the reactive client's (DatabaseFailures): Hibernate Reactive turns the error
     * PostgreSQL answered into an SQLException with its SQLSTATE; the pool's own failures (refused, lost, no
     * connection in time) it passes on as the pool raised them, which the reactive client's repository reads but for
     * the acquisition timeout's text.
     */
    private static Throwable failure(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql) {
                return DatabaseFailures.answered(sql.getSQLState(), e);
            }
            if (NO_CONNECTION_IN_TIME.equals(t.getMessage())) {
                return DatabaseFailures.noConnectionInTime(e);
            }
        }
        return io.threadlab.api.ArticleRepository.failure(e);
    }
}
