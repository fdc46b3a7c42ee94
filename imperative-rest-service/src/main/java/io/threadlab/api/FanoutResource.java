package io.threadlab.api;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.context.ManagedExecutor;
import org.eclipse.microprofile.rest.client.inject.RestClient;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.IntStream;

/**
 * The control's fan-out, imperative on Quarkus REST: a method with a blocking signature runs on a worker
 * ({@code executor-thread-N}), as in {@link ApiResource}. In parallel, each call is a
 * {@code CompletableFuture.supplyAsync} on Quarkus' {@link ManagedExecutor}, and the request's worker waits for them
 * all, as in the imperative variant: the shape people write. Its trap is left in on purpose and measured: the
 * ManagedExecutor's threads are the worker pool itself, so a request holds n + 1 workers, and its calls queue in the
 * pool behind the requests. Past {@code quarkus.thread-pool.max-threads} / (n + 1) such requests at once, calls wait
 * for a worker; once every worker is a request waiting for its calls, no worker is left to run them (a
 * thread-starvation deadlock, FanoutLimitsTest).
 * <p>
 * What people also forget, the wait's bound, is not left out: the request waits at most as long as one call may
 * take by the client's own timeouts (connect, then read). A call still unfinished by then waited for a worker, and
 * the request is answered 503, the service's own capacity spent, as when no pooled database connection is free; its
 * calls not yet started are cancelled. Without the bound, a starved pool stays starved for good.
 */
@Path("/api/fanout")
@Produces(MediaType.APPLICATION_JSON)
public class FanoutResource {

    @RestClient
    DelayClient delay;

    @Inject
    ManagedExecutor workers;

    @Inject
    FanoutRequests requests;

    @ConfigProperty(name = "quarkus.rest-client.delay.connect-timeout")
    long connectTimeoutMs;

    @ConfigProperty(name = "quarkus.rest-client.delay.read-timeout")
    long readTimeoutMs;

    @GET
    public FanoutReply fanout(@QueryParam("n") String n, @QueryParam("mode") String mode) throws InterruptedException {
        ApiReply.ServedBy servedBy = ApiReply.ServedBy.currentThread();
        Fanout fanout = requests.parse(n, mode);
        List<String> messages = fanout.parallel() ? parallel(fanout.calls()) : sequential(fanout.calls());
        return new FanoutReply(fanout, messages, servedBy);
    }

    private List<String> parallel(int calls) throws InterruptedException {
        List<CompletableFuture<String>> replies = IntStream.range(0, calls)
                .mapToObj(i -> CompletableFuture.supplyAsync(() -> delay.delay().message(), workers))
                .toList();
        long waitMs = connectTimeoutMs + readTimeoutMs;
        try {
            CompletableFuture.allOf(replies.toArray(CompletableFuture[]::new)).get(waitMs, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            long unfinished = replies.stream().filter(reply -> !reply.isDone()).count();
            replies.forEach(reply -> reply.cancel(false)); // a call still queued is skipped when a worker takes it
            throw new DownstreamFailure(Response.Status.SERVICE_UNAVAILABLE, "the fan-out's calls waited for a worker",
                    new TimeoutException(unfinished + " of " + calls + " calls unfinished after " + waitMs
                            + " ms, longer than the connect and read timeouts let a call take: they waited to start,"
                            + " for a worker (busy ones included requests waiting for their own calls) or a pooled"
                            + " connection"));
        } catch (ExecutionException e) {
            // A failed call fails the request with its own exception, as it would have on the request's thread.
            throw e.getCause() instanceof RuntimeException failure ? failure : new IllegalStateException(e.getCause());
        }
        return replies.stream().map(CompletableFuture::join).toList();
    }

    private List<String> sequential(int calls) {
        List<String> messages = new ArrayList<>(calls);
        for (int i = 0; i < calls; i++) {
            messages.add(delay.delay().message());
        }
        return messages;
    }
}
