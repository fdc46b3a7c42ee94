package io.threadlab.delay;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.concurrent.TimeUnit;

/**
 * Completes after the requested wait on a Vert.x timer of the caller's event loop: no thread is held while waiting.
 * Records the wait actually served, so a run can show how late the delay service was under load.
 */
@ApplicationScoped
public class DelayTimer {

    private final Vertx vertx;
    private final Timer served;

    DelayTimer(Vertx vertx, MeterRegistry registry) {
        this.vertx = vertx;
        this.served = Timer.builder("delay.served")
                .description("Wait actually served by the delay service, from request to reply")
                .publishPercentileHistogram()
                .register(registry);
    }

    public Uni<DelayReply> waitFor(long ms) {
        return Uni.createFrom().emitter(emitter -> {
            long start = System.nanoTime();
            Runnable reply = () -> {
                long elapsed = System.nanoTime() - start;
                served.record(elapsed, TimeUnit.NANOSECONDS);
                emitter.complete(new DelayReply("delayed " + ms + " ms", ms, elapsed / 1_000_000.0));
            };
            if (ms == 0) {
                reply.run(); // Vert.x timers need at least 1 ms
            } else {
                vertx.setTimer(ms, id -> reply.run());
            }
        });
    }
}
