package io.threadlab.experiment.predict;

import io.threadlab.experiment.collect.WindowResult;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * How close a forecast can land on this machine: where one JVM setup measured one point in windows of several JVM
 * starts, each window read off another start's window at the very point, both taken to one machine speed ({@link
 * MachineSpeed#ELASTICITY}). A forecast made from one start's calibration and judged against a window of another start
 * does no better than that, however good the model: the share of those readings within {@link Forecast#TOLERANCE} is
 * the most the target {@link Forecast#WITHIN_TARGET} can expect of held-out points here.
 *
 * @param within the readings within the tolerance (each pair read both ways)
 * @param readings every reading
 * @param runs   the runs they came from
 */
public record StartsEvidence(int within, int readings, int runs) {

    /** @param runs each run's windows, by its name */
    public static StartsEvidence of(Map<String, List<WindowResult>> runs) {
        int within = 0;
        int readings = 0;
        Set<String> from = new HashSet<>();
        for (Map.Entry<String, List<WindowResult>> run : runs.entrySet()) {
            Map<List<Object>, List<WindowResult>> points = new LinkedHashMap<>();
            run.getValue().stream().filter(w -> !w.calibration() && !w.window().detailedRecording())
                    .filter(MachineEvidence::timed).forEach(w -> points.computeIfAbsent(List.of(w.variant(),
                            w.window().jvmLabel(), w.at()), k -> new ArrayList<>()).add(w));
            for (List<WindowResult> point : points.values()) {
                for (WindowResult measured : point) {
                    for (WindowResult other : point) {
                        if (other.jvm() == measured.jvm()) {
                            continue;
                        }
                        double off = Math.exp(Math.log(measured.cpu().cpuMsPerRequest() / other.cpu().cpuMsPerRequest())
                                - MachineSpeed.ELASTICITY * Math.log(measured.instruments().yardstickUs()
                                / other.instruments().yardstickUs()));
                        readings++;
                        within += Math.abs(off - 1) <= Forecast.TOLERANCE ? 1 : 0;
                        from.add(run.getKey());
                    }
                }
            }
        }
        return new StartsEvidence(within, readings, from.size());
    }

    /** The share of readings within the tolerance; NaN where there are none. */
    public double share() {
        return readings == 0 ? Double.NaN : (double) within / readings;
    }
}
