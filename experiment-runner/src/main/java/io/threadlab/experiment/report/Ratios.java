package io.threadlab.experiment.report;

import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.plan.Point;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Ratios of two sets of windows: between variants, from each side's JVM starts (Student's pooled t on the JVM means;
 * with one JVM start on each side, paired by repetition); a recorded twin over its plain window, paired (the two ran
 * one after the other on the same JVM). See {@link Stats}.
 */
final class Ratios {

    private final Run run;

    Ratios(Run run) {
        this.run = run;
    }

    /** {@code variant / against} at a point, from their headline windows. */
    Stats.Ratio of(String variant, String against, Point p, Metric metric) {
        return of(variant, p, against, p, metric);
    }

    /** {@code variant} at {@code p} over {@code against} at {@code q}: a mistake over its reference's point. */
    Stats.Ratio of(String variant, Point p, String against, Point q, Metric metric) {
        return between(run.plain(variant, p), run.plain(against, q), metric);
    }

    /** Two variants' windows, which ran on JVMs of their own. */
    static Stats.Ratio between(List<WindowResult> windows, List<WindowResult> against, Metric metric) {
        return Stats.betweenJvms(observations(windows, metric), observations(against, metric),
                pairs(windows, against, metric));
    }

    private static List<Stats.Observation> observations(List<WindowResult> windows, Metric metric) {
        return windows.stream().map(w -> new Stats.Observation(metric.of(w), w.jvm())).toList();
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

    /** Windows that ran one after the other on the same JVM: a recorded twin and its plain window. */
    static Stats.Ratio paired(List<WindowResult> windows, List<WindowResult> against, Metric metric) {
        return Stats.pairedRatio(pairs(windows, against, metric));
    }

    private static List<Stats.Pair> pairs(List<WindowResult> windows, List<WindowResult> against, Metric metric) {
        Map<Integer, WindowResult> byRepetition = new LinkedHashMap<>();
        against.forEach(w -> byRepetition.put(w.repetition(), w));
        List<Stats.Pair> pairs = new ArrayList<>();
        for (WindowResult w : windows) {
            WindowResult b = byRepetition.get(w.repetition());
            if (b != null) {
                pairs.add(new Stats.Pair(metric.of(w), metric.of(b), w.jvm()));
            }
        }
        return pairs;
    }
}
