package io.threadlab.delay;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import java.util.Map;

/**
 * The downstream of every variant (10 ms unless the runner sets another default). It waits on a Vert.x timer, never on
 * a thread, so that the delay service is never the bottleneck of the experiment nor blocks its own event loop.
 */
@Path("/delay")
@Produces(MediaType.APPLICATION_JSON)
public class DelayResource {

    private final DelayTimer timer;
    private final DelayRequestParser parser;

    DelayResource(DelayTimer timer, DelayRequestParser parser) {
        this.timer = timer;
        this.parser = parser;
    }

    @GET
    public Uni<DelayReply> delay(@QueryParam("ms") String ms) {
        return timer.waitFor(parser.parse(ms));
    }

    /** The wait of a request that gives no {@code ms}. */
    @GET
    @Path("/default")
    public Map<String, Long> currentDefault() {
        return Map.of("defaultMs", parser.defaultMs());
    }

    /** Changes that wait for every later request: {@code PUT /delay/default?ms=300}. */
    @PUT
    @Path("/default")
    public Map<String, Long> changeDefault(@QueryParam("ms") String ms) {
        return Map.of("defaultMs", parser.setDefault(ms));
    }

    /** Bad input is the caller's fault: 400 with a JSON body that says what was wrong. */
    @ServerExceptionMapper
    public Response badDelay(BadDelayException e) {
        return Response.status(Response.Status.BAD_REQUEST)
                .type(MediaType.APPLICATION_JSON)
                .entity(Map.of("error", e.getMessage(), "value", e.value()))
                .build();
    }
}
