package io.threadlab.api;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * The control, imperative on Quarkus REST: a method with a blocking signature runs on the worker pool
 * ({@code executor-thread-N}), and the thread waits for the whole query over JDBC, as in the imperative variant.
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
