package io.threadlab.experiment.predict;

import io.threadlab.experiment.collect.WindowResult;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Whether k6's cost as a calibration fits it ({@link LoadCost}) holds in the windows of the JVM it calibrated: each
 * JVM's k6 cost fitted to its calibration windows alone, then read at each of its measured windows' own throughput
 * against what k6 spent there (so that a throughput forecast off does not count). Only the windows whose throughput
 * lies within the calibration's: below it the fitted line's intercept, not k6, says most of a window's cost (a map's
 * 10 users at 1 s wait, 8 req/s, were read at 0.4 CPU where k6 spent 0.01), and averaged in, those windows once hid
 * the cost of the histogram (1.01× where the windows inside said 1.09×). The log ratio, averaged per run (a run's
 * windows share its machine and its k6), then over the runs, with the runs' standard error. An older calibration's
 * windows ran k6 without the live latency histogram the measured windows keep; {@link LoadCost#HISTOGRAM} adds its
 * cost to those, and this says whether that constant still holds.
 *
 * @param factor        exp of the runs' mean log ratio: what k6 spent in a window over what its calibration says
 * @param standardError the standard error of that mean, in logs
 * @param windows       the windows that entered it
 * @param runs          the runs they came from
 */
public record LoadCostEvidence(double factor, double standardError, int windows, int runs) {

    /** @param runs each run's windows, by its name */
    public static LoadCostEvidence of(Map<String, List<WindowResult>> runs) {
        List<Double> runMeans = new ArrayList<>();
        int windows = 0;
        for (List<WindowResult> run : runs.values()) {
            Map<String, List<WindowResult>> calibrations = new LinkedHashMap<>();
            run.stream().filter(WindowResult::calibration)
                    .forEach(w -> calibrations.computeIfAbsent(w.jvmId(), k -> new ArrayList<>()).add(w));
            List<Double> logs = new ArrayList<>();
            for (WindowResult w : run) {
                List<WindowResult> calibration = calibrations.get(w.jvmId());
                if (w.calibration() || w.window().detailedRecording() || calibration == null || !k6Read(w)) {
                    continue;
                }
                LoadCost cost = LoadCost.fit(calibration);
                double rps = w.load().requestsPerSecond();
                double said = cost.known() ? cost.k6Cores(rps) : Double.NaN;
                if (said > 0 && withinCalibration(rps, calibration)) {
                    logs.add(Math.log(w.instruments().k6CpuSeconds() / w.load().windowSeconds() / said));
                }
            }
            if (!logs.isEmpty()) {
                runMeans.add(logs.stream().mapToDouble(Double::doubleValue).average().orElseThrow());
                windows += logs.size();
            }
        }
        if (runMeans.size() < 2) {
            return new LoadCostEvidence(Double.NaN, Double.NaN, windows, runMeans.size());
        }
        double mean = runMeans.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
        double variance = runMeans.stream().mapToDouble(m -> (m - mean) * (m - mean)).sum() / (runMeans.size() - 1);
        return new LoadCostEvidence(Math.exp(mean), Math.sqrt(variance / runMeans.size()), windows, runMeans.size());
    }

    /** Whether a throughput lies within the calibration windows' own, where the fitted line is read, not extended. */
    private static boolean withinCalibration(double rps, List<WindowResult> calibration) {
        double low = calibration.stream().mapToDouble(w -> w.load().requestsPerSecond()).min().orElse(0);
        double high = calibration.stream().mapToDouble(w -> w.load().requestsPerSecond()).max().orElse(0);
        return rps >= low && rps <= high;
    }

    private static boolean k6Read(WindowResult w) {
        return w.users() != null && w.load().windowSeconds() > 0 && w.load().requestsPerSecond() > 0
                && w.load().errors() == 0 && w.instruments().k6CpuSeconds() > 0;
    }

    /** What the model takes the histogram to cost k6, over its cost without it: {@link LoadCost#HISTOGRAM}. */
    public static double histogram() {
        return LoadCost.HISTOGRAM;
    }

    /** Whether the calibration's k6 holds in its windows: a factor of 1 lies within two standard errors. */
    public boolean holds() {
        return Math.abs(Math.log(factor)) <= 2 * standardError;
    }
}
