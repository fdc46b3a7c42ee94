package io.threadlab.api;

import io.smallrye.common.annotation.NonBlocking;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * Mistake: a blocking call on the event loop. {@code @NonBlocking} runs the method on the event loop, as the reactive
 * variant's {@code Uni} method runs, but the downstream call is a legacy blocking client that Quarkus cannot detect:
 * each event loop ({@code vert.x-eventloop-thread-N}, two per CPU) is held for the whole 10 ms wait, so the service
 * serves at most one request per event loop per 10 ms, and every other connection on that loop waits too. Vert.x
 * would log a blocked-thread warning only past 2 s per task (quarkus.vertx.max-event-loop-execute-time): at 10 ms a
 * task it says nothing.
 */
@Path("/mistakes/blocking-event-loop")
@Produces(MediaType.APPLICATION_JSON)
public class BlockingEventLoopResource {

    @Inject
    LegacyDelayClient delay;

    @GET
    @NonBlocking
    public ApiReply call() {
        ApiReply.ServedBy servedBy = ApiReply.ServedBy.currentThread();
        return new ApiReply(delay.delay().message(), servedBy);
    }
}
