package io.threadlab.api;

import jakarta.ws.rs.core.Response;

/**
 * What a failure of the lab's database means to the caller, decided once for both database clients and for Hibernate
 * over either (io.threadlab.api.orm), which only find out what happened (the SQLSTATE PostgreSQL answered, or that no
 * connection came); DownstreamFailureMapper writes it as JSON, as it does the delay service's failures.
 * <ul>
 * <li>the database unreachable: refused, lost, or shutting down (SQLSTATE 08..., 57P...): 502, as the delay service
 * down;</li>
 * <li>no pooled connection within the acquisition timeout: 503. The database did not fail: this service is out of
 * capacity, its pool being the ceiling of its requests in the database at once, and a caller may come back;</li>
 * <li>PostgreSQL out of connection slots (53300, its max_connections): 503 too, a capacity the lab sizes (the pools
 * of all the JVMs that share the server), refused at once rather than queued;</li>
 * <li>the query cancelled by the statement timeout (57014): 504, as the delay service slower than the read
 * timeout;</li>
 * <li>any other error the database answers: 502, as the delay service answering an error.</li>
 * </ul>
 */
public final class DatabaseFailures {

    private DatabaseFailures() {
    }

    public static DownstreamFailure unreachable(Throwable cause) {
        return new DownstreamFailure(Response.Status.BAD_GATEWAY, "database unreachable", cause);
    }

    public static DownstreamFailure noConnectionInTime(Throwable cause) {
        return new DownstreamFailure(Response.Status.SERVICE_UNAVAILABLE,
                "no database connection free within the acquisition timeout", cause);
    }

    public static DownstreamFailure answered(String sqlState, Throwable cause) {
        String state = sqlState == null ? "" : sqlState;
        if (state.startsWith("08") || state.startsWith("57P")) {
            return unreachable(cause);
        }
        return switch (state) {
            case "53300" -> new DownstreamFailure(Response.Status.SERVICE_UNAVAILABLE,
                    "database refused a connection: too many clients (max_connections)", cause);
            case "57014" -> new DownstreamFailure(Response.Status.GATEWAY_TIMEOUT,
                    "database did not answer within the statement timeout", cause);
            default -> new DownstreamFailure(Response.Status.BAD_GATEWAY,
                    "database query failed (SQLSTATE " + (state.isEmpty() ? "none" : state) + ")", cause);
        };
    }
}
