package io.threadlab.experiment.predict;

import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.FanOutMode;
import io.threadlab.experiment.plan.Point;

import java.util.Locale;
import java.util.Optional;

/**
 * A point's fan-out as the capacity model reads it: N calls to the delay service per request, at once or one after
 * another (one call where the point says nothing).
 */
record FanOut(int calls, boolean parallel) {

    static FanOut at(Point at) {
        return new FanOut(at.getOrFallback(Axis.FAN_OUT), at.getOrFallback(Axis.FAN_OUT_MODE) == FanOutMode.PARALLEL);
    }

    /**
     * Workers held per hold of a worker variant's request: its own, and in parallel one per call on the same pool;
     * sequentially its own for each of N holds.
     */
    double workersHeld() {
        return calls == 1 ? 1 : parallel ? 1 + calls : calls;
    }

    /**
     * The throughput a worker variant's pool of {@code workers} allows {@code users}, each call holding a worker
     * {@code holdSeconds}. In turn, or with one call, a request holds {@link #workersHeld} workers per hold. In
     * parallel, once the users' requests and calls ask for more workers than there are ({@code users × (1 + N) >
     * workers}), every task waits its turn in the pool's one queue, W: a request's worker then waits for its own calls'
     * turn as well as their hold, W + h, beside N calls' h; the workers are all busy, {@code X (W + (N + 1) h) =
     * workers}, and a user's cycle is its own wait and its worker's, {@code X (2W + h) = users}. So
     * W = h (users (N + 1) - workers) ÷ (2 workers - users). Measured in fanout-1 (imperative, 200 workers, 100 users, a hold of 54 ms):
     * 613 req/s at 4 parallel calls, 327 at 8; this gives 617 and 327, where workers ÷ ((N + 1) h) gave 741 and 412.
     * Held out since: fanout-2 (150 users: 520 and 282 measured, 528 and 282 forecast) and fanout-3 (100 workers at
     * 100 ms, four points within 3 %).
     * At as many users as workers, every worker can hold a request whose calls have none: the pool can stall, which
     * this does not model (the lab does not drive such a point; {@link #mayStall}).
     */
    double workersCeiling(int workers, int users, double holdSeconds) {
        double wait = queueWaitSeconds(workers, users, holdSeconds);
        return wait > 0 ? users / (2 * wait + holdSeconds) : workers / (workersHeld() * holdSeconds);
    }

    /** W of {@link #workersCeiling}: 0 where nothing queues for a worker, or the queue is not modelled. */
    double queueWaitSeconds(int workers, int users, double holdSeconds) {
        double asked = (double) users * (1 + calls);
        return !parallel || calls == 1 || mayStall(workers, users) || asked <= workers ? 0
                : holdSeconds * (asked - workers) / (2.0 * workers - users);
    }

    /** What the forecast should say of the workers where the calls queue for them or the pool may stall. */
    Optional<String> workersNote(int workers, int users, double holdSeconds) {
        double wait = queueWaitSeconds(workers, users, holdSeconds);
        if (wait > 0) {
            return Optional.of(String.format(Locale.ROOT, "%d parallel calls: %,d requests and their calls ask for"
                    + " %,d workers of %,d; each waits about %.0f ms for one, and a request's worker waits for its"
                    + " calls' turn too", calls, users, users * (1 + calls), workers, wait * 1000));
        }
        return mayStall(workers, users) ? Optional.of(String.format(Locale.ROOT, "%d parallel calls at %,d users for"
                + " %,d workers: every worker can hold a request whose calls have none, and the pool can stall, which"
                + " this forecast does not model", calls, users, workers)) : Optional.empty();
    }

    /** Whether a worker variant's parallel calls can find every worker held by a request waiting for them. */
    boolean mayStall(int workers, int users) {
        return parallel && calls > 1 && users >= workers;
    }

    /**
     * The quantile of one call that a request's percentile is, in parallel: the request waits for the slowest of N
     * independent calls, so its q-quantile is the calls' q^(1/N) (a request's p99 at 16 calls is a call's p99.94).
     */
    static double callQuantile(double requestQuantile, int calls) {
        return Math.pow(requestQuantile, 1.0 / calls);
    }

    FanOutMode mode() {
        return parallel ? FanOutMode.PARALLEL : FanOutMode.SEQUENTIAL;
    }

    /** In words, for the forecast's notes, with what the model took the CPU per request to be. */
    String describe(String cpu) {
        String text = String.format(Locale.ROOT, "%d calls per request%s: %s", calls,
                parallel ? " in parallel" : ", one after another", cpu);
        if (!parallel) {
            return text + "; a request holds its connection and worker for " + calls + " calls in turn";
        }
        return text + String.format(Locale.ROOT, "; a request answers with the slowest of its calls: its p50 is a"
                + " call's p%.1f, its p99 a call's p%.2f", 100 * callQuantile(0.5, calls),
                100 * callQuantile(0.99, calls));
    }
}
