package io.threadlab.api;

import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeoutException;

/**
 * Every downstream failure becomes a JSON error in one place: refused or reset connections are 502, a reply slower
 * than the read timeout is 504. The classic and the reactive client wrap the same causes differently, so the cause
 * chain is searched.
 */
@Provider
public class DownstreamFailureMapper implements ExceptionMapper<Exception> {

    @Override
    public Response toResponse(Exception e) {
        DownstreamFailure failure = classify(e);
        if (failure == null && e instanceof WebApplicationException web) {
            return web.getResponse(); // JAX-RS's own answers (404, 405, ...) stay as they are
        }
        if (failure == null) {
            return Response.serverError().type(MediaType.APPLICATION_JSON)
                    .entity(Map.of("error", String.valueOf(e))).build();
        }
        Map<String, String> body = new LinkedHashMap<>();
        body.put("error", failure.getMessage());
        body.put("cause", failure.getCause() == null ? null : String.valueOf(rootCause(failure)));
        return Response.status(failure.status()).type(MediaType.APPLICATION_JSON).entity(body).build();
    }

    static DownstreamFailure classify(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof DownstreamFailure failure) {
                return failure;
            }
            if (t instanceof SocketTimeoutException || t instanceof TimeoutException) {
                return new DownstreamFailure(Response.Status.GATEWAY_TIMEOUT,
                        "delay service did not answer within the read timeout", e);
            }
            if (t instanceof ConnectException) {
                return new DownstreamFailure(Response.Status.BAD_GATEWAY, "delay service unreachable", e);
            }
        }
        if (e instanceof ProcessingException) {
            return new DownstreamFailure(Response.Status.BAD_GATEWAY, "delay service call failed", e);
        }
        return null;
    }

    private static Throwable rootCause(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root;
    }
}
