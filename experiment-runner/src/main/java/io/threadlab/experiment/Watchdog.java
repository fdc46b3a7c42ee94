package io.threadlab.experiment;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Interrupts the runner's main thread when a step passes its ceiling, so that the step ends as a named failure instead
 * of silence: every wait of the runner (sleeps, HTTP exchanges, processes) gives up on an interrupt.
 */
final class Watchdog implements AutoCloseable {

    private static final ScheduledExecutorService TIMER = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "step-watchdog");
        t.setDaemon(true);
        return t;
    });

    private final AtomicBoolean fired = new AtomicBoolean();
    private final ScheduledFuture<?> alarm;

    private Watchdog(Thread watched, long ceilingMillis) {
        this.alarm = TIMER.schedule(() -> {
            fired.set(true);
            watched.interrupt();
        }, ceilingMillis, TimeUnit.MILLISECONDS);
    }

    /** Watches the calling thread for {@code ceilingMillis}. */
    static Watchdog arm(long ceilingMillis) {
        return new Watchdog(Thread.currentThread(), ceilingMillis);
    }

    boolean fired() {
        return fired.get();
    }

    /** Disarms; an interrupt that landed after the step ended is cleared, so it cannot end the next one. */
    @Override
    public void close() {
        alarm.cancel(false);
        if (fired.get()) {
            Thread.interrupted();
        }
    }
}
