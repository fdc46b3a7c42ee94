package io.threadlab.api;

import io.smallrye.common.annotation.RunOnVirtualThread;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * Virtual threads: {@code @RunOnVirtualThread} runs each request on a new virtual thread
 * ({@code quarkus-virtual-thread-N}). The JDBC code blocks as in the imperative variant, but blocking unmounts the
 * virtual thread and frees its carrier.
 */
@Path("/api/articles")
@Produces(MediaType.APPLICATION_JSON)
public class ArticleResource {

    @Inject
    ArticleRepository articles;

    @GET
    @RunOnVirtualThread
    public ArticlesReply newestPage() {
        ApiReply.ServedBy servedBy = ApiReply.ServedBy.currentThread();
        return new ArticlesReply(articles.newestPage(), servedBy);
    }
}
