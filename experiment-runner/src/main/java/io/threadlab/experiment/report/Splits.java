package io.threadlab.experiment.report;

import io.threadlab.experiment.plan.Point;
import io.threadlab.experiment.plan.Variant;

import java.util.ArrayList;
import java.util.List;

/**
 * The worker-thread model's cost split into what its stack costs and what the threading model costs: the control runs
 * the worker model on the other models' stack, so baseline / control is the stack and control / model the model.
 */
final class Splits {

    /** One model at one point, for one measure: the total and its two factors. */
    record Split(Point point, Metric measure, String model, Stats.Ratio total, Stats.Ratio stack,
                 Stats.Ratio threading) {
        /**
         * The stack's share of the total, on the log scale (a factor of 2 and a factor of 1.5 add up as logs); not
         * defined when the total itself is within noise.
         */
        double stackShare() {
            return total.withinNoise() ? Double.NaN : Math.log(stack.ratio()) / Math.log(total.ratio());
        }
    }

    private Splits() {
    }

    static Variant baseline() {
        return Variant.model(Variant.Threads.WORKER);
    }

    /** The models on the control's stack, in the lab's order: what the control tells the stack from. */
    static List<Variant> models() {
        return Variant.control().map(control -> Variant.all().stream().filter(v -> v.role() == Variant.Role.MODEL
                && v.stack() == control.stack() && v.threads() != control.threads()).toList()).orElse(List.of());
    }

    /** Present when the control ran beside the baseline. */
    static List<Split> of(Run run, Ratios ratios) {
        List<Split> splits = new ArrayList<>();
        String baseline = baseline().label();
        String control = Variant.control().map(Variant::label).orElse(null);
        if (control == null || !run.variants().contains(baseline) || !run.variants().contains(control)) {
            return splits;
        }
        for (Point p : run.points()) {
            for (Variant model : models()) {
                if (!run.variants().contains(model.label())) {
                    continue;
                }
                for (Metric measure : List.of(Metric.CPU_PER_REQUEST, Metric.THROUGHPUT)) {
                    splits.add(new Split(p, measure, model.label(), ratios.of(baseline, model.label(), p, measure),
                            ratios.of(baseline, control, p, measure), ratios.of(control, model.label(), p, measure)));
                }
            }
        }
        return splits;
    }
}
