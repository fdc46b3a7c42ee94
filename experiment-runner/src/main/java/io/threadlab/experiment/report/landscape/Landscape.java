package io.threadlab.experiment.report.landscape;

import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.plan.Axis;

import java.util.List;
import java.util.Map;

/**
 * The regime map's findings: every closed-model point measured beside its prediction, who wins where and where that
 * changes, what a request in flight costs, the open model's SLO capacity at each delay, and the seeds' table at its
 * own regime.
 */
public record Landscape(List<Outcome> outcomes, List<Winners.Cell> cells, List<Winners.Crossover> crossovers,
                        List<InFlightCost> inFlight, List<SloCapacity> slo, SeedTable seeds,
                        Map<String, org.knowm.xchart.XYChart> charts) {

    /** A window's calls per request and their mode ("1" for one call, in either mode): fan-out calibrates apart. */
    private static String calls(WindowResult w) {
        int n = w.at().getOrFallback(Axis.FAN_OUT);
        return n == 1 ? "1" : n + " " + w.at().get(Axis.FAN_OUT_MODE);
    }

    /**
     * @param machineCores the CPUs of the machine k6 ran on (LoadOrigin#loadCores)
     * @param loadAlone    whether k6 had that machine to itself, the services elsewhere
     */
    public static Landscape of(List<WindowResult> rows, double machineCores, boolean loadAlone) {
        List<WindowResult> calibration = rows.stream().filter(WindowResult::calibration).toList();
        List<Outcome> outcomes = rows.stream().filter(r -> !r.recorded() && !r.calibration() && r.users() != null)
                .map(r -> Outcome.of(r, calibration.stream().anyMatch(c -> c.jvmName().equals(r.jvmName())
                        && c.jvm() == r.jvm() && c.users().equals(r.users()) && c.delayMs().equals(r.delayMs())
                        && calls(c).equals(calls(r))),
                        machineCores, loadAlone)).toList();
        List<Winners.Cell> cells = Winners.cells(outcomes);
        List<SloCapacity> slo = SloCapacity.of(rows);
        // a run at one delay and two levels: the tables say it all; the landscape's charts are a map's
        return new Landscape(outcomes, cells, Winners.crossovers(cells), InFlightCost.of(rows), slo,
                SeedTable.of(outcomes), isMap(outcomes) ? LandscapeCharts.of(outcomes, slo) : Map.of());
    }

    /** More than one delay, or more than two numbers of users: a landscape, not a point. */
    public boolean isMap() {
        return isMap(outcomes);
    }

    private static boolean isMap(List<Outcome> outcomes) {
        return outcomes.stream().map(Outcome::delayMs).distinct().count() > 1
                || outcomes.stream().map(Outcome::users).distinct().count() > 2;
    }
}
