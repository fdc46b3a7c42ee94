package io.threadlab.experiment.predict;

import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.FanOutMode;
import io.threadlab.experiment.plan.Point;

import java.util.Locale;

/**
 * A point's fan-out as the capacity model reads it: N calls to the delay service per request, at once or one after
 * another (one call where the point says nothing).
 */
record FanOut(int calls, boolean parallel) {

    static FanOut at(Point at) {
        return new FanOut(at.has(Axis.FAN_OUT) ? at.get(Axis.FAN_OUT) : 1,
                !at.has(Axis.FAN_OUT_MODE) || at.get(Axis.FAN_OUT_MODE) == FanOutMode.PARALLEL);
    }

    /**
     * Workers held per hold of a worker variant's request: its own, and in parallel one per call on the same pool;
     * sequentially its own for each of N holds.
     */
    double workersHeld() {
        return calls == 1 ? 1 : parallel ? 1 + calls : calls;
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
