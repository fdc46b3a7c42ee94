package io.threadlab.experiment.predict;

import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.plan.Variant;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What runs say of {@link MachineSpeed#ELASTICITY}: where one JVM setup of a model or the control measured one point
 * in several windows (its JVM starts, its repetitions), the windows' CPU per request against their machine speeds, each
 * as its logarithm's distance from the point's own mean, fitted by least squares through the origin.
 *
 * @param elasticity    the fitted share: a request's CPU moves this much per unit of the machine's piece, in logs
 * @param standardError the fit's standard error
 * @param windows       the windows that entered it
 * @param runs          the runs they came from
 */
public record MachineEvidence(double elasticity, double standardError, int windows, int runs) {

    /** Windows this short say too little of their CPU per request; a window with errors did other work. */
    static final long LEAST_REQUESTS = 2_000;

    /** @param runs each run's windows, by its name */
    public static MachineEvidence of(Map<String, List<WindowResult>> runs) {
        // one point: its run first, then what makes it the same point of the same JVM setup
        Map<List<Object>, List<double[]>> points = new LinkedHashMap<>();
        runs.forEach((run, windows) -> windows.stream().filter(MachineEvidence::timed).forEach(w -> points
                .computeIfAbsent(List.of(run, w.variant(), w.window().jvmLabel(), w.window().role(),
                        w.window().detailedRecording(), w.at()), k -> new ArrayList<>())
                .add(new double[] {Math.log(w.instruments().yardstickUs()), Math.log(w.cpu().cpuMsPerRequest())})));
        double sxx = 0;
        double sxy = 0;
        List<double[]> deviations = new ArrayList<>();
        Set<String> from = new HashSet<>();
        for (Map.Entry<List<Object>, List<double[]>> point : points.entrySet()) {
            List<double[]> same = point.getValue();
            if (same.size() < 2) {
                continue;
            }
            from.add((String) point.getKey().getFirst());
            double mx = same.stream().mapToDouble(p -> p[0]).average().orElseThrow();
            double my = same.stream().mapToDouble(p -> p[1]).average().orElseThrow();
            for (double[] p : same) {
                deviations.add(new double[] {p[0] - mx, p[1] - my});
                sxx += (p[0] - mx) * (p[0] - mx);
                sxy += (p[0] - mx) * (p[1] - my);
            }
        }
        if (deviations.size() < 3 || sxx == 0) {
            return new MachineEvidence(Double.NaN, Double.NaN, deviations.size(), from.size());
        }
        double slope = sxy / sxx;
        double residual = Math.sqrt(deviations.stream().mapToDouble(d -> Math.pow(d[1] - slope * d[0], 2)).sum()
                / (deviations.size() - 1));
        return new MachineEvidence(slope, residual / Math.sqrt(sxx), deviations.size(), from.size());
    }

    /** Whether the constant lies within two standard errors of the fit. */
    public boolean holds(double constant) {
        return Math.abs(constant - elasticity) <= 2 * standardError;
    }

    /** A window of a model or the control, long enough and without errors, its machine's speed timed beside it. */
    static boolean timed(WindowResult w) {
        boolean model = Variant.find(w.variant()).map(v -> v.role() == Variant.Role.MODEL
                || v.role() == Variant.Role.CONTROL).orElse(false);
        return model && w.instruments().yardstickUs() != null && w.cpu().cpuMsPerRequest() > 0
                && w.load().errors() == 0 && w.load().requests() >= LEAST_REQUESTS;
    }
}
