package io.threadlab.api.orm;

import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import io.threadlab.api.ArticlePageQuery;
import io.threadlab.api.FirstPageSql;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import java.util.List;

/**
 * Mistake: the page through Hibernate ORM as it is written when nobody reads its SQL. The same wait, the same articles
 * in the same order and page, then the variants' own mapping (EntityPage), but the articles are read alone: their
 * comments and authors are lazy associations, and Hibernate loads each where the mapping touches it, one statement
 * per article for its comments and one per author not loaded yet. The newest 100 articles have 100 authors, so the
 * page costs 1 + 1 + 100 + 100 statements, each a round trip on the request's connection, where the variants'
 * orm.ArticleRepository sends 3; the JSON is the same. Batch fetching would fold each hundred into a few statements
 * (quarkus.hibernate-orm.fetch.batch-size), which the lab leaves off so that a page reads only what its code says.
 */
@ApplicationScoped
public class LazyPerRowRepository implements PanacheRepositoryBase<Article, Integer> {

    /** The name its first page's SQL is logged under (FirstPageSql), apart from the variants' page. */
    public static final String PAGE = "orm-n-plus-one";

    /** PageQueries.NEWEST_ARTICLES without its fetch join. */
    private static final String NEWEST_ARTICLES_ALONE = "from Article a order by a.publishedAt desc, a.id desc";

    @Inject
    FirstPageSql firstPageSql;

    /** In a transaction, as the variants' page: one pooled connection for all its statements. */
    @Transactional
    public List<io.threadlab.api.Article> newestPage() {
        FirstPageSql.Recording recording = firstPageSql.begin(PAGE);
        boolean read = false;
        try {
            getSession().createNativeMutationQuery(PageQueries.WAIT).executeUpdate();
            List<Article> page = find(NEWEST_ARTICLES_ALONE).page(0, ArticlePageQuery.PAGE_SIZE).list();
            List<Comment> comments = page.stream().flatMap(article -> article.getComments().stream()).toList();
            List<io.threadlab.api.Article> articles = EntityPage.of(page, comments);
            read = true;
            return articles;
        } catch (RuntimeException e) {
            throw ArticleRepository.failure(e);
        } finally {
            recording.end(read);
        }
    }
}
