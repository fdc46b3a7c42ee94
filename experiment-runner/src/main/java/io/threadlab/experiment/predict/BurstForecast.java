package io.threadlab.experiment.predict;

import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.Point;
import io.threadlab.experiment.plan.Variant;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The time a burst takes to its last answer, predicted before it fires: {@code requests} drained at the throughput
 * the binding ceiling allows, each ceiling's time being the requests over what it allows per second. Requests held
 * in waves of the pool's size leave the last wave at {@code requests ÷ slots × the hold}, which is that same time
 * (seed 004's "10,000 ÷ 200 workers × 50 ms = 2.5 s"). The ceilings are the capacity model's at as many users as
 * the burst has requests, where the JVM was calibrated (the CPU among them, and k6 where it shares the machine);
 * without a calibration, the workers' and the connections' alone, from the pool sizes and the delay: then a burst
 * with no wait has no ceiling the lab can name, and is not predicted.
 *
 * @param predictedMs   the longest ceiling's time; null where no ceiling is known
 * @param binding       the ceiling that sets it ({@link Ceiling#label}), or why none does
 * @param ceilingsMs    each ceiling's time, by its label
 * @param expectedError the relative error the prediction carries (the capacity model's; a window's without it)
 */
public record BurstForecast(Double predictedMs, String binding, Map<String, Double> ceilingsMs,
                            double expectedError) {

    /** The workers or connections the binding ceiling counts; null where it counts none (the CPU, k6). */
    public Integer slots(int workerMax, int poolSize) {
        return Ceiling.WORKERS.label().equals(binding) ? Integer.valueOf(workerMax)
                : Ceiling.CONNECTIONS.label().equals(binding) ? Integer.valueOf(poolSize) : null;
    }

    /** The error of a ceiling set by a pool's size and the delay alone: a window's (CapacityModel.LEAST_ERROR). */
    static final double POOL_ERROR = CapacityModel.LEAST_ERROR;

    public BurstForecast {
        ceilingsMs = Map.copyOf(ceilingsMs);
    }

    /**
     * @param closed    the capacity model's forecast at {@code requests} users, the burst's point; empty without a
     *                  calibration
     * @param workerMax the worker pool's maximum (held by the worker variants only)
     * @param poolSize  the REST client's connections to the delay service
     */
    public static BurstForecast of(Optional<Forecast> closed, int requests, int delayMs, Variant.Threads threads,
                                   int workerMax, int poolSize) {
        Map<String, Double> ms = new LinkedHashMap<>();
        if (closed.isPresent()) {
            Forecast f = closed.get();
            f.ceilings().forEach((ceiling, rps) -> {
                if (ceiling != Ceiling.USERS && rps > 0) { // every request at once: no user waits to ask
                    ms.put(ceiling.label(), requests / rps * 1000);
                }
            });
            return longest(ms, f.expectedError());
        }
        if (threads == Variant.Threads.WORKER) {
            ms.put(Ceiling.WORKERS.label(), waves(requests, workerMax) * (double) delayMs);
        }
        ms.put(Ceiling.CONNECTIONS.label(), waves(requests, poolSize) * (double) delayMs);
        if (ms.values().stream().allMatch(t -> t <= 0)) {
            return new BurstForecast(null, "not predicted: with no wait only the CPU binds, and the JVM was not"
                    + " calibrated", ms, Double.NaN);
        }
        return longest(ms, POOL_ERROR);
    }

    /** A burst of {@code requests} at a point {@code predict} was asked about, from its variant's calibration. */
    public static BurstForecast of(VariantForecast asked, int requests) {
        Point at = asked.at();
        return of(Optional.of(asked.forecast()), requests, at.get(Axis.DELAY_MS), asked.calibrated().threads(),
                at.has(Axis.WORKER_MAX) ? at.get(Axis.WORKER_MAX) : 0,
                at.has(Axis.POOL_SIZE) ? at.get(Axis.POOL_SIZE) : 0);
    }

    private static long waves(int requests, int slots) {
        return (requests + slots - 1) / slots;
    }

    private static BurstForecast longest(Map<String, Double> ms, double error) {
        Map.Entry<String, Double> binding = ms.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow();
        return new BurstForecast(binding.getValue(), binding.getKey(), ms, error);
    }

    /** As the console says it: "2,500 ms (workers; connections 500 ms)". */
    public String describe() {
        if (predictedMs == null) {
            return binding;
        }
        List<String> others = ceilingsMs.entrySet().stream().filter(e -> !e.getKey().equals(binding))
                .map(e -> String.format(Locale.ROOT, "%s %,.0f ms", e.getKey(), e.getValue())).toList();
        return String.format(Locale.ROOT, "%,.0f ms (%s%s)", predictedMs, binding,
                others.isEmpty() ? "" : "; " + String.join(", ", others));
    }
}
