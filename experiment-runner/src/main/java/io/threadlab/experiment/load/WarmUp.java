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

    /** The busiest JIT sample among the last ones (ms of compilation per second), NaN when unknown. */
    public double lastJit() {
        return last(jit).stream().mapToDouble(d -> d).max().orElse(Double.NaN);
    }

    private boolean steady() {
        if (rates.size() < policy.steadySamples() || lastSpread() > policy.tolerance()) {
            return false;
        }
        double busiestJit = lastJit();
        return Double.isNaN(busiestJit) || busiestJit <= policy.jitQuietMsPerSecond();
    }

    private List<Double> last(List<Double> samples) {
        return samples.subList(Math.max(0, samples.size() - policy.steadySamples()), samples.size());
    }
}
