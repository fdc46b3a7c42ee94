package io.threadlab.experiment.load;

import java.util.Arrays;

/**
 * Latencies counted in logarithmic buckets, as {@code k6/lib.js} counts them: bucket 0 holds everything under
 * {@link #FIRST_BUCKET_MS}, bucket {@code b >= 1} the latencies from {@code FIRST_BUCKET_MS * 10^((b-1)/PER_DECADE)}
 * up to the next edge. Two cumulative readings subtract to the histogram of what completed between them, so a window
 * inside a long k6 run has percentiles of its own. Resolution: a bucket spans 2.3 % (at 40 per decade, 5.9 %: a
 * 300 ms p50 read 307 ms); a percentile is interpolated geometrically inside its bucket.
 */
public record LatencyBuckets(long[] counts) {

    public static final double FIRST_BUCKET_MS = 0.1;
    public static final int PER_DECADE = 100;
    /** k6's request timeout: the last bucket holds this and anything longer. */
    public static final double LAST_BUCKET_MS = 60_000;
    public static final int BUCKETS = 1 + (int) Math.ceil(Math.log10(LAST_BUCKET_MS / FIRST_BUCKET_MS) * PER_DECADE);

    public LatencyBuckets {
        if (counts.length != BUCKETS) {
            throw new IllegalArgumentException("expected " + BUCKETS + " latency buckets, got " + counts.length);
        }
        counts = counts.clone();
    }

    public static LatencyBuckets empty() {
        return new LatencyBuckets(new long[BUCKETS]);
    }

    /** The bucket of one latency; the same arithmetic as {@code bucketOf} in k6/lib.js. */
    public static int bucketOf(double ms) {
        if (!(ms >= FIRST_BUCKET_MS)) {
            return 0;
        }
        return Math.min(BUCKETS - 1, 1 + (int) Math.floor(Math.log10(ms / FIRST_BUCKET_MS) * PER_DECADE));
    }

    static double lowerEdge(int bucket) {
        return bucket == 0 ? 0 : FIRST_BUCKET_MS * Math.pow(10, (bucket - 1) / (double) PER_DECADE);
    }

    static double upperEdge(int bucket) {
        return FIRST_BUCKET_MS * Math.pow(10, bucket / (double) PER_DECADE);
    }

    /** What completed between {@code earlier} and this reading. */
    public LatencyBuckets minus(LatencyBuckets earlier) {
        long[] diff = new long[BUCKETS];
        for (int i = 0; i < BUCKETS; i++) {
            diff[i] = counts[i] - earlier.counts[i];
        }
        return new LatencyBuckets(diff);
    }

    public long total() {
        return Arrays.stream(counts).sum();
    }

    /** The latency below which a share {@code q} (0..1) of the requests completed; null when there are none. */
    public Double percentile(double q) {
        long total = total();
        if (total == 0) {
            return null;
        }
        double rank = q * total;
        long seen = 0;
        for (int b = 0; b < BUCKETS; b++) {
            if (counts[b] == 0) {
                continue;
            }
            if (seen + counts[b] >= rank) {
                double within = Math.max(0, Math.min(1, (rank - seen) / counts[b]));
                double low = Math.max(lowerEdge(b), FIRST_BUCKET_MS / 10);
                return low * Math.pow(upperEdge(b) / low, within);
            }
            seen += counts[b];
        }
        return upperEdge(BUCKETS - 1);
    }

    /** The upper edge of the slowest bucket with a request in it: the maximum, to a bucket's resolution. */
    public Double max() {
        for (int b = BUCKETS - 1; b >= 0; b--) {
            if (counts[b] > 0) {
                return upperEdge(b);
            }
        }
        return null;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LatencyBuckets other && Arrays.equals(counts, other.counts);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(counts);
    }

    @Override
    public String toString() {
        return "LatencyBuckets[total=" + total() + "]";
    }
}
