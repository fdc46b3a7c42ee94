package io.threadlab.experiment.report.landscape;

/** Where a sample's values lie among themselves. */
public final class Quantiles {

    private Quantiles() {
    }

    /** The value below which {@code share} of these sorted values lie, between neighbours. */
    public static double of(double[] sorted, double share) {
        double at = share * (sorted.length - 1);
        int below = (int) Math.floor(at);
        int above = Math.min(sorted.length - 1, below + 1);
        return sorted[below] + (at - below) * (sorted[above] - sorted[below]);
    }
}
