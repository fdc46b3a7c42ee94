package io.threadlab.experiment.analyse;

import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.Arrays;

/**
 * How many intervals were open at once, from their start and end times: here, the socket reads from the delay
 * service, each one a caller waiting for its reply on a connection of its own. A sweep over the sorted starts and
 * ends gives the most open at once and how long each count lasted. Two longs per interval.
 */
final class InFlight {

    private long[] starts = new long[1024];
    private long[] ends = new long[1024];
    private int size;

    void add(long startNanos, long endNanos) {
        if (size == starts.length) {
            starts = Arrays.copyOf(starts, size * 2);
            ends = Arrays.copyOf(ends, size * 2);
        }
        starts[size] = startNanos;
        ends[size++] = Math.max(startNanos, endNanos);
    }

    /**
     * What analysis.json says.
     *
     * @param max           the most intervals open at once
     * @param nearMaxShare  the share of the time from the first start to the last end with at least 90 % of
     *                      {@code max} open: near 1 when something held the count at a ceiling
     * @param mean          the mean number open over that time
     */
    public record Summary(int max, @JsonProperty("near_max_share") double nearMaxShare, double mean) {
    }

    Summary summary() {
        if (size == 0) {
            return new Summary(0, 0, 0);
        }
        long[] s = Arrays.copyOf(starts, size);
        long[] e = Arrays.copyOf(ends, size);
        Arrays.sort(s);
        Arrays.sort(e);
        long[] timeAt = new long[16]; // nanoseconds spent with exactly n open
        int open = 0;
        int max = 0;
        long previous = s[0];
        int i = 0;
        int j = 0;
        while (j < size) {
            boolean opens = i < size && s[i] < e[j]; // an interval ending when another starts is not counted twice
            long now = opens ? s[i] : e[j];
            if (open >= timeAt.length) {
                timeAt = Arrays.copyOf(timeAt, open * 2);
            }
            timeAt[open] += now - previous;
            previous = now;
            if (opens) {
                open++;
                i++;
                max = Math.max(max, open);
            } else {
                open--;
                j++;
            }
        }
        long span = e[size - 1] - s[0];
        if (span <= 0) {
            return new Summary(max, 1, max);
        }
        long nearMax = 0;
        double weighted = 0;
        for (int n = 0; n < timeAt.length; n++) {
            if (n >= 0.9 * max) {
                nearMax += timeAt[n];
            }
            weighted += (double) n * timeAt[n];
        }
        return new Summary(max, Durations.round((double) nearMax / span), Durations.round(weighted / span));
    }
}
