package io.threadlab.experiment.analyse;

/**
 * The calls the delay service held at once over a recorded window, on average, beside the pool of connections the
 * variant's REST client had to it and the calls its users wanted at once. Held calls come from Little's law on the
 * window's own figures: the calls it made per second (its requests per second × calls per request) × the mean time
 * the delay service held one (its own timer, {@code delay_served_seconds}). That costs the variant nothing and needs
 * no event in the recording, where a REST client's pool leaves none: the Quarkus REST client queues a call that finds
 * no free connection inside Vert.x's pool as a callback, and no thread waits there.
 *
 * @param held   the calls held at once, on average
 * @param pool   the REST client's connection pool to the delay service, as the window's row says it ran
 * @param wanted the calls its users wanted at once in a closed model: users × calls per request in parallel, users in
 *               turn
 */
public record HeldCalls(double held, int pool, int wanted) {

    /** From a results.json row; null where the row lacks any of it (an older runner, a recording without its run). */
    static HeldCalls of(RecordedWindows.Row row, WindowFanOut fanOut) {
        if (row.requestsPerSecond() == null || row.delayServedMeanMs() == null || row.poolSize() == null
                || row.users() == null || row.delayServedMeanMs().isNaN()) {
            return null;
        }
        double held = row.requestsPerSecond() * fanOut.calls() * row.delayServedMeanMs() / 1000;
        return new HeldCalls(held, row.poolSize(), row.users() * (fanOut.parallel() ? fanOut.calls() : 1));
    }
}
