package io.threadlab.experiment.analyse;

import java.util.ArrayList;
import java.util.List;

/**
 * Stalls in a window's per-second throughput: seconds far below the window's own median. A stall is a run of such
 * seconds; it says nothing about why (the recording and the docs do), only that the window is not one steady state.
 */
public final class Stalls {

    /** A second below this share of the window's median is stalled. */
    public static final double STALLED_SHARE = 0.25;

    /** One run of stalled seconds: the first (0-based, within the window) and how many, with their mean rate. */
    public record Stall(int firstSecond, int seconds, double meanRate, double median) {
    }

    private Stalls() {
    }

    public static List<Stall> find(List<Double> perSecond) {
        List<Stall> stalls = new ArrayList<>();
        if (perSecond == null || perSecond.size() < 3) {
            return stalls;
        }
        double median = median(perSecond);
        if (!(median > 0)) {
            return stalls;
        }
        int start = -1;
        double sum = 0;
        for (int i = 0; i <= perSecond.size(); i++) {
            boolean stalled = i < perSecond.size() && perSecond.get(i) < STALLED_SHARE * median;
            if (stalled) {
                if (start < 0) {
                    start = i;
                    sum = 0;
                }
                sum += perSecond.get(i);
            } else if (start >= 0) {
                stalls.add(new Stall(start, i - start, sum / (i - start), median));
                start = -1;
            }
        }
        return stalls;
    }

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}
