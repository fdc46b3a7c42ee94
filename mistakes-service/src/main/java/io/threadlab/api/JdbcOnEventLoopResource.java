package io.threadlab.api;

import io.smallrye.common.annotation.NonBlocking;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * Mistake: JDBC on the event loop. The JDBC variants' own query code ({@link ArticleRepository}), run by a method that
 * {@code @NonBlocking} puts on the event loop, where the reactive variant's {@code Uni} method runs. Quarkus 3.27 lets
 * it happen: its guard against blocking an IO thread (BlockingOperationControl) makes Hibernate ORM's session and
 * {@code @Transactional} methods refuse with BlockingOperationNotAllowedException, but a plain DataSource never asks
 * it (neither quarkus-agroal 3.27.2, Agroal 2.8 nor pgjdbc refer to it). So no exception: the event loop waits for a
 * pooled connection, then in pgjdbc's socket read for the whole query
 * (lab_wait and PostgreSQL's work), and every other connection on that loop waits with it. Vert.x warns about a
 * blocked thread only past 2 s (quarkus.vertx.max-event-loop-execute-time): a 10 ms query collapses the throughput
 * and logs nothing.
 */
@Path("/mistakes/jdbc-on-event-loop")
@Produces(MediaType.APPLICATION_JSON)
public class JdbcOnEventLoopResource {

    @Inject
    ArticleRepository articles;

    @GET
    @NonBlocking
    public ArticlesReply newestPage() {
        ApiReply.ServedBy servedBy = ApiReply.ServedBy.currentThread();
        return new ArticlesReply(articles.newestPage(), servedBy);
    }
}
