package io.threadlab.api;

import com.github.tomakehurst.wiremock.extension.ResponseDefinitionTransformerV2;
import com.github.tomakehurst.wiremock.http.ResponseDefinition;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;

import java.time.Duration;

/**
 * The calls the delay-service stub serves at once, and the most at once since {@link #reset()}: a fan-out's
 * concurrency as its downstream sees it. Told to {@link #hold}, the stub keeps each call until that many are in flight
 * or a time has passed, so that calls made at once are seen together however slowly the machine runs, and calls made
 * one after another are seen alone (each is held its full time, and none comes meanwhile).
 */
public final class CallsInFlight implements ResponseDefinitionTransformerV2 {

    private int inFlight;
    private int most;
    private int together;
    private long holdNanos;

    /** From now on, keeps each call until {@code together} calls are in flight, or for {@code atMost}. */
    public synchronized void hold(int together, Duration atMost) {
        this.together = together;
        this.holdNanos = atMost.toNanos();
    }

    /** Holds no call, and counts afresh. */
    public synchronized void reset() {
        together = 0;
        holdNanos = 0;
        most = inFlight;
    }

    /** The most calls in flight at once since the last reset. */
    public synchronized int most() {
        return most;
    }

    @Override
    public ResponseDefinition transform(ServeEvent serveEvent) {
        try {
            arriveAndWait();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            leave();
        }
        return serveEvent.getResponseDefinition();
    }

    @Override
    public String getName() {
        return "calls-in-flight";
    }

    private synchronized void arriveAndWait() throws InterruptedException {
        inFlight++;
        most = Math.max(most, inFlight);
        notifyAll();
        long deadline = System.nanoTime() + holdNanos;
        for (long left = holdNanos; inFlight < together && left > 0; left = deadline - System.nanoTime()) {
            wait(Math.max(1, left / 1_000_000));
        }
    }

    private synchronized void leave() {
        inFlight--;
    }
}
