package io.threadlab.api;

import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A request the service will not serve as asked (a fan-out it will not make, a data access it does not know): HTTP 400
 * with the JSON body of every other error, {@code {"error", "cause"}}, here what is allowed and what was given. It
 * carries its own response, which JAX-RS sends as it is (DownstreamFailureMapper passes JAX-RS's own answers on
 * unchanged).
 */
public class BadRequest extends WebApplicationException {

    public BadRequest(String error, String cause) {
        super(error, Response.status(Response.Status.BAD_REQUEST).type(MediaType.APPLICATION_JSON)
                .entity(body(error, cause)).build());
    }

    private static Map<String, String> body(String error, String cause) {
        Map<String, String> body = new LinkedHashMap<>();
        body.put("error", error);
        body.put("cause", cause);
        return body;
    }
}
