package io.threadlab.experiment.predict;

import io.threadlab.experiment.collect.WindowResult;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What runs say of {@link CpuCurve#LEAST_ERROR}, what two windows of one JVM at one point differ by: where a run
 * measured a point it had calibrated at, on the same JVM, the calibration window and the measured one are two windows
 * of one JVM at one point. Each pair's log ratio of CPU per request, taken to one machine speed ({@link
 * MachineSpeed#ELASTICITY}), and their root mean square. The findings page gives it the windows whose k6 kept to its
 * room: where k6 crowded it, the window's CPU was not the JVM's own.
 *
 * @param difference    the root mean square of the pairs' log ratios: what two windows of one JVM at one point differ by
 * @param standardError its standard error (a root mean square of n: difference / √(2n))
 * @param pairs         the pairs that entered it
 * @param runs          the runs they came from
 */
public record WindowEvidence(double difference, double standardError, int pairs, int runs) {

    /** @param runs each run's windows, by its name */
    public static WindowEvidence of(Map<String, List<WindowResult>> runs) {
        List<Double> ratios = new ArrayList<>();
        Set<String> from = new HashSet<>();
        runs.forEach((run, windows) -> {
            Map<List<Object>, WindowResult> calibrated = new LinkedHashMap<>();
            windows.stream().filter(WindowResult::calibration).filter(MachineEvidence::timed)
                    .forEach(w -> calibrated.put(List.of(w.jvmId(), w.at()), w));
            windows.stream().filter(w -> !w.calibration() && !w.window().detailedRecording())
                    .filter(MachineEvidence::timed).forEach(w -> {
                        WindowResult twin = calibrated.get(List.of(w.jvmId(), w.at()));
                        if (twin != null) {
                            ratios.add(Math.log(w.cpu().cpuMsPerRequest() / twin.cpu().cpuMsPerRequest())
                                    - MachineSpeed.ELASTICITY * Math.log(w.instruments().yardstickUs()
                                    / twin.instruments().yardstickUs()));
                            from.add(run);
                        }
                    });
        });
        if (ratios.size() < 2) {
            return new WindowEvidence(Double.NaN, Double.NaN, ratios.size(), from.size());
        }
        double rms = Math.sqrt(ratios.stream().mapToDouble(r -> r * r).average().orElseThrow());
        return new WindowEvidence(rms, rms / Math.sqrt(2.0 * ratios.size()), ratios.size(), from.size());
    }

    /** The least relative error the model takes for a cost ({@link CpuCurve#LEAST_ERROR}). */
    public static double leastError() {
        return CpuCurve.LEAST_ERROR;
    }

    /** Whether the constant lies within two standard errors of what the pairs differ by. */
    public boolean holds(double constant) {
        return Math.abs(constant - difference) <= 2 * standardError;
    }
}
