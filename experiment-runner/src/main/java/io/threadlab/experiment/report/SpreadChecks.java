package io.threadlab.experiment.report;

import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.plan.Point;
import io.threadlab.experiment.record.Yardstick;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

/**
 * Whether the repetitions agree: each cell's spread, its trend, the JVM starts, each ratio's interval, and what the
 * detailed recording cost. The targets are the issue's, printed beside the measured numbers.
 */
final class SpreadChecks {

    static final double TARGET_CV = 0.05;
    /** JVM starts of one variant agree when their means lie within this of each other (largest ÷ smallest − 1). */
    static final double TARGET_JVM_SPREAD = 0.10;
    static final double TARGET_RATIO_HALF_WIDTH = 0.10;
    static final double TARGET_RECORDING_COST = 0.97;

    private SpreadChecks() {
    }

    static List<Check> of(Run run, List<Cell> cells, Ratios ratios) {
        List<String> noisy = new ArrayList<>();
        List<String> rising = new ArrayList<>();
        List<String> cvs = new ArrayList<>();
        List<String> jvmSpreads = new ArrayList<>();
        List<String> apart = new ArrayList<>();
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
                    .sorted(Comparator.comparing(w -> w.window().startedAt(),
                            Comparator.nullsFirst(Comparator.naturalOrder())))
                    .map(w -> w.load().requestsPerSecond()).toList();
            if (Stats.onlyRises(inTimeOrder)) {
                rising.add(name + " " + inTimeOrder.stream().map(v -> String.format(Locale.ROOT, "%.0f", v))
                        .toList());
            }
            if (!Double.isNaN(s.jvmSpread())) {
                jvmSpreads.add(name + " " + Numbers.pct(s.jvmSpread()));
                if (s.jvmSpread() > TARGET_JVM_SPREAD) {
                    apart.add(name + machineBetweenStarts(run.plain(c.variant(), c.point())));
                }
            }
        }
        long measured = cells.stream().filter(c -> !run.mistakes().containsKey(c.variant()))
                .filter(c -> !Double.isNaN(c.get(Metric.THROUGHPUT).cv())).count();
        String cvName = "Every cell's throughput CV is at most " + Numbers.pct(TARGET_CV);
        String risingName = "No cell's repetitions only ever rise (still warming up)";
        String jvmName = "JVM starts agree within " + Numbers.pct(TARGET_JVM_SPREAD);
        return List.of(
                measured == 0 ? Check.notMeasured(cvName, "no cell has two windows")
                        : Check.of(cvName, noisy.isEmpty(), (noisy.isEmpty() ? "" : "ABOVE: " + noisy + "; ")
                        + String.join(", ", cvs)),
                run.windows().stream().noneMatch(w -> w.users() != null)
                        ? Check.notMeasured(risingName, "no closed-model window")
                        : Check.of(risingName, rising.isEmpty(), rising.isEmpty()
                        ? "none of " + cells.size() + " cells (a cell needs three windows to be judged)"
                        : String.join("; ", rising)),
                jvmSpreads.isEmpty() ? Check.notMeasured(jvmName, "one JVM start per variant")
                        : Check.of(jvmName, apart.isEmpty(), (apart.isEmpty() ? "" : "APART: " + apart + "; ")
                        + "largest over smallest JVM mean, minus 1: " + String.join(", ", jvmSpreads)
                        + " (the intervals take the JVM start as a level either way)"),
                ratioWidths(run, ratios),
                recordingCost(run, ratios));
    }

    /**
     * What the machine's yardstick says of two JVM starts apart: the mean CPU its fixed piece of work took in the
     * slowest start's windows against the fastest start's. Empty where a window was not timed.
     */
    static String machineBetweenStarts(List<WindowResult> windows) {
        Map<Integer, List<WindowResult>> byStart = windows.stream()
                .collect(Collectors.groupingBy(w -> w.window().jvm(), TreeMap::new, Collectors.toList()));
        if (byStart.size() < 2 || windows.stream().anyMatch(w -> w.instruments().yardstickUs() == null)) {
            return "";
        }
        Comparator<List<WindowResult>> byThroughput = Comparator.comparingDouble(ws -> mean(ws,
                w -> w.load().requestsPerSecond()));
        List<WindowResult> slowest = byStart.values().stream().min(byThroughput).orElseThrow();
        List<WindowResult> fastest = byStart.values().stream().max(byThroughput).orElseThrow();
        double machine = mean(slowest, w -> w.instruments().yardstickUs()) / mean(fastest,
                w -> w.instruments().yardstickUs());
        return machine > 1 + Yardstick.SLOWER_SHARE
                ? String.format(Locale.ROOT, " (its slower JVM start met the machine %.2f× slower)", machine)
                : String.format(Locale.ROOT, " (the machine within %d %% under both JVM starts: %.2f×)",
                Math.round(Yardstick.SLOWER_SHARE * 100), machine);
    }

    private static double mean(List<WindowResult> windows, ToDoubleFunction<WindowResult> of) {
        return windows.stream().mapToDouble(of).average().orElse(Double.NaN);
    }

    /** Every pair of the main variants at every point: one repetition gives no interval, which is no precision. */
    static Check ratioWidths(Run run, Ratios ratios) {
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
        String name = "Every throughput ratio's " + Numbers.CONFIDENCE + " CI half-width is at most " + Numbers.pct(TARGET_RATIO_HALF_WIDTH);
        if (widths.isEmpty()) {
            return Check.notMeasured(name, main.size() < 2 ? "one variant: no ratio" : "no point with two variants");
        }
        return Check.of(name, wide.isEmpty() && none.isEmpty(), (wide.isEmpty() ? "" : "WIDER: " + wide + "; ")
                        + (none.isEmpty() ? "" : "NO INTERVAL (one repetition): " + none + "; ")
                        + String.join(", ", widths));
    }

    static Check recordingCost(Run run, Ratios ratios) {
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
        String name = "The detailed recording costs at most " + Numbers.pct(1 - TARGET_RECORDING_COST)
                + " of throughput";
        if (costs.isEmpty()) {
            return Check.notMeasured(name, "no recorded twin beside a plain window");
        }
        return Check.of(name, cheap, "recorded / plain throughput: " + String.join(", ", costs));
    }
}
