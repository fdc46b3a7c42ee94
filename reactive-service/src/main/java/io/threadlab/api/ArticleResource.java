package io.threadlab.api;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reactive: Quarkus REST runs a method returning {@code Uni} on the event loop ({@code vert.x-eventloop-thread-N}).
 * The method returns at once; the reply is written when the rows arrive, and no thread waits meanwhile, whether the
 * reactive client reads them or Hibernate Reactive ({@code ?access=orm}) on that client's pool.
 */
@Path("/api/articles")
@Produces(MediaType.APPLICATION_JSON)
public class ArticleResource {

    @Inject
    ArticleRepository articles;

    /** Hibernate Reactive's page reader, which a build on Quarkus 3.27 has not (HibernatePage). */
    @Inject
    Instance<HibernatePage<Uni<List<Article>>>> hibernate;

    @GET
    public Uni<ArticlesReply> newestPage(@QueryParam("access") String access) {
        ApiReply.ServedBy servedBy = ApiReply.ServedBy.currentThread();
        Uni<List<Article>> page = switch (DataAccess.requested(access)) {
            case JDBC -> articles.newestPage();
            case ORM -> throughHibernate();
        };
        return page.map(newest -> new ArticlesReply(newest, servedBy));
    }

    private Uni<List<Article>> throughHibernate() {
        if (!hibernate.isResolvable()) {
            Map<String, String> body = new LinkedHashMap<>();
            body.put("error", "this build has no Hibernate Reactive");
            body.put("cause", "built on Quarkus 3.27, which publishes no quarkus-hibernate-reactive; ?access=jdbc"
                    + " reads the same page");
            throw new WebApplicationException(Response.status(Response.Status.NOT_IMPLEMENTED)
                    .type(MediaType.APPLICATION_JSON).entity(body).build());
        }
        return hibernate.get().newestPage();
    }
}
