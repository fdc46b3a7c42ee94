package io.threadlab.api;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import java.util.List;

/**
 * Imperative: classic RESTEasy runs every resource method on the worker pool ({@code executor-thread-N}), and the
 * thread stays blocked in a socket read for the whole query over JDBC, or through Hibernate ORM
 * ({@code ?access=orm}), which blocks in the same JDBC.
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
