package io.threadlab.api.orm;

/**
 * THE page through Hibernate, in three statements on one pooled connection, the same in Hibernate ORM and Hibernate
 * Reactive: the server-side wait, the newest articles with their authors, then their comments. The JDBC path sends one
 * ({@code article-page.sql}); these cost two more round trips (and Hibernate ORM's transaction its COMMIT, see
 * ArticleRepository), and their rows are the same.
 * <p>
 * The wait first, as a native statement of its own: {@code article-page.sql} waits {@code lab_wait.ms} once, in a
 * MATERIALIZED CTE that an uncorrelated EXISTS reads, and HQL has no such form (no CTE around pg_sleep, no function
 * call PostgreSQL is bound to evaluate exactly once). Its own statement waits exactly once per page, visibly, at the
 * price of one round trip; the alternative, the page query itself as a native query mapped onto the entities, would not
 * be Hibernate's way of reading the page.
 * <p>
 * No N+1, the way a team that reads its SQL does it: the articles with their authors in one query (a fetch join of a
 * to-one association, so the page's LIMIT stays in SQL), then every comment of those articles in one query (their ids
 * bound as one IN list). Not one query fetching the comments too: a collection fetch join with a page limit makes
 * Hibernate read every row and cut the page in memory (HHH90003004), which the services turn into an error
 * (quarkus.hibernate-orm.query.fail-on-pagination-over-collection-fetch). Not batch fetching either: it is off
 * (quarkus.hibernate-orm.fetch.batch-size=-1), so that nothing but these queries reads the page.
 */
final class PageQueries {

    /**
     * The page query's wait alone: pg_sleep performed once, for lab_wait's one row, in a statement that returns
     * nothing (executed as an update). Hibernate keys a plan for a statement that returns rows by its result mapping,
     * and for this one no request found the plan the last one stored: typed ({@code Integer.class}) in Hibernate ORM
     * 7.2, whose result builder for it has no equals, and typed or not in Hibernate Reactive 3.2. Every request then
     * planned and stored it again, every plan under the one hash of its SQL: one bin of the plan cache's map, a tree
     * that each lookup searched through and each store locked. Through Hibernate at 300 users, a quarter of the
     * imperative JVM's CPU samples were in those comparisons, and its threads waited on that bin's lock 36 times the
     * window's length (database-heldout-orm-pool30's recordings). A statement that returns nothing is keyed by its SQL
     * alone, and found (OrmArticlesTest#aPageReadAgainPlansNothingNew).
     */
    static final String WAIT = "DO $$ BEGIN PERFORM pg_sleep(ms / 1000.0) FROM lab_wait; END $$";

    /** The newest articles with their authors, in the page's order; the page size is set on the query. */
    static final String NEWEST_ARTICLES = "from Article a join fetch a.author order by a.publishedAt desc, a.id desc";

    /** The comments of the page's articles (parameter {@code page}), by article, oldest first. */
    static final String THEIR_COMMENTS = "from Comment c where c.article in :page order by c.article.id, c.id";

    private PageQueries() {
    }
}
