package io.threadlab.experiment.report;

import io.threadlab.experiment.collect.WindowResult;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Whether the repetitions agree: each cell's spread, its trend, the JVM starts, each ratio's interval, and what the
 * detailed recording cost. The targets are the issue's, printed beside the measured numbers.
 */
final class SpreadChecks {

    static final double TARGET_CV = 0.05;
    static final double TARGET_RATIO_HALF_WIDTH = 0.10;
    static final double TARGET_RECORDING_COST = 0.97;

    private SpreadChecks() {
    }

    static List<Checks.Check> of(Run run, List<Cell> cells, Ratios ratios) {
        List<String> noisy = new ArrayList<>();
        List<String> rising = new ArrayList<>();
        List<String> cvs = new ArrayList<>();
        List<String> jvmSpreads = new ArrayList<>();
        for (Cell c : cells) {
            if (run.mistakes().containsKey(c.variant())) {
                continue;
            }
            Stats.Summary s = c.get(Metric.THROUGHPUT);
            String name = c.variant() + "@" + run.tag(c.point());
            cvs.add(name + " " + Numbers.pct(s.cv()));
            if (s.cv() > TARGET_CV) {
                noisy.add(name);
            }
            List<Double> inTimeOrder = run.plain(c.variant(), c.point()).stream()
                    .sorted(Comparator.comparing(WindowResult::startedAt,
                            Comparator.nullsFirst(Comparator.naturalOrder()))).map(WindowResult::requestsPerSecond)
                    .toList();
            if (Stats.onlyRises(inTimeOrder)) {
                rising.add(name + " " + inTimeOrder.stream().map(v -> String.format(Locale.ROOT, "%.0f", v))
                        .toList());
            }
            if (!Double.isNaN(s.jvmSpread())) {
                jvmSpreads.add(name + " " + Numbers.pct(s.jvmSpread()));
            }
        }
        return List.of(
                new Checks.Check("Every cell's throughput CV is at most " + Numbers.pct(TARGET_CV),
                        noisy.isEmpty() && !cvs.isEmpty(), (noisy.isEmpty() ? "" : "ABOVE: " + noisy + "; ")
                        + String.join(", ", cvs)),
                new Checks.Check("No cell's repetitions only ever rise (still warming up)", rising.isEmpty(),
                        rising.isEmpty() ? "none" : String.join("; ", rising)),
                new Checks.Check("JVM starts agree", true, jvmSpreads.isEmpty()
                        ? "one JVM start per variant: not measured" : "largest over smallest JVM mean, minus 1: "
                        + String.join(", ", jvmSpreads) + " (in the intervals: the JVM start is a level)"),
                ratioWidths(run, ratios),
                recordingCost(run, ratios));
    }

    /** Every pair of the main variants at every point: one repetition gives no interval, which is no precision. */
    private static Checks.Check ratioWidths(Run run, Ratios ratios) {
        List<String> wide = new ArrayList<>();
        List<String> none = new ArrayList<>();
        List<String> widths = new ArrayList<>();
        List<String> main = run.mainVariants();
        for (Point p : run.points()) {
            for (int i = 0; i < main.size(); i++) {
                for (int j = i + 1; j < main.size(); j++) {
                    Stats.Ratio r = ratios.of(main.get(j), main.get(i), p, Metric.THROUGHPUT);
                    String name = main.get(j) + "/" + main.get(i) + "@" + run.tag(p);
                    if (!Numbers.hasInterval(r)) {
                        none.add(name);
                        widths.add(name + " no interval");
                    } else {
                        widths.add(name + " ±" + Numbers.pct(r.relativeHalfWidth()));
                        if (!(r.relativeHalfWidth() <= TARGET_RATIO_HALF_WIDTH)) {
                            wide.add(name);
                        }
                    }
                }
            }
        }
        return new Checks.Check("Every throughput ratio's 95 % CI half-width is at most "
                + Numbers.pct(TARGET_RATIO_HALF_WIDTH), wide.isEmpty() && none.isEmpty() && !widths.isEmpty(),
                (wide.isEmpty() ? "" : "WIDER: " + wide + "; ")
                        + (none.isEmpty() ? "" : "NO INTERVAL (one repetition): " + none + "; ")
                        + String.join(", ", widths));
    }

    private static Checks.Check recordingCost(Run run, Ratios ratios) {
        List<String> costs = new ArrayList<>();
        boolean cheap = true;
        for (Map.Entry<String, Map<Point, Stats.Ratio>> variant : ratios.recordingCosts().entrySet()) {
            for (Map.Entry<Point, Stats.Ratio> at : variant.getValue().entrySet()) {
                Stats.Ratio r = at.getValue();
                costs.add(variant.getKey() + "@" + run.tag(at.getKey()) + " " + Numbers.times(r) + " (" + r.pairs()
                        + (r.pairs() == 1 ? " pair)" : " pairs)"));
                cheap &= r.ratio() >= TARGET_RECORDING_COST;
            }
        }
        return new Checks.Check("The detailed recording costs at most " + Numbers.pct(1 - TARGET_RECORDING_COST)
                + " of throughput", cheap && !costs.isEmpty(), costs.isEmpty() ? "no recorded twins in this run"
                : "recorded / plain throughput: " + String.join(", ", costs));
    }
}
