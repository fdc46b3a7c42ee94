package io.threadlab.api;

/**
 * THE page through Hibernate ({@code GET /api/articles?access=orm}, {@code orm.ArticleRepository}), as the variant's
 * threads get it: the page itself where threads may block (Hibernate ORM), a {@code Uni} of it on the event loop
 * (Hibernate Reactive).
 * <p>
 * An interface because one build has no Hibernate to read with: the reactive service on Quarkus 3.27, which publishes
 * no Hibernate Reactive, leaves {@code io.threadlab.api.orm} out of its build (its pom.xml). There no bean has this
 * type: its ArticleResource answers {@code ?access=orm} 501, and /lab/runtime lists jdbc alone.
 */
public interface HibernatePage<P> {

    P newestPage();

    /**
     * How many query plans Hibernate holds, as /lab/runtime reports them: once the page has been read, reading it again
     * plans nothing new. A statement whose plan Hibernate cannot find again is planned and stored on every request,
     * each plan under the same hash (its SQL's), which is what orm.PageQueries#WAIT says.
     */
    int queryPlans();
}
