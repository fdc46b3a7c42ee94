package io.threadlab.experiment.report.landscape;

import io.threadlab.experiment.collect.OpenStep;
import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.plan.OpenModel;

import java.util.ArrayList;
import java.util.List;

/**
 * The open model at one delay: latency against arrival rate, and the SLO capacity, the one definition the report uses
 * wherever it speaks of the open model: the highest offered rate at which the SLO was met. Met: p99 under the bound
 * (the downstream's delay plus {@link #BOUND_ABOVE_DELAY_MS}, what a caller may wait beyond the downstream's own
 * time), at least 95 % of the offered rate achieved, and at most 1 % of the step's arrivals dropped. A step below the
 * capacity that missed (a first step can include k6 making its users) is named beside it, not hidden.
 *
 * @param capacity the SLO capacity in req/s, or null when no step met it
 * @param missedBelow the offered rates below the capacity whose step missed the SLO
 */
public record SloCapacity(String jvm, String variant, int delayMs, double boundMs, List<OpenStep> steps,
                          Integer capacity, List<Integer> missedBelow) {

    public static final int BOUND_ABOVE_DELAY_MS = OpenModel.SLO_ABOVE_DELAY_MS;
    /** A step meets the SLO only where it achieved at least this share of its offered rate... */
    public static final double ACHIEVED_SHARE = 0.95;
    /** ...and dropped at most this share of its arrivals. */
    public static final double DROPPED_SHARE = 0.01;

    public static List<SloCapacity> of(List<WindowResult> rows) {
        List<SloCapacity> all = new ArrayList<>();
        for (WindowResult r : rows) {
            if (r.load().steps().isEmpty() || r.delayMs() == null) {
                continue;
            }
            double bound = r.delayMs() + BOUND_ABOVE_DELAY_MS;
            Integer capacity = r.load().steps().stream().filter(s -> met(s, bound)).map(OpenStep::offeredRate)
                    .max(Integer::compare).orElse(null);
            List<Integer> missed = capacity == null ? List.of() : r.load().steps().stream()
                    .filter(s -> s.offeredRate() < capacity && !met(s, bound)).map(OpenStep::offeredRate).toList();
            all.add(new SloCapacity(r.jvmName(), r.variant(), r.delayMs(), bound, r.load().steps(), capacity,
                    missed));
        }
        return all;
    }

    public static boolean met(OpenStep step, double boundMs) {
        return step.achievedRate() >= ACHIEVED_SHARE * step.offeredRate()
                && step.droppedIterations() <= DROPPED_SHARE * (step.requests() + step.droppedIterations())
                && step.p99Ms() != null && step.p99Ms() <= boundMs;
    }
}
