package io.threadlab.api;

import io.smallrye.common.annotation.RunOnVirtualThread;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * The virtual-thread variant's request, with its blocking downstream call made where a virtual thread might pin its
 * carrier: inside synchronized (no longer pins since JDK 24) and inside a class initialiser (still pins on JDK 25).
 */
@Path("/mistakes/pinning")
@Produces(MediaType.APPLICATION_JSON)
public class PinningResource {

    @RestClient
    DelayClient delay;

    @GET
    @Path("/synchronized")
    @RunOnVirtualThread
    public ApiReply insideSynchronized() {
        ApiReply.ServedBy servedBy = ApiReply.ServedBy.currentThread();
        return new ApiReply(new SynchronizedCall(delay).call().message(), servedBy);
    }

    @GET
    @Path("/class-init")
    @RunOnVirtualThread
    public ApiReply insideClassInit() {
        ApiReply.ServedBy servedBy = ApiReply.ServedBy.currentThread();
        return new ApiReply(ClassInitCall.call(() -> delay.delay()).message(), servedBy);
    }
}
