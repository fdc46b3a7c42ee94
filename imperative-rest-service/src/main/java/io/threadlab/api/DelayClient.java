package io.threadlab.api;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import org.eclipse.microprofile.rest.client.annotation.RegisterProvider;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/** The delay service, with a blocking signature: the calling worker thread waits for the reply. */
@Path("/delay")
@RegisterRestClient(configKey = "delay")
@RegisterProvider(DownstreamStatusMapper.class)
public interface DelayClient {

    @GET
    DelayReply delay();
}
