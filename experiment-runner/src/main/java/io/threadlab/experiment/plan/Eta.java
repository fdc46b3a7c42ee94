package io.threadlab.experiment.plan;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Time left, from the schedule and what has been measured so far: each remaining step's estimate is scaled by how
 * long the finished steps of its kind took against their estimates (warm-ups vary most: 20 s to minutes).
 */
public final class Eta {

    private final List<Step> steps;
    private final Map<String, double[]> byKind = new HashMap<>(); // kind -> {estimated, actual} of finished steps
    private int next;
    private long currentStartedNanos = System.nanoTime();

    public Eta(Schedule schedule) {
        this.steps = schedule.steps();
    }

    /** Step {@code index} begins now ({@code steps.size()}: all done); the one before it, if any, has ended. */
    public synchronized void begin(int index, long nowNanos) {
        if (index > 0 && index <= steps.size()) {
            Step done = steps.get(index - 1);
            double[] sums = byKind.computeIfAbsent(done.kind(), k -> new double[2]);
            sums[0] += done.estimatedSeconds();
            sums[1] += (nowNanos - currentStartedNanos) / 1e9;
        }
        next = index;
        currentStartedNanos = nowNanos;
    }

    /** Seconds left: the current step's remainder plus every later step, each scaled by its kind's record. */
    public synchronized long secondsLeft(long nowNanos) {
        if (next >= steps.size()) {
            return 0;
        }
        double elapsedInCurrent = (nowNanos - currentStartedNanos) / 1e9;
        double left = Math.max(scaled(steps.get(next)) - elapsedInCurrent, 1);
        for (int i = next + 1; i < steps.size(); i++) {
            left += scaled(steps.get(i));
        }
        return Math.round(left);
    }

    private double scaled(Step step) {
        double[] sums = byKind.get(step.kind());
        double factor = sums == null || sums[0] <= 0 ? 1.0 : sums[1] / sums[0];
        return step.estimatedSeconds() * factor;
    }
}
