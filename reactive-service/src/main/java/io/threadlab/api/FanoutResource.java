package io.threadlab.api;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.rest.client.inject.RestClient;

import java.util.List;
import java.util.stream.IntStream;

/**
 * Reactive fan-out: the request runs on the event loop ({@code vert.x-eventloop-thread-N}), as in
 * {@link ApiResource}. In parallel, the calls' {@code Uni}s are combined, which subscribes to all of them at once: n
 * requests go out together and the reply is written when the last answers. In sequence, each call is subscribed to
 * when the one before it has answered. No thread waits in either.
 */
@Path("/api/fanout")
@Produces(MediaType.APPLICATION_JSON)
public class FanoutResource {

    @RestClient
    DelayClient delay;

    @Inject
    FanoutRequests requests;

    @GET
    public Uni<FanoutReply> fanout(@QueryParam("n") String n, @QueryParam("mode") String mode) {
        ApiReply.ServedBy servedBy = ApiReply.ServedBy.currentThread();
        Fanout fanout = requests.parse(n, mode);
        Uni<List<String>> messages = fanout.parallel() ? parallel(fanout.calls()) : sequential(fanout.calls());
        return messages.map(m -> new FanoutReply(fanout, m, servedBy));
    }

    private Uni<List<String>> parallel(int calls) {
        List<Uni<String>> replies = IntStream.range(0, calls)
                .mapToObj(i -> delay.delay().map(DelayReply::message))
                .toList();
        return Uni.combine().all().unis(replies).with(String.class, messages -> messages);
    }

    private Uni<List<String>> sequential(int calls) {
        return Multi.createFrom().range(0, calls)
                .onItem().transformToUniAndConcatenate(i -> delay.delay().map(DelayReply::message))
                .collect().asList();
    }
}
