package io.threadlab.api;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import java.util.List;

/**
 * The control, imperative on Quarkus REST: a method with a blocking signature runs on the worker pool
 * ({@code executor-thread-N}), and the thread waits for the whole query over JDBC, or through Hibernate ORM
 * ({@code ?access=orm}), as in the imperative variant.
 */
@Path("/api/articles")
@Produces(MediaType.APPLICATION_JSON)
public class ArticleResource {

    @Inject
    ArticleRepository articles;

    @Inject
    HibernatePage<List<Article>> hibernate;

    @GET
    public ArticlesReply newestPage(@QueryParam("access") String access) {
        ApiReply.ServedBy servedBy = ApiReply.ServedBy.currentThread();
        List<Article> page = switch (DataAccess.requested(access)) {
            case JDBC -> articles.newestPage();
            case ORM -> hibernate.newestPage();
        };
        return new ArticlesReply(page, servedBy);
    }
}
