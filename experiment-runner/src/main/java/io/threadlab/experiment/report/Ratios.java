package io.threadlab.experiment.report;

import io.threadlab.experiment.collect.WindowResult;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Ratios of two sets of windows measured in the same repetitions: paired by repetition, so that the machine's slow
 * drift between rotations cancels (see {@link Stats}).
 */
final class Ratios {

    private final Run run;

    Ratios(Run run) {
        this.run = run;
    }

    /** {@code variant / against} at a point, from their headline windows. */
    Stats.Ratio of(String variant, String against, Point p, Metric metric) {
        return paired(run.plain(variant, p), run.plain(against, p), metric);
    }

    /** Throughput with the detailed recording over without it, per variant and point, where the run has twins. */
    Map<String, Map<Point, Stats.Ratio>> recordingCosts() {
        Map<String, Map<Point, Stats.Ratio>> costs = new LinkedHashMap<>();
        for (String variant : run.variants()) {
            for (Point p : run.points()) {
                Stats.Ratio r = paired(run.recorded(variant, p), run.plain(variant, p), Metric.THROUGHPUT);
                if (!Double.isNaN(r.ratio())) {
                    costs.computeIfAbsent(variant, v -> new LinkedHashMap<>()).put(p, r);
                }
            }
        }
        return costs;
    }

    static Stats.Ratio paired(List<WindowResult> windows, List<WindowResult> against, Metric metric) {
        Map<Integer, WindowResult> byRepetition = new LinkedHashMap<>();
        against.forEach(w -> byRepetition.put(w.repetition(), w));
        List<Stats.Pair> pairs = new ArrayList<>();
        for (WindowResult w : windows) {
            WindowResult b = byRepetition.get(w.repetition());
            if (b != null) {
                pairs.add(new Stats.Pair(metric.of(w), metric.of(b), w.jvm()));
            }
        }
        return Stats.pairedRatio(pairs);
    }
}
