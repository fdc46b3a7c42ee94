package io.threadlab.experiment.load;

import io.threadlab.experiment.plan.WarmUpPolicy;

import java.util.ArrayList;
import java.util.List;

/**
 * Decides when a variant is warm: after the minimum time, once the last {@code steadySamples} throughput samples all
 * lie within {@code tolerance} of their mean and the JIT was quiet over them; or at the ceiling, which is then
 * reported as "not steady". A service that publishes no JIT time is judged on throughput alone.
 */
public final class WarmUp {

    public enum State { WARMING, STEADY, GAVE_UP }

    private final WarmUpPolicy policy;
    private final List<Double> rates = new ArrayList<>();
    private final List<Double> jit = new ArrayList<>();

    public WarmUp(WarmUpPolicy policy) {
        this.policy = policy;
    }

    /**
     * Adds one sample taken at {@code elapsedSeconds}: requests per second and JIT milliseconds per second over the
     * last sample period (NaN when unknown).
     */
    public State add(double requestsPerSecond, double jitMsPerSecond, double elapsedSeconds) {
        rates.add(requestsPerSecond);
        jit.add(jitMsPerSecond);
        if (elapsedSeconds >= policy.minSeconds() && steady()) {
            return State.STEADY;
        }
        return elapsedSeconds >= policy.maxSeconds() ? State.GAVE_UP : State.WARMING;
    }

    public List<Double> rates() {
        return List.copyOf(rates);
    }

    public List<Double> jitMsPerSecond() {
        return List.copyOf(jit);
    }

    /** Spread of the last samples, relative to their mean: what was compared to the tolerance. */
    public double lastSpread() {
        List<Double> last = last(rates);
        double mean = last.stream().mapToDouble(d -> d).average().orElse(0);
        if (mean <= 0) {
            return Double.POSITIVE_INFINITY;
        }
        return last.stream().mapToDouble(r -> Math.abs(r - mean) / mean).max().orElse(Double.POSITIVE_INFINITY);
    }

    /**
     * JIT activity over the last samples (mean ms of compilation per second), NaN when unknown. A mean, because a
     * settled JVM still recompiles now and then (measured: 0 to 160 ms/s while throughput was flat within 5 %),
     * whereas a busy JIT runs at hundreds to thousands of ms/s.
     */
    public double lastJit() {
        return last(jit).stream().mapToDouble(d -> d).average().orElse(Double.NaN);
    }

    private boolean steady() {
        if (rates.size() < policy.steadySamples() || lastSpread() > policy.tolerance()) {
            return false;
        }
        double jitActivity = lastJit();
        return Double.isNaN(jitActivity) || jitActivity <= policy.jitQuietMsPerSecond();
    }

    private List<Double> last(List<Double> samples) {
        return samples.subList(Math.max(0, samples.size() - policy.steadySamples()), samples.size());
    }
}
