package io.threadlab.experiment.analyse;

import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.Arrays;

/** Durations in milliseconds, kept compactly (a float each) so that percentiles are exact, not estimated. */
final class Durations {

    private float[] values = new float[64];
    private int size;
    private double totalMs;

    void add(double ms) {
        if (size == values.length) {
            values = Arrays.copyOf(values, size * 2);
        }
        values[size++] = (float) ms;
        totalMs += ms;
    }

    int count() {
        return size;
    }

    double totalMs() {
        return totalMs;
    }

    /** Nearest-rank percentile, or NaN when empty. */
    double percentile(double p) {
        if (size == 0) {
            return Double.NaN;
        }
        float[] sorted = Arrays.copyOf(values, size);
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(p / 100.0 * size);
        return sorted[Math.max(0, Math.min(size - 1, rank - 1))];
    }

    Summary summary() {
        return new Summary(size, round(totalMs), round(percentile(50)), round(percentile(99)));
    }

    /** What analysis.json says about a set of durations. */
    public record Summary(int count, @JsonProperty("total_ms") double totalMs, @JsonProperty("p50_ms") double p50Ms,
                          @JsonProperty("p99_ms") double p99Ms) {
    }

    static double round(double v) {
        return Double.isNaN(v) ? Double.NaN : Math.round(v * 1000) / 1000.0;
    }
}
