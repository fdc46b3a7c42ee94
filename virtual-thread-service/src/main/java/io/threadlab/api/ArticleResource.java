package io.threadlab.api;

import io.smallrye.common.annotation.RunOnVirtualThread;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import java.util.List;

/**
 * Virtual threads: {@code @RunOnVirtualThread} runs each request on a new virtual thread
 * ({@code quarkus-virtual-thread-N}). The JDBC code blocks as in the imperative variant, but blocking unmounts the
 * virtual thread and frees its carrier; so does Hibernate ORM's ({@code ?access=orm}), which blocks in the same JDBC.
 */
@Path("/api/articles")
@Produces(MediaType.APPLICATION_JSON)
public class ArticleResource {

    @Inject
    ArticleRepository articles;

    @Inject
    HibernatePage<List<Article>> hibernate;

    @GET
    @RunOnVirtualThread
    public ArticlesReply newestPage(@QueryParam("access") String access) {
        ApiReply.ServedBy servedBy = ApiReply.ServedBy.currentThread();
        List<Article> page = switch (DataAccess.requested(access)) {
            case JDBC -> articles.newestPage();
            case ORM -> hibernate.newestPage();
        };
        return new ArticlesReply(page, servedBy);
    }
}
