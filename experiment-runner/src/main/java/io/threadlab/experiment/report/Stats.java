package io.threadlab.experiment.report;

import java.util.Arrays;
import java.util.List;

/**
 * The few statistics the report needs, on the handful of repetitions a run has. With n = 3 no distribution-free 95 %
 * interval for a median exists (the range covers 75 %), so cells give the median as the point estimate and the
 * Student-t 95 % interval of the mean as the uncertainty, and say so.
 */
public final class Stats {

    /** Two-sided 95 % Student t critical values for 1..30 degrees of freedom. */
    private static final double[] T975 = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
            2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060,
            2.056, 2.052, 2.048, 2.045, 2.042};

    private Stats() {
    }

    /** A cell of the summary table: median, 95 % interval of the mean, coefficient of variation, n. */
    public record Summary(int n, double median, double mean, double low, double high, double cv) {
        public boolean hasInterval() {
            return n >= 2;
        }
    }

    public static Summary summarise(List<Double> values) {
        double[] v = values.stream().filter(d -> d != null && !Double.isNaN(d)).mapToDouble(d -> d).toArray();
        int n = v.length;
        if (n == 0) {
            return new Summary(0, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
        }
        double mean = mean(v);
        if (n == 1) {
            return new Summary(1, v[0], v[0], Double.NaN, Double.NaN, Double.NaN);
        }
        double sd = sd(v, mean);
        double half = tCritical(n - 1) * sd / Math.sqrt(n);
        return new Summary(n, median(v), mean, mean - half, mean + half, mean == 0 ? Double.NaN : sd / mean);
    }

    static double mean(double[] v) {
        return Arrays.stream(v).average().orElse(Double.NaN);
    }

    static double sd(double[] v, double mean) {
        double ss = Arrays.stream(v).map(x -> (x - mean) * (x - mean)).sum();
        return Math.sqrt(ss / (v.length - 1));
    }

    static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }

    /** 97.5 % quantile of Student's t; fractional df (Welch) are rounded down, which widens the interval. */
    static double tCritical(double df) {
        if (df < 1) {
            return Double.NaN;
        }
        int d = (int) Math.floor(df);
        if (d <= 30) {
            return T975[d - 1];
        }
        return d <= 60 ? 2.000 : d <= 120 ? 1.980 : 1.960;
    }

    /**
     * The ratio of two means (a / b) with a 95 % interval: delta method on the log of the ratio, Welch's degrees of
     * freedom. {@code withinNoise} when the interval contains 1: the report then names no winner.
     */
    public record Ratio(double ratio, double low, double high) {
        public boolean withinNoise() {
            return Double.isNaN(low) || (low <= 1 && high >= 1);
        }
    }

    public static Ratio ratio(List<Double> a, List<Double> b) {
        double[] x = a.stream().filter(d -> d != null && !Double.isNaN(d)).mapToDouble(d -> d).toArray();
        double[] y = b.stream().filter(d -> d != null && !Double.isNaN(d)).mapToDouble(d -> d).toArray();
        if (x.length == 0 || y.length == 0) {
            return new Ratio(Double.NaN, Double.NaN, Double.NaN);
        }
        double mx = mean(x);
        double my = mean(y);
        double ratio = mx / my;
        if (x.length < 2 || y.length < 2 || mx <= 0 || my <= 0) {
            return new Ratio(ratio, Double.NaN, Double.NaN);
        }
        double vx = Math.pow(sd(x, mx), 2) / (x.length * mx * mx); // relative variance of each mean
        double vy = Math.pow(sd(y, my), 2) / (y.length * my * my);
        double se = Math.sqrt(vx + vy);
        if (se == 0) {
            return new Ratio(ratio, ratio, ratio);
        }
        double df = Math.pow(vx + vy, 2) / (vx * vx / (x.length - 1) + vy * vy / (y.length - 1));
        double t = tCritical(df);
        return new Ratio(ratio, ratio * Math.exp(-t * se), ratio * Math.exp(t * se));
    }
}
