package io.threadlab.experiment.report.landscape;

import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.plan.Headroom;

import java.util.List;
import java.util.Locale;

/**
 * How the forecasts of k6 fared in held-out windows where its CPU was read and forecast: k6 shares the machine with
 * the services, and each forecast said before measuring what k6 would spend at the throughput it predicted, with the
 * error its calibration earned. Per request, so that a throughput forecast off does not count twice: k6's CPU per
 * request as measured over what the forecast said, and whether it fell within that error. And, of the windows where
 * k6 used more than {@link Headroom#MOST_SHARE} of the CPU left to it (the point is then not judged), how many the
 * forecast had said it would crowd, and how many more it had said it might (its error reaching past the rule); and of
 * the windows k6 left room in, how many it had said would or might be crowded.
 *
 * @param ratios   k6's CPU a request as measured over as forecast, one per window, sorted
 * @param stated   the windows whose forecast stated an error of k6's CPU (one earned by its calibration)
 * @param inside   of those, the windows whose ratio fell within it
 * @param crowded  the windows k6 crowded
 * @param foreseen of those, the windows the forecast had said k6 would crowd
 * @param warned   of those, the windows it had said k6 might crowd, and not that it would
 * @param calm     the windows k6 left room in
 * @param alarms   of those, the windows it had said k6 would or might crowd
 */
public record LoadForecasts(double[] ratios, int stated, int inside, int crowded, int foreseen, int warned, int calm,
                            int alarms) {

    /** From outcomes, the held-out ones whose k6 CPU was read and forecast; null where there is none. */
    public static LoadForecasts of(List<Outcome> outcomes) {
        List<Outcome> read = outcomes.stream().filter(o -> o.heldOut() && o.measured() > 0
                && o.headroom().map(Headroom::measured).orElse(false) && forecastK6(o) > 0).toList();
        if (read.isEmpty()) {
            return null;
        }
        double[] ratios = read.stream().mapToDouble(LoadForecasts::perRequest).sorted().toArray();
        List<Outcome> stated = read.stream().filter(LoadForecasts::k6ErrorStated).toList();
        int inside = (int) stated.stream().filter(o -> Math.abs(perRequest(o) - 1) <= k6Error(o)).count();
        List<Outcome> crowded = read.stream().filter(o -> !o.headroom().orElseThrow().enough()).toList();
        int foreseen = (int) crowded.stream().filter(o -> share(o, 0) > Headroom.MOST_SHARE).count();
        int warned = (int) crowded.stream().filter(o -> share(o, 0) <= Headroom.MOST_SHARE
                && share(o, k6Error(o)) > Headroom.MOST_SHARE).count();
        List<Outcome> calm = read.stream().filter(o -> o.headroom().orElseThrow().enough()).toList();
        int alarms = (int) calm.stream().filter(o -> share(o, k6Error(o)) > Headroom.MOST_SHARE).count();
        return new LoadForecasts(ratios, stated.size(), inside, crowded.size(), foreseen, warned, calm.size(), alarms);
    }

    public int windows() {
        return ratios.length;
    }

    /** The ratio below which {@code share} of the windows lie, between neighbours. */
    public double quantile(double share) {
        return Quantiles.of(ratios, share);
    }

    /** As {@code predict --against} prints it, one paragraph. */
    public String describe() {
        return String.format(Locale.ROOT, "k6's CPU a request, measured over forecast: median %.2f× in %d windows, %s;"
                        + " k6 crowded %d, the forecast had said it would in %d and might in %d more; of the %d it left"
                        + " room in, it had said would or might of %d", quantile(0.5), windows(), stated == 0
                        ? "no error stated (its calibration earned none)" : String.format(Locale.ROOT, "%d of the %d"
                        + " with an error stated within it (%.0f %%)", inside, stated, 100.0 * inside / stated),
                crowded, foreseen, warned, calm, alarms);
    }

    /** k6's CPU per request as measured over what the forecast said. */
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

    /** The relative error the forecast stated of k6's CPU (0 where it stated none: as before it did, or not earned). */
    private static double k6Error(Outcome o) {
        return k6ErrorStated(o) ? o.prediction().orElseThrow().predictedK6Error() : 0;
    }

    private static boolean k6ErrorStated(Outcome o) {
        Double error = o.prediction().map(WindowResult.Prediction::predictedK6Error).orElse(null);
        return error != null && !error.isNaN();
    }
}
