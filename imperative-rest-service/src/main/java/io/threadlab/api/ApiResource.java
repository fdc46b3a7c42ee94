package io.threadlab.api;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * The control, imperative on Quarkus REST: a method with a blocking signature runs on the worker pool
 * ({@code executor-thread-N}), and the thread waits for the whole downstream call, as in the imperative variant.
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
