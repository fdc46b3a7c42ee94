package io.threadlab.experiment.report;

import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.plan.Point;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * One variant at one point: each metric summarised over the headline windows (median, interval, CV), and each
 * repetition's throughput as the charts draw it beside the median.
 */
record Cell(String variant, Point point, Map<Metric, Stats.Summary> metrics, List<Dot> dots) {

    /** One repetition's throughput, and the JVM start it ran on. */
    record Dot(int repetition, int jvm, double value) {
    }

    Stats.Summary get(Metric metric) {
        return metrics.get(metric);
    }

    /** Every cell with a throughput, by point, then variant in the run's order. */
    static List<Cell> all(Run run) {
        List<Cell> cells = new ArrayList<>();
        for (Point p : run.points()) {
            for (String variant : run.variants()) {
                List<WindowResult> windows = run.plain(variant, p);
                Map<Metric, Stats.Summary> metrics = new EnumMap<>(Metric.class);
                for (Metric m : Metric.values()) {
                    metrics.put(m, Stats.summarise(windows.stream()
                            .map(w -> new Stats.Observation(m.of(w), w.jvm())).toList()));
                }
                if (metrics.get(Metric.THROUGHPUT).n() > 0) {
                    cells.add(new Cell(variant, p, metrics, windows.stream()
                            .map(w -> new Dot(w.repetition(), w.jvm(), w.load().requestsPerSecond())).toList()));
                }
            }
        }
        return cells;
    }
}
