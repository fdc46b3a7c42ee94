package io.threadlab.experiment.plan;

/**
 * How long each window measures, and the load before it: at least {@code settleSeconds}, at most
 * {@code settleMaxSeconds}, until the JVM's compiler is quiet and every user has been answered since the last change.
 */
public record Timing(int windowSeconds, int settleSeconds, int settleMaxSeconds) {

    public Timing {
        if (windowSeconds < 1 || settleSeconds < 0) {
            throw new IllegalArgumentException("--window must be at least 1 and --settle at least 0, were "
                    + windowSeconds + " and " + settleSeconds);
        }
        if (settleMaxSeconds < settleSeconds) {
            throw new IllegalArgumentException("--settle-max must be at least --settle (" + settleSeconds + "), was "
                    + settleMaxSeconds);
        }
    }
}
