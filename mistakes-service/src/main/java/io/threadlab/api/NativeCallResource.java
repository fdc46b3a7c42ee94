package io.threadlab.api;

import io.smallrye.common.annotation.RunOnVirtualThread;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.rest.client.inject.RestClient;

import java.time.Duration;

/**
 * Mistake: a blocking native call on a virtual thread. Before its downstream call, each request waits inside a
 * native call ({@link NativeWait}) for as long as the downstream takes. The downstream wait unmounts the virtual
 * thread; the native wait cannot, so it holds the carrier, and with one carrier (a 0.5-CPU container sees one
 * processor) every other virtual thread waits behind it.
 */
@Path("/mistakes/native-call")
@Produces(MediaType.APPLICATION_JSON)
public class NativeCallResource {

    @RestClient
    DelayClient delay;

    @ConfigProperty(name = "lab.mistakes.native-wait-ms")
    long nativeWaitMs;

    @GET
    @RunOnVirtualThread
    public ApiReply call() {
        ApiReply.ServedBy servedBy = ApiReply.ServedBy.currentThread();
        NativeWait.block(Duration.ofMillis(nativeWaitMs));
        return new ApiReply(delay.delay().message(), servedBy);
    }
}
