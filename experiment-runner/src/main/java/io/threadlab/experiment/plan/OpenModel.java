package io.threadlab.experiment.plan;

import java.util.List;

/**
 * The open model's arrival-rate steps, measured once per JVM in the first repetition at every delay: fixed
 * {@code rates}, or {@code shares} of the highest closed-model throughput the same JVM reached at that delay (the
 * regime map's: one ladder cannot suit 1 ms and 1 s downstream). None of either: no open model.
 */
public record OpenModel(List<Integer> rates, List<Double> shares, int stepSeconds) {

    public static final OpenModel NONE = new OpenModel(List.of(), List.of(), 1);

    /**
     * How long beyond the downstream's own delay a caller may wait: the SLO the report judges each step by, and the
     * latency k6 makes users for before a step, so that a service within the SLO never waits for k6 to make one (k6
     * drops the arrivals that find no free user while it makes more).
     */
    public static final int SLO_ABOVE_DELAY_MS = 100;

    public OpenModel {
        rates = List.copyOf(rates);
        shares = List.copyOf(shares);
        if (stepSeconds < 1) {
            throw new IllegalArgumentException("--open-step must be at least 1 s, was " + stepSeconds);
        }
        if (rates.stream().anyMatch(r -> r < 1)) {
            throw new IllegalArgumentException("--open-rates must be positive, was " + rates);
        }
        if (shares.stream().anyMatch(s -> !(s > 0 && s <= 5))) {
            throw new IllegalArgumentException("open-model shares must lie in (0, 5], were " + shares);
        }
    }

    public boolean any() {
        return !rates.isEmpty() || !shares.isEmpty();
    }

    public Window.OpenSteps steps(int settleMaxSeconds) {
        return new Window.OpenSteps(rates, shares, stepSeconds, settleMaxSeconds);
    }
}
