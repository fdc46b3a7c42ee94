package io.threadlab.api;

import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * Reactive: Quarkus REST runs a method returning {@code Uni} on the event loop ({@code vert.x-eventloop-thread-N}).
 * The method returns at once; the reply is written when the rows arrive, and no thread waits meanwhile.
 */
@Path("/api/articles")
@Produces(MediaType.APPLICATION_JSON)
public class ArticleResource {

    @Inject
    ArticleRepository articles;

    @GET
    public Uni<ArticlesReply> newestPage() {
        ApiReply.ServedBy servedBy = ApiReply.ServedBy.currentThread();
        return articles.newestPage().map(page -> new ArticlesReply(page, servedBy));
    }
}
