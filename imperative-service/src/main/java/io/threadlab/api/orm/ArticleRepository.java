package io.threadlab.api.orm;

import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import io.threadlab.api.ArticlePageQuery;
import io.threadlab.api.DataAccess;
import io.threadlab.api.DatabaseFailures;
import io.threadlab.api.FirstPageSql;
import io.threadlab.api.HibernatePage;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import org.hibernate.SessionFactory;
import org.hibernate.engine.spi.SessionFactoryImplementor;

import java.sql.SQLException;
import java.util.List;

/**
 * THE page through Hibernate ORM with Panache ({@link PageQueries}), on the calling thread, a worker or a virtual
 * thread: it blocks in JDBC as io.threadlab.api.ArticleRepository's query does, on a connection of the same pool
 * (Agroal's, the default datasource: Hibernate has none of its own).
 * <p>
 * In a transaction, though the page only reads: it is how Hibernate ORM holds one pooled connection for the page, from
 * its first statement to the commit, as the JDBC path holds one for its query, and gives it back before the reply is
 * written. Without one, Quarkus' request-scoped session runs each statement in autocommit and returns the connection
 * after each (Agroal counted three acquisitions per page): a request would queue in the pool once per statement. The
 * price is one round trip, the COMMIT; pgjdbc sends the BEGIN with the first statement.
 */
@ApplicationScoped
public class ArticleRepository implements PanacheRepositoryBase<Article, Integer>,
        HibernatePage<List<io.threadlab.api.Article>> {

    @Inject
    FirstPageSql firstPageSql;

    @Inject
    SessionFactory sessionFactory;

    @Override
    @Transactional
    public List<io.threadlab.api.Article> newestPage() {
        FirstPageSql.Recording recording = firstPageSql.begin(DataAccess.ORM.label());
        boolean read = false;
        try {
            getSession().createNativeMutationQuery(PageQueries.WAIT).executeUpdate();
            List<Article> page = find(PageQueries.NEWEST_ARTICLES).page(0, ArticlePageQuery.PAGE_SIZE).list();
            List<Comment> comments = getSession().createSelectionQuery(PageQueries.THEIR_COMMENTS, Comment.class)
                    .setParameter("page", page).getResultList();
            List<io.threadlab.api.Article> articles = EntityPage.of(page, comments);
            read = true;
            return articles;
        } catch (RuntimeException e) {
            throw failure(e);
        } finally {
            recording.end(read);
        }
    }

    /** The plans in the plan cache of Hibernate's session factory, the one this repository's sessions come from. */
    @Override
    public int queryPlans() {
        return sessionFactory.unwrap(SessionFactoryImplementor.class).getQueryEngine().getInterpretationCache()
                .getNumberOfCachedQueryPlans();
    }

    /**
     * A failure of the database, as the JDBC query's (DatabaseFailures): Hibernate wraps the driver's or the pool's
     * SQLException, whose SQLSTATE decides. None is Agroal's own acquisition timeout, as in
     * io.threadlab.api.ArticleRepository; pgjdbc always gives one. Anything else is Hibernate's own, passed on.
     */
    static RuntimeException failure(RuntimeException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql) {
                return sql.getSQLState() == null ? DatabaseFailures.noConnectionInTime(e)
                        : DatabaseFailures.answered(sql.getSQLState(), e);
            }
        }
        return e;
    }
}
