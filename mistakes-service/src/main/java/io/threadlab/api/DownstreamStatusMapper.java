package io.threadlab.api;

import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.rest.client.ext.ResponseExceptionMapper;

/** An error status from the delay service is a bad gateway for our caller, not our caller's error. */
public class DownstreamStatusMapper implements ResponseExceptionMapper<DownstreamFailure> {

    @Override
    public DownstreamFailure toThrowable(Response response) {
        return new DownstreamFailure(Response.Status.BAD_GATEWAY,
                "delay service answered HTTP " + response.getStatus(), null);
    }
}
