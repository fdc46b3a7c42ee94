package io.threadlab.api;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * Reactive: Quarkus REST runs a method returning {@code Uni} on the event loop ({@code vert.x-eventloop-thread-N}).
 * The method returns at once; the reply is written when the downstream answers, and no thread waits meanwhile.
 */
@Path("/api")
@Produces(MediaType.APPLICATION_JSON)
public class ApiResource {

    @RestClient
    DelayClient delay;

    @GET
    public Uni<ApiReply> call() {
        ApiReply.ServedBy servedBy = ApiReply.ServedBy.currentThread();
        return delay.delay().map(reply -> new ApiReply(reply.message(), servedBy));
    }
}
