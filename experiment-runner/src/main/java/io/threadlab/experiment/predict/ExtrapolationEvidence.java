package io.threadlab.experiment.predict;

import java.util.ArrayList;
import java.util.List;

/**
 * What calibrations say of {@link CpuCurve#EXTRAPOLATION_PER_EFOLD}: each calibration's end levels (the fewest and the
 * most requests waiting) left out and predicted from the others, as a point beyond the calibration is, the error then
 * stated (the others' own, widened by the rule per e-fold beyond them) against the error measured. The rule is what
 * the calibrations earn where it covers the coverage target's share of those ends ({@link Forecast#COVERAGE_TARGET}).
 *
 * @param covered the ends inside the error stated for them
 * @param ends    every end left out
 * @param beyond  how far beyond the others they lay, the median, in e-folds of requests waiting
 * @param runs    the runs they came from
 */
public record ExtrapolationEvidence(int covered, int ends, double beyond, int runs) {

    /** One end left out: its run, how far beyond the others, its relative error, the error stated. */
    public record End(String run, double beyond, double error, double stated) {
    }

    /** Each model's and the control's end levels in {@code run}'s calibrations. */
    public static List<End> of(String run, CalibratedRun calibrations) {
        List<End> ends = new ArrayList<>();
        calibrations.timedCurves().values().forEach(curve -> curve.endsLeftOut()
                .forEach(e -> ends.add(new End(run, e[0], e[1], e[2]))));
        return ends;
    }

    public static ExtrapolationEvidence of(List<End> ends) {
        double[] beyond = ends.stream().mapToDouble(End::beyond).sorted().toArray();
        double median = beyond.length == 0 ? Double.NaN : beyond.length % 2 == 1 ? beyond[beyond.length / 2]
                : (beyond[beyond.length / 2 - 1] + beyond[beyond.length / 2]) / 2;
        return new ExtrapolationEvidence((int) ends.stream().filter(e -> Math.abs(e.error()) <= e.stated()).count(),
                ends.size(), median, (int) ends.stream().map(End::run).distinct().count());
    }

    /** The rule per e-fold the model takes ({@link CpuCurve#EXTRAPOLATION_PER_EFOLD}). */
    public static double rule() {
        return CpuCurve.EXTRAPOLATION_PER_EFOLD;
    }

    /** The share of ends inside the error stated for them; NaN where there are none. */
    public double share() {
        return ends == 0 ? Double.NaN : (double) covered / ends;
    }

    /** Whether the rule covers at least the coverage target's share of the ends. */
    public boolean holds() {
        return share() >= Forecast.COVERAGE_TARGET;
    }
}
