package io.threadlab.api;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import org.eclipse.microprofile.rest.client.annotation.RegisterProvider;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/**
 * The delay service, with both of the variants' signatures: each mistake calls it the way the variant it spoils
 * does. One interface, so one connection pool, sized by the same knob as everywhere.
 */
@Path("/delay")
@RegisterRestClient(configKey = "delay")
@RegisterProvider(DownstreamStatusMapper.class)
public interface DelayClient {

    /** Blocking: the calling worker or virtual thread waits for the reply (a virtual thread unmounted). */
    @GET
    DelayReply delay();

    /** Non-blocking: the call returns a {@code Uni} that the event loop completes when the reply arrives. */
    @GET
    Uni<DelayReply> delayAsync();
}
