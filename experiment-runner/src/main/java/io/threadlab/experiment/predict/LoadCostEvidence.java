package io.threadlab.experiment.predict;

import io.threadlab.experiment.collect.WindowResult;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Whether k6's cost as a calibration fits it ({@link LoadCost}) holds in the windows of the JVM it calibrated: each
 * JVM's k6 cost fitted to its calibration windows alone, then read at each of its measured windows' own throughput
 * against what k6 spent there (so that a throughput forecast off does not count). The log ratio, averaged per run (a
 * run's windows share its machine and its k6), then over the runs, with the runs' standard error. The calibration's
 * windows run k6 without the live latency histogram the measured windows keep; this says whether that costs k6
 * anything the forecast misses.
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
                double said = cost.known() ? cost.k6Cores(w.load().requestsPerSecond()) : Double.NaN;
                if (said > 0) {
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

    private static boolean k6Read(WindowResult w) {
        return w.users() != null && w.load().windowSeconds() > 0 && w.load().requestsPerSecond() > 0
                && w.load().errors() == 0 && w.instruments().k6CpuSeconds() > 0;
    }

    /** Whether the calibration's k6 holds in its windows: a factor of 1 lies within two standard errors. */
    public boolean holds() {
        return Math.abs(Math.log(factor)) <= 2 * standardError;
    }
}
