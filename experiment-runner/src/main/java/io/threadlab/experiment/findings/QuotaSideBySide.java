package io.threadlab.experiment.findings;

import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.report.landscape.Outcome;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * A quota beside another: where a published run measured one variant in JVMs at two CPU quotas one after the other (a
 * map with several {@code --cpus}, each JVM calibrated at its own quota), the CPU a request cost at the other quota
 * over the cost at the run's own, at the same delay and users, calibration levels and measured windows alike, where
 * both JVMs used their quota ({@link Outcome#CPU_BOUND_SHARE}): below it a window's CPU is partly the JVM's idle work.
 * Runs measured hours apart cannot say this: the machine's speed moved a request's CPU between them by as much.
 */
final class QuotaSideBySide {

    /** One point measured at both quotas: each cost the median of its windows' there. */
    record Row(String run, String variant, String at, String window, String quota, String cost, String ownCost,
               String ratio, double value) {
    }

    /**
     * The rows, the run's own quota (the first such run's, linked), the ratios together (how many, the median, the
     * lowest and the highest), and how the forecasts fared at the other quota, predicted from the run's own.
     */
    record Section(List<Row> rows, String own, String pairs, String median, String low, String high, Across across) {
    }

    /** Of the held-out windows at another quota than their calibration's: "5 of 6" within, inside, named. */
    record Across(String within, String covered, String named) {
    }

    private QuotaSideBySide() {
    }

    /**
     * The section, or null where no run measured two quotas; {@code held}: each held-out run's outcomes by its name,
     * predicted from its own quota's JVMs where it calibrated itself.
     */
    static Section of(List<PublishedRun> runs, Map<String, List<Outcome>> held) {
        List<Row> rows = new ArrayList<>();
        List<Outcome> across = new ArrayList<>();
        String own = null;
        for (PublishedRun run : runs) {
            double quota = run.facts().manifest().confinement() == null ? Double.NaN
                    : run.facts().manifest().confinement().variantCpuQuota();
            List<Row> found = rows(Cite.link(run.name(), run.report()), run.results(), run.facts().windows(), quota);
            if (!found.isEmpty()) {
                rows.addAll(found);
                own = own == null ? Cite.link(Cite.format(quota, 2), run.results()) + " CPU" : own;
                held.getOrDefault(run.name(), List.of()).stream().filter(o -> o.at().get(Axis.CPUS) != quota)
                        .forEach(across::add);
            }
        }
        if (rows.isEmpty()) {
            return null;
        }
        double[] ratios = rows.stream().mapToDouble(Row::value).sorted().toArray();
        String all = PublishedRun.FROM_DOCS;
        return new Section(rows, own, Cite.link(String.valueOf(ratios.length), all),
                Cite.link(Cite.times(median(ratios)), all), Cite.link(Cite.times(ratios[0]), all),
                Cite.link(Cite.times(ratios[ratios.length - 1]), all), new Across(
                        Forecasts.within(across, all), Forecasts.covered(across).cited(all),
                        Forecasts.named(across).cited(all)));
    }

    /**
     * A run's points measured at its own quota and another, each variant's, calibrations first.
     *
     * @param run     the run's name, linked to its report
     * @param results its results table, where every cost and quota is a column
     */
    static List<Row> rows(String run, String results, List<WindowResult> windows, double own) {
        // variant, calibration or not, delay, users -> quota -> the windows' costs
        Map<String, Map<Double, List<Double>>> points = new TreeMap<>();
        for (WindowResult w : windows) {
            if (w.users() == null || w.delayMs() == null || w.burst() != null || w.load().requests() == 0
                    || !w.at().has(Axis.CPUS)) {
                continue;
            }
            double quota = w.at().get(Axis.CPUS);
            if (w.cpu().cpuCores() < Outcome.CPU_BOUND_SHARE * quota) {
                continue;
            }
            String key = String.format(Locale.ROOT, "%s|%d|%06d|%06d", w.variant(), w.calibration() ? 0 : 1,
                    w.delayMs(), w.users());
            points.computeIfAbsent(key, k -> new TreeMap<>()).computeIfAbsent(quota, q -> new ArrayList<>())
                    .add(w.cpu().cpuMsPerRequest());
        }
        List<Row> rows = new ArrayList<>();
        points.forEach((key, byQuota) -> {
            List<Double> atOwn = byQuota.get(own);
            if (atOwn == null) {
                return;
            }
            String[] parts = key.split("\\|");
            double ownCost = median(atOwn.stream().mapToDouble(Double::doubleValue).sorted().toArray());
            byQuota.forEach((quota, costs) -> {
                if (quota == own) {
                    return;
                }
                double cost = median(costs.stream().mapToDouble(Double::doubleValue).sorted().toArray());
                rows.add(new Row(run, parts[0], String.format(Locale.ROOT,
                        "%d ms, %,d users", Integer.parseInt(parts[2]), Integer.parseInt(parts[3])),
                        parts[1].equals("0") ? "calibration" : "measured", Cite.link(Cite.format(quota, 2), results)
                        + " CPU",
                        Cite.number(cost, 3, results), Cite.number(ownCost, 3, results),
                        Cite.link(Cite.times(cost / ownCost), results), cost / ownCost));
            });
        });
        return rows;
    }

    private static double median(double[] sorted) {
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
