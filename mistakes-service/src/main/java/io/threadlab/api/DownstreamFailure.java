package io.threadlab.api;

import jakarta.ws.rs.core.Response;

/** The delay service failed the call: unreachable or erroring (502), or slower than the read timeout (504). */
public class DownstreamFailure extends RuntimeException {

    private final Response.Status status;

    public DownstreamFailure(Response.Status status, String message, Throwable cause) {
        super(message, cause);
        this.status = status;
    }

    public Response.Status status() {
        return status;
    }
}
