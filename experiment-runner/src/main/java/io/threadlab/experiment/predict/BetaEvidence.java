package io.threadlab.experiment.predict;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What calibrations say of {@link CpuCurve#BETA_ERROR}: one calibration's β (what the calls in flight add to a
 * request's CPU) is off by as much as the β of calibrations of the same variant on the same machine and platform
 * differ. Each calibration that measured β (at two delays, its calls in flight a factor apart) gives its fitted β;
 * each variant's are taken from their own mean, and the pooled standard deviation of those deviations is what one
 * calibration's β is off by. The error that covers the coverage target ({@link Forecast#COVERAGE_TARGET}, two-sided)
 * is {@link #Z_90} times it.
 *
 * @param spread       the pooled standard deviation of one variant's β across calibrations, per e-fold
 * @param error        the error that covers 90 % of them: {@link #Z_90} × spread
 * @param standardError that error's own standard error (a standard deviation from n deviations: spread / √(2 df))
 * @param calibrations the calibrations that entered it
 * @param runs         the runs they came from
 */
public record BetaEvidence(double spread, double error, double standardError, int calibrations, int runs) {

    /** The two-sided 90 % point of the normal distribution: the coverage target's width in standard deviations. */
    static final double Z_90 = 1.6449;

    /** One calibration's fitted β: its run, its variant (and whatever else makes calibrations comparable). */
    public record Estimate(String run, String group, double beta) {
    }

    /**
     * Each model's and the control's fitted β in {@code run}'s calibrations where they measured it, grouped by variant
     * and {@code platform}: another platform's β is another stack's.
     */
    public static List<Estimate> of(String run, String platform, CalibratedRun calibrations) {
        List<Estimate> estimates = new ArrayList<>();
        calibrations.timedCurves().forEach((variant, curve) -> {
            if (curve.betaMeasured()) {
                estimates.add(new Estimate(run, variant + " on " + platform, curve.fittedBeta()));
            }
        });
        return estimates;
    }

    /** The evidence of these estimates; NaN where fewer than two of one group leave no deviation to measure. */
    public static BetaEvidence of(List<Estimate> estimates) {
        Map<String, List<Estimate>> groups = new LinkedHashMap<>();
        estimates.forEach(e -> groups.computeIfAbsent(e.group(), k -> new ArrayList<>()).add(e));
        double squares = 0;
        int deviations = 0;
        int degrees = 0;
        Set<String> runs = new HashSet<>();
        for (List<Estimate> group : groups.values()) {
            if (group.size() < 2) {
                continue;
            }
            double mean = group.stream().mapToDouble(Estimate::beta).average().orElseThrow();
            squares += group.stream().mapToDouble(e -> (e.beta() - mean) * (e.beta() - mean)).sum();
            deviations += group.size();
            degrees += group.size() - 1;
            group.forEach(e -> runs.add(e.run()));
        }
        if (degrees < 2) {
            return new BetaEvidence(Double.NaN, Double.NaN, Double.NaN, deviations, runs.size());
        }
        double spread = Math.sqrt(squares / degrees);
        return new BetaEvidence(spread, Z_90 * spread, Z_90 * spread / Math.sqrt(2.0 * degrees), deviations,
                runs.size());
    }

    /** The least error the model takes for a measured β, per e-fold carried ({@link CpuCurve#BETA_ERROR}). */
    public static double leastError() {
        return CpuCurve.BETA_ERROR;
    }

    /** Whether the constant lies within two standard errors of the error the calibrations earn. */
    public boolean holds(double constant) {
        return Math.abs(constant - error) <= 2 * standardError;
    }
}
