package io.threadlab.api;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * Imperative: classic RESTEasy runs every resource method on the worker pool ({@code executor-thread-N}), and the
 * thread stays blocked in a socket read for the whole query over JDBC.
 */
@Path("/api/articles")
@Produces(MediaType.APPLICATION_JSON)
public class ArticleResource {

    @Inject
    ArticleRepository articles;

    @GET
    public ArticlesReply newestPage() {
        ApiReply.ServedBy servedBy = ApiReply.ServedBy.currentThread();
        return new ArticlesReply(articles.newestPage(), servedBy);
    }
}
