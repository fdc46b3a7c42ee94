package io.threadlab.api;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Reads {@code GET /api/fanout}'s query, {@code n} (default 1) and {@code mode} (default {@code parallel}), and
 * refuses what the service will not do. The query values are taken as text, so that a bad one is this service's 400
 * with a JSON body rather than JAX-RS's own 404 for a parameter it cannot convert.
 * <p>
 * {@code n} runs from 1 to {@code lab.fanout.max-calls}, and never beyond the delay client's connection pool: a
 * parallel request with more calls than connections would queue for connections its own calls hold, and so measure
 * the pool instead of the threading model. Many requests at once can still need more connections than the pool has
 * together; that queueing is the pool's to show, as for {@code GET /api}.
 */
@ApplicationScoped
public class FanoutRequests {

    private final int maxCalls;
    private final int connectionPool;

    FanoutRequests(@ConfigProperty(name = "lab.fanout.max-calls") int maxCalls,
                   @ConfigProperty(name = "quarkus.rest-client.delay.connection-pool-size") int connectionPool) {
        this.maxCalls = maxCalls;
        this.connectionPool = connectionPool;
    }

    /** The largest {@code n} this service accepts. */
    public int limit() {
        return Math.min(maxCalls, connectionPool);
    }

    public Fanout parse(String n, String mode) {
        return new Fanout(calls(n), mode(mode));
    }

    private int calls(String raw) {
        if (raw == null || raw.isBlank()) {
            return 1;
        }
        int calls;
        try {
            calls = Integer.parseInt(raw.trim());
        } catch (NumberFormatException e) {
            throw badCalls(raw);
        }
        if (calls < 1 || calls > limit()) {
            throw badCalls(raw);
        }
        return calls;
    }

    private BadRequest badCalls(String raw) {
        String why = maxCalls <= connectionPool ? "lab.fanout.max-calls is " + maxCalls
                : "the delay client's connection pool holds " + connectionPool + " (lab.fanout.max-calls is "
                + maxCalls + ")";
        return new BadRequest("n must be an integer from 1 to " + limit(), "n=" + raw + " was given; " + why);
    }

    private static Fanout.Mode mode(String raw) {
        if (raw == null || raw.isBlank()) {
            return Fanout.Mode.PARALLEL;
        }
        for (Fanout.Mode mode : Fanout.Mode.values()) {
            if (mode.label().equals(raw.trim())) {
                return mode;
            }
        }
        throw new BadRequest("mode must be parallel or sequential", "mode=" + raw + " was given");
    }
}
