package io.threadlab.experiment.report.landscape;

import io.threadlab.experiment.collect.OpenStep;
import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.plan.OpenModel;

import java.util.ArrayList;
import java.util.List;

/**
 * The open model at one delay: latency against arrival rate, and the SLO capacity — the highest offered rate whose
 * p99 stayed under the bound with every arrival sent (at most 1 % of the step's arrivals dropped, 95 % of the rate
 * achieved), below the
 * first rate that missed. The bound is the downstream delay plus {@link #BOUND_ABOVE_DELAY_MS}: what a caller may
 * wait beyond the downstream's own time.
 *
 * @param capacity the SLO capacity in req/s, or null when even the first step missed it
 */
public record SloCapacity(String jvm, String variant, int delayMs, double boundMs, List<OpenStep> steps,
                          Integer capacity) {

    public static final int BOUND_ABOVE_DELAY_MS = OpenModel.SLO_ABOVE_DELAY_MS;

    public static List<SloCapacity> of(List<WindowResult> rows) {
        List<SloCapacity> all = new ArrayList<>();
        for (WindowResult r : rows) {
            if (r.steps() == null || r.steps().isEmpty() || r.delayMs() == null) {
                continue;
            }
            double bound = r.delayMs() + BOUND_ABOVE_DELAY_MS;
            Integer capacity = null;
            for (OpenStep step : r.steps()) {
                if (!met(step, bound)) {
                    break;
                }
                capacity = step.offeredRate();
            }
            all.add(new SloCapacity(r.jvmName(), r.variant(), r.delayMs(), bound, r.steps(), capacity));
        }
        return all;
    }

    static boolean met(OpenStep step, double boundMs) {
        return step.achievedRate() >= 0.95 * step.offeredRate()
                && step.droppedIterations() <= 0.01 * (step.requests() + step.droppedIterations())
                && step.p99Ms() != null && step.p99Ms() <= boundMs;
    }
}
