package io.threadlab.api;

import io.quarkus.runtime.BlockingOperationNotAllowedException;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.util.List;

/**
 * Mistake: Hibernate ORM on the event loop. The JDBC variants' page through Hibernate ORM (their
 * orm.ArticleRepository), called from a method returning {@code Uni}, which Quarkus REST runs on the event loop, as the
 * reactive variant's. Unlike JDBC there (JdbcOnEventLoopResource), Quarkus refuses it at once, before any work: the
 * repository's {@code @Transactional} first ("Cannot start a JTA transaction from the IO thread."), and without it
 * Hibernate ORM's session, which checks BlockingOperationControl on every call. Either throws
 * BlockingOperationNotAllowedException, so no connection is taken and no SQL is sent, and Quarkus REST logs at ERROR,
 * for every request, that the method wants {@code @Blocking}. The service's catch-all would answer a bare 500
 * ({@code {"error": "..."}}); this one says what happened, with Quarkus' own exception as the cause.
 */
@Path("/mistakes/orm/on-event-loop")
@Produces(MediaType.APPLICATION_JSON)
public class OrmOnEventLoopResource {

    @Inject
    HibernatePage<List<Article>> articles;

    @GET
    public Uni<ArticlesReply> newestPage() {
        ApiReply.ServedBy servedBy = ApiReply.ServedBy.currentThread();
        return Uni.createFrom().item(() -> new ArticlesReply(articles.newestPage(), servedBy))
                .onFailure(BlockingOperationNotAllowedException.class)
                .transform(e -> new DownstreamFailure(Response.Status.INTERNAL_SERVER_ERROR,
                        "Quarkus refused to run Hibernate ORM on the event loop", e));
    }
}
