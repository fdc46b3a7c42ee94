package io.threadlab.api;

import io.smallrye.common.annotation.RunOnVirtualThread;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * The same CPU-heavy request ({@link CpuWork}, about 1 ms of CPU, then the downstream call) on each kind of thread.
 * On worker threads it is the reference: platform threads, time-sliced by the OS, so a long computation delays no
 * one else's I/O. On the event loop it is a mistake: while one request hashes, no other connection of that loop is
 * served. On virtual threads it is a mistake too: the scheduler does not time-slice, so a hashing virtual thread keeps
 * its carrier (one per CPU) until it blocks, and every other virtual thread waits in the queue meanwhile.
 */
@Path("/mistakes/cpu")
@Produces(MediaType.APPLICATION_JSON)
public class CpuResource {

    @RestClient
    DelayClient delay;

    /** Quarkus REST runs a method with a blocking signature on the worker pool ({@code executor-thread-N}). */
    @GET
    @Path("/worker")
    public ApiReply onWorker() {
        ApiReply.ServedBy servedBy = ApiReply.ServedBy.currentThread();
        CpuWork.hash();
        return new ApiReply(delay.delay().message(), servedBy);
    }

    /** A method returning {@code Uni} runs on the event loop: the hashing too, before the non-blocking call. */
    @GET
    @Path("/event-loop")
    public Uni<ApiReply> onEventLoop() {
        ApiReply.ServedBy servedBy = ApiReply.ServedBy.currentThread();
        CpuWork.hash();
        return delay.delayAsync().map(reply -> new ApiReply(reply.message(), servedBy));
    }

    @GET
    @Path("/virtual-thread")
    @RunOnVirtualThread
    public ApiReply onVirtualThread() {
        ApiReply.ServedBy servedBy = ApiReply.ServedBy.currentThread();
        CpuWork.hash();
        return new ApiReply(delay.delay().message(), servedBy);
    }
}
