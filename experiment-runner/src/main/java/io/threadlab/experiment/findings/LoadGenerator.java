package io.threadlab.experiment.findings;

import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.plan.Headroom;
import io.threadlab.experiment.predict.Forecast;
import io.threadlab.experiment.report.landscape.Outcome;

import java.util.List;

/**
 * The load generator in the forecast, judged on the held-out windows: k6 shares the machine with the services, and
 * each forecast says before measuring what k6 will spend at the throughput it predicts ({@code LoadCost}, fitted to
 * the calibration's windows), with the error its calibration earned. Per request, so that a throughput forecast off
 * does not count twice: k6's CPU per request as measured over what the forecast said, and whether it fell within
 * that error; and, of the windows where k6 used more than {@link Headroom#MOST_SHARE} of the CPU left to it (the
 * report then does not judge the point), how many the forecast had said it would crowd, and how many more it had
 * said it might (its error reaching past the rule); and how often it said so of a window k6 did not crowd.
 *
 * @param ratio      the median of measured over forecast, "1.52×", linked
 * @param low        the ratio below which a tenth of the windows lie, linked
 * @param high       ... and above which a tenth lie
 * @param windows    the windows compared, linked
 * @param inside     of those, the windows whose k6 a request fell within the error stated, linked
 * @param insideShare that share, "87 %", linked
 * @param crowded    the windows k6 crowded, linked
 * @param foreseen   of those, the windows whose forecast had said k6 would crowd them, linked
 * @param warned     of those, the windows whose forecast had said k6 might (within its error), linked
 * @param calm       the windows k6 did not crowd, linked
 * @param alarms     of those, the windows whose forecast had said k6 would or might crowd them, linked
 * @param under      whether k6 costs more than the forecast says by more than the model's tolerance, in the median
 * @param uncovered  whether fewer windows fell within the error stated than {@link Forecast#COVERAGE_TARGET}
 * @param unforeseen whether the forecast said would or might of fewer than half of the windows k6 crowded
 */
record LoadGenerator(String ratio, String low, String high, String windows, String inside, String insideShare,
                     String crowded, String foreseen, String warned, String calm, String alarms, boolean under,
                     boolean uncovered, boolean unforeseen) {

    /** From held-out outcomes whose k6 CPU was read and forecast; null where none was. */
    static LoadGenerator of(List<Outcome> outcomes) {
        List<Outcome> read = outcomes.stream().filter(o -> o.heldOut() && o.measured() > 0
                && o.headroom().map(Headroom::measured).orElse(false) && forecastK6(o) > 0).toList();
        if (read.isEmpty()) {
            return null;
        }
        double[] ratios = read.stream().mapToDouble(LoadGenerator::perRequest).sorted().toArray();
        long inside = read.stream().filter(o -> Math.abs(perRequest(o) - 1) <= k6Error(o)).count();
        List<Outcome> crowded = read.stream().filter(o -> !o.headroom().orElseThrow().enough()).toList();
        long foreseen = crowded.stream().filter(o -> share(o, 0) > Headroom.MOST_SHARE).count();
        long warned = crowded.stream().filter(o -> share(o, 0) <= Headroom.MOST_SHARE
                && share(o, k6Error(o)) > Headroom.MOST_SHARE).count();
        List<Outcome> calm = read.stream().filter(o -> o.headroom().orElseThrow().enough()).toList();
        long alarms = calm.stream().filter(o -> share(o, k6Error(o)) > Headroom.MOST_SHARE).count();
        double median = quantile(ratios, 0.5);
        String file = PublishedRun.FROM_DOCS;
        return new LoadGenerator(Cite.link(Cite.times(median), file), Cite.link(Cite.times(quantile(ratios, 0.1)),
                file), Cite.link(Cite.times(quantile(ratios, 0.9)), file), Cite.number(ratios.length, 0, file),
                Cite.number(inside, 0, file), Cite.link(Cite.percent((double) inside / ratios.length), file),
                Cite.number(crowded.size(), 0, file), Cite.number(foreseen, 0, file), Cite.number(warned, 0, file),
                Cite.number(calm.size(), 0, file), Cite.number(alarms, 0, file), median - 1 > Forecast.TOLERANCE,
                inside < Forecast.COVERAGE_TARGET * ratios.length, 2 * (foreseen + warned) < crowded.size());
    }

    /** k6's CPU a request as measured over what the forecast said. */
    private static double perRequest(Outcome o) {
        return o.headroom().orElseThrow().k6Cores() / o.measured() / (forecastK6(o) / o.predicted());
    }

    /** The share of its room k6 would take at the forecast, raised by {@code error}. */
    private static double share(Outcome o, double error) {
        return forecastK6(o) * (1 + error) / o.headroom().orElseThrow().roomCores();
    }

    /** k6's CPU the forecast said, at the throughput it predicted (0 where it said none). */
    private static double forecastK6(Outcome o) {
        Double k6 = o.prediction().map(WindowResult.Prediction::predictedK6Cores).orElse(null);
        return k6 == null || k6.isNaN() ? 0 : k6;
    }

    /** The relative error the forecast stated of k6's CPU (0 where it stated none, as before it did). */
    private static double k6Error(Outcome o) {
        Double error = o.prediction().map(WindowResult.Prediction::predictedK6Error).orElse(null);
        return error == null || error.isNaN() ? 0 : error;
    }

    /** The value below which {@code share} of the sorted values lie, between neighbours. */
    private static double quantile(double[] sorted, double share) {
        double at = share * (sorted.length - 1);
        int below = (int) Math.floor(at);
        int above = Math.min(sorted.length - 1, below + 1);
        return sorted[below] + (at - below) * (sorted[above] - sorted[below]);
    }
}
