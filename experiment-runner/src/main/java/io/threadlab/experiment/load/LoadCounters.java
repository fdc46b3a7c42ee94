package io.threadlab.experiment.load;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * One reading of a running load's cumulative counters ({@code k6/lib.js}): requests sent and completed, the latency of
 * every request completed (bucketed where the load keeps the histogram, and summed for the exact mean), and failures
 * by cause. Two readings subtract to what happened between them.
 *
 * @param nanos     when the reading was taken ({@link System#nanoTime()})
 * @param completed requests answered or failed (lab_done), whether or not the load keeps the histogram
 * @param latency   the histogram; empty for a load started without it (its percentiles are then not measured)
 */
public record LoadCounters(long nanos, long sent, long completed, LatencyBuckets latency, double latencyMsTotal,
                           Map<String, Long> errors) {

    public static final String PREFIX = "lab_";
    /** The causes k6/lib.js counts failures by ({@code lab_error_<cause>}); LatencyBucketsTest holds the two equal. */
    static final List<String> ERROR_CAUSES = List.of("timeout", "refused", "reset", "network", "http_4xx", "http_500",
            "http_502", "http_503", "http_504", "http_5xx");
    /**
     * The counters a load without the histogram keeps, read one by one, and so not at one instant: sent before
     * completed, so that the requests in flight are never over-counted (a closed load's window ends with at most its
     * users in flight); the latency's sum right after the completed it is divided by.
     */
    static final List<String> IN_FLIGHT_AT_LEAST = readInOrder("lab_sent", "lab_done", "lab_latency_ms_total");
    /**
     * The same counters, completed before sent: the requests in flight are never under-counted, so a load waited on
     * until none is in flight has truly emptied.
     */
    static final List<String> IN_FLIGHT_AT_MOST = readInOrder("lab_done", "lab_latency_ms_total", "lab_sent");

    private static List<String> readInOrder(String... first) {
        return Stream.concat(Stream.of(first), ERROR_CAUSES.stream().map(c -> "lab_error_" + c)).toList();
    }

    public LoadCounters {
        errors = Map.copyOf(errors);
    }

    static LoadCounters of(long nanos, Map<String, Double> counters) {
        long[] buckets = new long[LatencyBuckets.BUCKETS];
        Map<String, Long> errors = new LinkedHashMap<>();
        counters.forEach((name, value) -> {
            if (name.startsWith("lab_latency_") && name.substring("lab_latency_".length()).matches("\\d+")) {
                int bucket = Integer.parseInt(name.substring("lab_latency_".length()));
                if (bucket < buckets.length) {
                    buckets[bucket] = Math.round(value);
                }
            } else if (name.startsWith("lab_error_")) {
                errors.put(name.substring("lab_error_".length()), Math.round(value));
            }
        });
        return new LoadCounters(nanos, Math.round(counters.getOrDefault("lab_sent", 0.0)),
                Math.round(counters.getOrDefault("lab_done", 0.0)), new LatencyBuckets(buckets),
                counters.getOrDefault("lab_latency_ms_total", 0.0), errors);
    }

    /** Requests sent and not yet answered (none where completions read after the sent caught up with them). */
    public long inFlight() {
        return Math.max(0, sent - completed());
    }

    public long errorCount() {
        return errors.values().stream().mapToLong(Long::longValue).sum();
    }

    /** What happened between {@code earlier} and this reading; causes that did not occur are left out. */
    public LoadCounters minus(LoadCounters earlier) {
        Map<String, Long> diff = new LinkedHashMap<>();
        errors.forEach((cause, n) -> {
            long d = n - earlier.errors.getOrDefault(cause, 0L);
            if (d != 0) {
                diff.put(cause, d);
            }
        });
        return new LoadCounters(nanos - earlier.nanos, sent - earlier.sent, completed - earlier.completed,
                latency.minus(earlier.latency), latencyMsTotal - earlier.latencyMsTotal, diff);
    }

    /** Mean latency of the requests completed, in ms (NaN for none). */
    public double meanMs() {
        long n = completed();
        return n == 0 ? Double.NaN : latencyMsTotal / n;
    }
}
