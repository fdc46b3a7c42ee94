package io.threadlab.api;

import io.smallrye.common.annotation.RunOnVirtualThread;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * Virtual threads: {@code @RunOnVirtualThread} runs each request on a new virtual thread
 * ({@code quarkus-virtual-thread-N}). The code blocks as in the imperative variant, but blocking unmounts the virtual
 * thread and frees its carrier.
 */
@Path("/api")
@Produces(MediaType.APPLICATION_JSON)
public class ApiResource {

    @RestClient
    DelayClient delay;

    @GET
    @RunOnVirtualThread
    public ApiReply call() {
        ApiReply.ServedBy servedBy = ApiReply.ServedBy.currentThread();
        return new ApiReply(delay.delay().message(), servedBy);
    }
}
