package io.threadlab.experiment.report.landscape;

import java.util.Map;

/**
 * One closed-model point of a variant: its setup (delay, users, quota, pools), each ceiling predicted for it, the
 * binding one, and what was measured. Little's law ({@code users ≈ throughput × mean response time}) is checked on
 * every point: where it fails, the load generator did not keep its users busy.
 *
 * @param jvm            the JVM's label: the variant and its setup (e.g. imperative-w512)
 * @param ceilings       requests per second each ceiling allows (no entry: does not apply)
 * @param holdMs         how long a worker or a connection is held per request, as predicted (delay + overhead)
 * @param littleUsers    throughput × mean response time: the users Little's law says were busy (null: unknown)
 * @param k6Limited      k6 used more than 80 % of the CPU left to it: the load generator may have capped the point
 */
public record Point(String jvm, String variant, int delayMs, int users, double cpuQuota, Integer workerMax,
                    Integer poolSize, Map<Ceiling, Double> ceilings, Ceiling binding, double predicted,
                    double measured, double p99Ms, long errors, Map<String, Long> errorCauses, double holdMs,
                    Double littleUsers, boolean k6Limited) {

    /** Target of the map: wherever one ceiling binds, measured within 15 % of predicted. */
    public static final double TOLERANCE = 0.15;
    /** Little's law is flagged when the busy users differ from the users by more than this. */
    public static final double LITTLE_TOLERANCE = 0.10;

    public double ratio() {
        return predicted > 0 ? measured / predicted : Double.NaN;
    }

    public boolean withinTolerance() {
        return Math.abs(ratio() - 1) <= TOLERANCE;
    }

    /** Null when the mean response time is unknown (runs before the mean was recorded). */
    public Boolean littleHolds() {
        return littleUsers == null ? null : Math.abs(littleUsers / users - 1) <= LITTLE_TOLERANCE;
    }

    /** The second-lowest ceiling over the binding one: how clearly one ceiling binds (1.0: two bind together). */
    public double margin() {
        return ceilings.entrySet().stream().filter(e -> e.getKey() != binding).mapToDouble(Map.Entry::getValue)
                .min().orElse(Double.POSITIVE_INFINITY) / predicted;
    }
}
