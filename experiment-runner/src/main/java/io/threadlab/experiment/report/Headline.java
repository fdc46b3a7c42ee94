package io.threadlab.experiment.report;

import io.threadlab.experiment.plan.Point;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The answer at a glance: each main variant against the worker-thread model, in a sentence per point and in tiles. */
final class Headline {

    /** One ratio at the top point, big. */
    record Tile(String ratio, String text, String interval, String colour, boolean unfinished) {
    }

    private Headline() {
    }

    static List<String> sentences(Run run, Ratios ratios) {
        List<String> lines = new ArrayList<>();
        String baseline = Splits.baseline().label();
        if (!run.variants().contains(baseline)) {
            return lines;
        }
        for (Point p : run.points()) {
            List<String> parts = new ArrayList<>();
            for (String variant : run.mainVariants()) {
                Stats.Ratio r = ratios.of(variant, baseline, p, Metric.THROUGHPUT);
                if (variant.equals(baseline) || Double.isNaN(r.ratio())) {
                    continue;
                }
                Stats.Ratio cpu = ratios.of(variant, baseline, p, Metric.CPU_PER_REQUEST);
                parts.add(String.format(Locale.ROOT, "%s %s the %s throughput%s at %s the CPU per request%s",
                        variant, Numbers.times(r), baseline, !Numbers.hasInterval(r) ? " (no interval: one"
                                + " repetition)" : r.withinNoise() ? " (within noise)" : "", Numbers.times(cpu),
                        run.unfinished(variant) ? " — NOT A FINDING: its compiler had not finished" : ""));
            }
            if (!parts.isEmpty()) {
                lines.add("At " + run.label(p) + ": " + String.join("; ", parts) + ".");
            }
        }
        return lines;
    }

    static List<Tile> tiles(Run run, Ratios ratios) {
        List<Tile> tiles = new ArrayList<>();
        String baseline = Splits.baseline().label();
        if (!run.variants().contains(baseline) || run.top().isEmpty()) {
            return tiles;
        }
        Point top = run.top().get();
        for (String variant : run.mainVariants()) {
            if (variant.equals(baseline)) {
                continue;
            }
            for (Metric m : List.of(Metric.THROUGHPUT, Metric.CPU_PER_REQUEST)) {
                Stats.Ratio r = ratios.of(variant, baseline, top, m);
                if (Double.isNaN(r.ratio())) {
                    continue;
                }
                String measure = m == Metric.THROUGHPUT ? "throughput" : m.heading();
                String interval = !Numbers.hasInterval(r) ? Numbers.NO_INTERVAL : r.withinNoise() ? "within noise"
                        : Numbers.CONFIDENCE + " CI " + Numbers.number(r.low(), 2) + "–" + Numbers.number(r.high(), 2);
                tiles.add(new Tile(Numbers.number(r.ratio(), 2) + "×", variant + " " + measure + " vs " + baseline
                        + " at " + run.label(top), interval, ChartStyle.hex(variant), run.unfinished(variant)));
            }
        }
        return tiles;
    }

    /** The main variants whose compiler had not finished: none of their numbers is a finding. */
    static List<String> unfinished(Run run) {
        return run.mainVariants().stream().filter(run::unfinished).toList();
    }
}
