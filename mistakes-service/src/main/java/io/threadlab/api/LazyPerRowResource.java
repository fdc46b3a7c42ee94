package io.threadlab.api;

import io.threadlab.api.orm.LazyPerRowRepository;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * Mistake: N+1 through Hibernate ORM. The page read with a statement per row for what each article's comments and
 * author need (LazyPerRowRepository), on the worker pool, as the control reads it right
 * ({@code /api/articles?access=orm}: three statements). Nothing fails and nothing is logged but, once, its SQL
 * (FirstPageSql): the request holds its worker and its pooled connection for some 200 round trips to PostgreSQL.
 */
@Path("/mistakes/orm/n-plus-one")
@Produces(MediaType.APPLICATION_JSON)
public class LazyPerRowResource {

    @Inject
    LazyPerRowRepository articles;

    @GET
    public ArticlesReply newestPage() {
        ApiReply.ServedBy servedBy = ApiReply.ServedBy.currentThread();
        return new ArticlesReply(articles.newestPage(), servedBy);
    }
}
