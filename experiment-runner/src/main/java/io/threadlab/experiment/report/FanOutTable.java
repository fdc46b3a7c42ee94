package io.threadlab.experiment.report;

import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.FanOutMode;
import io.threadlab.experiment.plan.Point;
import io.threadlab.experiment.predict.Ceiling;
import io.threadlab.experiment.report.landscape.Winners;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * The fan-out section's table, only in a run that varied the calls per request. Per mode, delay and users, each
 * variant at each number of calls N: its throughput, its ratio to the baseline's at the same point, its p99 against N,
 * the CPU per downstream call (the CPU per request ÷ N) and the ceiling the capacity model predicted would decide.
 * The one-call point is every mode's first row. A crossover, where a variant's ratio to the baseline moves from one
 * side of 1 to the other between two consecutive N, is said from the medians; none is said where the data shows none.
 */
final class FanOutTable {

    /** One variant at one fan-out point. */
    record Row(String delay, String users, String mode, int calls, String variant, String colour, String throughput,
               String ratio, String p99, String cpuPerCall, String ceiling) {
    }

    record Table(List<Row> rows, List<String> crossovers, String baseline) {
    }

    private FanOutTable() {
    }

    /** The section, or null where the run did not vary the calls per request. */
    static Table of(Function<Cell, List<WindowResult>> windows, List<Cell> cells, String baseline) {
        List<FanOutMode> modes = cells.stream().filter(c -> calls(c.point()) > 1)
                .map(c -> c.point().get(Axis.FAN_OUT_MODE)).filter(Objects::nonNull).distinct().sorted().toList();
        if (modes.isEmpty()) {
            return null;
        }
        List<Row> rows = new ArrayList<>();
        List<String> crossovers = new ArrayList<>();
        for (FanOutMode mode : modes) {
            Map<Point, List<Cell>> groups = new LinkedHashMap<>(); // by delay and users, the calls' cells inside
            cells.stream().filter(c -> calls(c.point()) == 1 || c.point().get(Axis.FAN_OUT_MODE) == mode)
                    .sorted(Comparator.comparing((Cell c) -> c.point().without(Axis.FAN_OUT, Axis.FAN_OUT_MODE))
                            .thenComparingInt(c -> calls(c.point())))
                    .forEach(c -> groups.computeIfAbsent(c.point().without(Axis.FAN_OUT, Axis.FAN_OUT_MODE),
                            k -> new ArrayList<>()).add(c));
            groups.forEach((at, group) -> {
                if (group.stream().noneMatch(c -> calls(c.point()) > 1)) {
                    return;
                }
                for (Cell c : group) {
                    rows.add(row(windows.apply(c), mode, c, ratio(group, c, baseline)));
                }
                crossovers.addAll(crossovers(mode, at, group, baseline));
            });
        }
        return new Table(rows, crossovers, baseline);
    }

    private static Row row(List<WindowResult> windows, FanOutMode mode, Cell c, double ratio) {
        int calls = calls(c.point());
        SummaryTables.At at = SummaryTables.at(c.point().without(Axis.FAN_OUT, Axis.FAN_OUT_MODE));
        double cpu = c.get(Metric.CPU_PER_REQUEST).median();
        return new Row(at.delay(), at.users(), mode.label(), calls, c.variant(), ChartStyle.hex(c.variant()),
                Numbers.number(c.get(Metric.THROUGHPUT).median(), 0),
                Double.isNaN(ratio) ? "" : String.format(Locale.ROOT, "%.2f×", ratio),
                Numbers.number(c.get(Metric.P99).median(), 1), Numbers.number(cpu / calls, 3),
                ceiling(windows));
    }

    /** The binding ceiling the windows' predictions named (the most named, where JVM starts differed). */
    private static String ceiling(List<WindowResult> windows) {
        return RunFacts.mostNamed(windows).map(FanOutTable::ceilingLabel).orElse("not predicted");
    }

    /** The ceiling as the rest of the report names it ("CPU", "workers"); a name this runner does not know, as is. */
    static String ceilingLabel(String binding) {
        return Arrays.stream(Ceiling.values()).filter(c -> c.name().equals(binding)).findFirst().map(Ceiling::label)
                .orElse(binding.toLowerCase(Locale.ROOT).replace('_', ' '));
    }

    private static double ratio(List<Cell> group, Cell c, String baseline) {
        Optional<Cell> base = group.stream().filter(b -> b.variant().equals(baseline)
                && calls(b.point()) == calls(c.point())).findFirst();
        return base.map(b -> c.get(Metric.THROUGHPUT).median() / b.get(Metric.THROUGHPUT).median())
                .orElse(Double.NaN);
    }

    /**
     * Where a variant's throughput ratio to the baseline's goes from a clear lead to a clear lag (or back) between
     * consecutive numbers of calls measured for both: the crossover in N, from the medians (each JVM start's spread
     * is in the summary table); 0.99× to 1.02× is a tie on both sides, no crossover.
     */
    static List<String> crossovers(FanOutMode mode, Point at, List<Cell> group, String baseline) {
        List<String> said = new ArrayList<>();
        List<String> variants = group.stream().map(Cell::variant).filter(v -> !v.equals(baseline)).distinct()
                .toList();
        for (String variant : variants) {
            List<double[]> byCalls = group.stream().filter(c -> c.variant().equals(variant))
                    .map(c -> new double[] {calls(c.point()), ratio(group, c, baseline)})
                    .filter(r -> !Double.isNaN(r[1])).toList();
            for (int i = 1; i < byCalls.size(); i++) {
                double[] a = byCalls.get(i - 1);
                double[] b = byCalls.get(i);
                // A lead under Winners.CLEAR is a tie, as in "who wins where": a crossover is between clear leads.
                if (clearSide(a[1]) != 0 && clearSide(b[1]) != 0 && clearSide(a[1]) != clearSide(b[1])) {
                    said.add(String.format(Locale.ROOT, "%s, %s: %s %s %s between %d and %d calls (%.2f× → %.2f×)",
                            at.describe(), mode.label(), variant, b[1] > 1 ? "overtakes" : "falls behind", baseline,
                            (int) a[0], (int) b[0], a[1], b[1]));
                }
            }
        }
        return said;
    }

    /** 1 where the variant clearly leads the baseline, -1 where it clearly trails, 0 for a tie. */
    private static int clearSide(double ratio) {
        return ratio >= Winners.CLEAR ? 1 : ratio <= 1 / Winners.CLEAR ? -1 : 0;
    }

    private static int calls(Point p) {
        return p.getOrFallback(Axis.FAN_OUT);
    }
}
