package io.threadlab.experiment.predict;

import java.util.function.DoubleUnaryOperator;

/** The requests waiting in the JVM where the CPU binds, found from the throughput they allow. */
final class Solve {

    private Solve() {
    }

    /**
     * The users less those at the downstream, which are the CPU's throughput times the downstream's time, a
     * throughput that itself follows the requests waiting. Found by bisection in their log, from one (the downstream
     * holds all but one) to all the users; where the cost falls as more wait, as calibrated, there is one such number.
     */
    static double waiting(int users, double downstreamSeconds, DoubleUnaryOperator throughputAt) {
        if (users - throughputAt.applyAsDouble(1) * downstreamSeconds <= 1) {
            return 1;
        }
        double low = 0;
        double high = Math.log(users);
        for (int i = 0; i < 60; i++) {
            double mid = (low + high) / 2;
            double waiting = Math.exp(mid);
            if (users - throughputAt.applyAsDouble(waiting) * downstreamSeconds > waiting) {
                low = mid;
            } else {
                high = mid;
            }
        }
        return Math.exp((low + high) / 2);
    }
}
