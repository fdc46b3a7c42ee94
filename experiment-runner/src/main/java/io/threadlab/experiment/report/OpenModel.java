package io.threadlab.experiment.report;

import io.threadlab.experiment.collect.OpenStep;
import io.threadlab.experiment.collect.WindowResult;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The open model: each variant's arrival-rate steps (at each delay), and where it stopped keeping up. */
final class OpenModel {

    /** One variant's steps at one delay; {@code name} says the delay when the run has several. */
    record Series(String name, String variant, List<OpenStep> steps) {
    }

    private OpenModel() {
    }

    static List<Series> of(Run run) {
        List<Series> series = new ArrayList<>();
        for (String variant : run.variants()) {
            for (WindowResult w : run.windows()) {
                if (w.variant().equals(variant) && w.scenario().equals("open") && w.steps() != null
                        && !w.steps().isEmpty()) {
                    series.add(new Series(variant + (run.severalDelays() ? " at " + run.delay(w) + " ms" : ""),
                            variant, w.steps()));
                }
            }
        }
        return series;
    }

    /** Sustained: at least 95 % of the offered rate achieved, at most 1 % of it dropped. */
    static boolean sustained(OpenStep s) {
        return s.achievedRate() >= 0.95 * s.offeredRate() && s.droppedIterations() <= 0.01 * s.offeredRate();
    }

    /** The saturation knee: the highest offered rate sustained before the first one that was not. */
    static Optional<Integer> knee(List<OpenStep> steps) {
        Integer knee = null;
        for (OpenStep s : steps) {
            if (!sustained(s)) {
                break;
            }
            knee = s.offeredRate();
        }
        return Optional.ofNullable(knee);
    }
}
