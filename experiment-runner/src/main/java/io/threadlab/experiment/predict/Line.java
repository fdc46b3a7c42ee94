package io.threadlab.experiment.predict;

import java.util.List;

/** A straight line by least squares: what a request in flight adds to memory or threads. */
public final class Line {

    private Line() {
    }

    /** {slope, intercept} of the points {x, y}; NaN for both with fewer than two distinct x. */
    public static double[] fit(List<double[]> xy) {
        if (xy.size() < 2) {
            return new double[] {Double.NaN, Double.NaN};
        }
        double mx = xy.stream().mapToDouble(p -> p[0]).average().orElseThrow();
        double my = xy.stream().mapToDouble(p -> p[1]).average().orElseThrow();
        double sxy = xy.stream().mapToDouble(p -> (p[0] - mx) * (p[1] - my)).sum();
        double sxx = xy.stream().mapToDouble(p -> (p[0] - mx) * (p[0] - mx)).sum();
        if (sxx == 0) {
            return new double[] {Double.NaN, Double.NaN};
        }
        double slope = sxy / sxx;
        return new double[] {slope, my - slope * mx};
    }
}
