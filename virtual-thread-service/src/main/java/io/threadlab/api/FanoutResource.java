package io.threadlab.api;

import io.smallrye.common.annotation.RunOnVirtualThread;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.rest.client.inject.RestClient;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Virtual-thread fan-out: the request runs on a virtual thread ({@code quarkus-virtual-thread-N}), as in
 * {@link ApiResource}. In parallel, each call is forked onto a virtual thread of its own, from an executor made for
 * this request, and the request's virtual thread waits for them all (unmounted, as they are while they wait).
 * <p>
 * Not {@code StructuredTaskScope}, though it is made for exactly this: in JDK 25 it is a preview API (JEP 505, its
 * fifth preview, its shape changed again from JDK 21's), so this module would have to compile for release 25 with
 * {@code --enable-preview} (the lab compiles for 21 and builds on 21 or newer), and every JVM that runs it (the
 * runner's, the images', the tests', quarkus:dev) would need {@code --enable-preview} too: a JVM flag the other
 * variants do not have, and code that breaks with the next JDK. A virtual-thread-per-task executor per request, closed
 * (and so joined) when the request is done, is the final API people write today; it scopes the threads to the request
 * the same way, without the scope's cancellation of the others when one call fails.
 * <p>
 * Nothing bounds the threads, and that is the mistake this shape invites: a request's calls are bounded by {@code n}
 * (FanoutRequests), but requests together start as many calls as they like, and the delay client's connection pool
 * becomes the bound. The calls beyond it wait for a connection, their virtual threads parked, and a call that waits
 * longer than the read timeout fails its request with 504 though the delay service was never slow
 * (FanoutLimitsTest). The fix is a bound of one's own (a {@code Semaphore} sized to the pool) or a pool sized to the
 * requests times their calls.
 */
@Path("/api/fanout")
@Produces(MediaType.APPLICATION_JSON)
public class FanoutResource {

    @RestClient
    DelayClient delay;

    @Inject
    FanoutRequests requests;

    @GET
    @RunOnVirtualThread
    public FanoutReply fanout(@QueryParam("n") String n, @QueryParam("mode") String mode) throws InterruptedException {
        ApiReply.ServedBy servedBy = ApiReply.ServedBy.currentThread();
        Fanout fanout = requests.parse(n, mode);
        List<String> messages = fanout.parallel() ? parallel(fanout.calls()) : sequential(fanout.calls());
        return new FanoutReply(fanout, messages, servedBy);
    }

    private List<String> parallel(int calls) throws InterruptedException {
        Callable<String> call = () -> delay.delay().message();
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            List<String> messages = new ArrayList<>(calls);
            for (Future<String> reply : threads.invokeAll(Collections.nCopies(calls, call))) {
                messages.add(result(reply));
            }
            return messages;
        }
    }

    private List<String> sequential(int calls) {
        List<String> messages = new ArrayList<>(calls);
        for (int i = 0; i < calls; i++) {
            messages.add(delay.delay().message());
        }
        return messages;
    }

    /** A failed call fails the request with its own exception, as it would have on the request's thread. */
    private static String result(Future<String> reply) throws InterruptedException {
        try {
            return reply.get();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException failure ? failure : new IllegalStateException(e.getCause());
        }
    }
}
