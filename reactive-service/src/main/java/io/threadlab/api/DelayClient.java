package io.threadlab.api;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import org.eclipse.microprofile.rest.client.annotation.RegisterProvider;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/** The delay service, with a non-blocking signature: the call returns a {@code Uni} completed by the event loop. */
@Path("/delay")
@RegisterRestClient(configKey = "delay")
@RegisterProvider(DownstreamStatusMapper.class)
public interface DelayClient {

    @GET
    Uni<DelayReply> delay();
}
