package io.threadlab.experiment.load;

import io.threadlab.experiment.collect.OpenStep;

import java.util.List;
import java.util.Map;

/**
 * What the load generator saw in one window: requests answered, their latency, and failures by cause. From two
 * readings of a running closed-model load, or from the summary of an open-model run.
 *
 * @param inFlight requests sent and not yet answered at the window's end (closed model; null for the open model)
 */
public record LoadFigures(long requests, double requestsPerSecond, Double p50Ms, Double p90Ms, Double p99Ms,
                          Double maxMs, Double meanMs, long errors, Map<String, Long> errorCauses,
                          long droppedIterations, List<OpenStep> steps, Long inFlight) {

    public LoadFigures {
        errorCauses = Map.copyOf(errorCauses);
        steps = steps == null ? null : List.copyOf(steps);
    }

    static LoadFigures between(LoadCounters before, LoadCounters after) {
        LoadCounters window = after.minus(before);
        LatencyBuckets latency = window.latency();
        double seconds = window.nanos() / 1e9;
        double mean = window.meanMs();
        return new LoadFigures(window.completed(), seconds > 0 ? window.completed() / seconds : 0,
                latency.percentile(0.50), latency.percentile(0.90), latency.percentile(0.99), latency.max(),
                Double.isNaN(mean) ? null : mean, window.errorCount(), window.errors(), 0, null, after.inFlight());
    }

    static LoadFigures of(K6Summary summary) {
        return new LoadFigures(summary.requests(), summary.requestsPerSecond() == null ? 0
                : summary.requestsPerSecond(), summary.p50Ms(), summary.p90Ms(), summary.p99Ms(), summary.maxMs(),
                null, summary.errors(), summary.errorCauses() == null ? Map.of() : summary.errorCauses(),
                summary.droppedIterations(), summary.steps(), null);
    }
}
