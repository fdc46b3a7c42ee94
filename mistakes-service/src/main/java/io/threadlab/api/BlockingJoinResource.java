package io.threadlab.api;

import io.smallrye.common.annotation.NonBlocking;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.rest.client.inject.RestClient;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Mistake: a blocking join on the event loop. The reactive variant's fan-out ({@code GET /api/fanout}) makes its
 * calls with the Quarkus REST client's {@code Uni} signature and combines them; this one makes the same calls from a
 * method that {@code @NonBlocking} puts on the event loop, and then waits for their replies, as code written for
 * threads does. Mutiny refuses the obvious wait, {@code await()}, on an event loop (IllegalStateException: "The current
 * thread cannot be blocked"), so the wait is a {@code CompletableFuture}'s, which nothing checks.
 * <p>
 * It never ends by itself: the client sends each request and delivers its reply on the calling event loop, the very
 * thread that is waiting, so neither happens while it waits (measured: the delay service saw no call at all), and the
 * client's own timeouts are timers of that loop too. Every other connection on the loop waits with it. Here the wait
 * is bounded, as long as one call may take by the client's own timeouts (connect, then read): then the request is
 * answered 503 and its calls are cancelled. Vert.x logs a blocked-thread warning once that is past 2 s
 * (quarkus.vertx.max-event-loop-execute-time), which the lab's 6 s is.
 */
@Path("/mistakes/fanout/blocking-join")
@Produces(MediaType.APPLICATION_JSON)
public class BlockingJoinResource {

    @RestClient
    DelayClient delay;

    @Inject
    FanoutRequests requests;

    @ConfigProperty(name = "quarkus.rest-client.delay.connect-timeout")
    long connectTimeoutMs;

    @ConfigProperty(name = "quarkus.rest-client.delay.read-timeout")
    long readTimeoutMs;

    @GET
    @NonBlocking
    public FanoutReply fanout(@QueryParam("n") String n, @QueryParam("mode") String mode) throws InterruptedException {
        ApiReply.ServedBy servedBy = ApiReply.ServedBy.currentThread();
        Fanout fanout = requests.parse(n, mode);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(connectTimeoutMs + readTimeoutMs);
        List<CompletableFuture<DelayReply>> replies = new ArrayList<>(fanout.calls());
        List<String> messages = new ArrayList<>(fanout.calls());
        try {
            if (fanout.parallel()) {
                for (int i = 0; i < fanout.calls(); i++) {
                    replies.add(delay.delayAsync().subscribeAsCompletionStage());
                }
                for (CompletableFuture<DelayReply> reply : replies) {
                    messages.add(join(reply, deadline));
                }
            } else {
                for (int i = 0; i < fanout.calls(); i++) {
                    CompletableFuture<DelayReply> reply = delay.delayAsync().subscribeAsCompletionStage();
                    replies.add(reply);
                    messages.add(join(reply, deadline));
                }
            }
        } catch (TimeoutException e) {
            replies.forEach(reply -> reply.cancel(false));
            throw new DownstreamFailure(Response.Status.SERVICE_UNAVAILABLE,
                    "the event loop waited for replies that only it could deliver", new TimeoutException(
                    servedBy.thread() + " blocked " + (connectTimeoutMs + readTimeoutMs) + " ms (the connect and read"
                            + " timeouts together) joining " + replies.size() + " of " + fanout.calls() + " calls"));
        }
        return new FanoutReply(fanout, messages, servedBy);
    }

    /** Blocks the event loop until the reply or the deadline. */
    private static String join(CompletableFuture<DelayReply> reply, long deadline)
            throws InterruptedException, TimeoutException {
        try {
            return reply.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS).message();
        } catch (ExecutionException e) {
            // A failed call fails the request with its own exception, as it would have on the request's thread.
            throw e.getCause() instanceof RuntimeException failure ? failure : new IllegalStateException(e.getCause());
        }
    }
}
