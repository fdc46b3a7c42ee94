package io.threadlab.api;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * Imperative: classic RESTEasy runs every resource method on the worker pool ({@code executor-thread-N}), and the
 * thread stays blocked in a socket read for the whole downstream call.
 */
@Path("/api")
@Produces(MediaType.APPLICATION_JSON)
public class ApiResource {

    @RestClient
    DelayClient delay;

    @GET
    public ApiReply call() {
        ApiReply.ServedBy servedBy = ApiReply.ServedBy.currentThread();
        return new ApiReply(delay.delay().message(), servedBy);
    }
}
