package io.threadlab.experiment.predict;

import io.threadlab.experiment.collect.WindowResult;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the published runs say of how the collector's pauses a request grow ({@link CollectorPauses}). Each JVM's
 * calibration levels are read two ways: as the model reads them, the pauses a request a power of the users; and as
 * it read them before, a line in the throughput alone (the pauses a request the same at any users). Each of that
 * JVM's later windows that paused is predicted both ways at its own throughput and users, against the share of it the
 * collector paused (root mean square of the log error), counted apart within the most users whose pauses the
 * calibration read and beyond them, where the two readings part. A window that did not pause has no log error and is
 * not counted.
 *
 * @param within the windows within the users read
 * @param beyond the windows beyond them
 */
public record PauseEvidence(Errors within, Errors beyond) {

    /**
     * @param windows the windows predicted
     * @param jvms    the calibrated JVMs they were measured on
     * @param power   the power of the users' root mean square log error (NaN without windows)
     * @param line    the line in the throughput's
     */
    public record Errors(int windows, int jvms, double power, double line) {
    }

    /** A window predicted both ways: its JVM, whether beyond the users read, and each reading's log error. */
    private record Predicted(String jvm, boolean beyond, double power, double line) {
    }

    /** @param runs each run's windows, by its name */
    public static PauseEvidence of(Map<String, List<WindowResult>> runs) {
        List<Predicted> predicted = new ArrayList<>();
        runs.forEach((run, windows) -> {
            Map<String, List<WindowResult>> byJvm = new LinkedHashMap<>();
            windows.stream().filter(w -> w.users() != null && Level.calls(w) == 1)
                    .forEach(w -> byJvm.computeIfAbsent(w.jvmId(), k -> new ArrayList<>()).add(w));
            byJvm.forEach((jvm, jvmWindows) -> predicted.addAll(predicted(run + " " + jvm, jvmWindows)));
        });
        return new PauseEvidence(errors(predicted.stream().filter(p -> !p.beyond()).toList()),
                errors(predicted.stream().filter(Predicted::beyond).toList()));
    }

    /** Whether, beyond the users read, the power predicts the windows at least as well as the line, the model's. */
    public boolean holds() {
        return beyond.windows() > 0 && beyond.power() <= beyond.line();
    }

    private static List<Predicted> predicted(String jvm, List<WindowResult> windows) {
        List<WindowResult> calibration = windows.stream().filter(WindowResult::calibration).toList();
        List<Level> levels = Level.of(calibration);
        CollectorPauses pauses = CollectorPauses.fit(levels, calibration);
        double perRps = line(levels);
        if (pauses.perRequest() == 0 || !(perRps > 0)) {
            return List.of();
        }
        return windows.stream().filter(w -> !w.calibration() && !w.recorded() && w.gc() != null
                        && w.load().windowSeconds() > 0 && w.load().requestsPerSecond() > 0)
                .filter(w -> w.gc().pauseShare(w.load().windowSeconds()) > 0)
                .map(w -> {
                    double share = w.gc().pauseShare(w.load().windowSeconds());
                    double rps = w.load().requestsPerSecond();
                    return new Predicted(jvm, w.users() > pauses.mostUsers(),
                            Math.log(pauses.shareAt(rps, w.users()) / share), Math.log(perRps * rps / share));
                }).toList();
    }

    /** The share paused a req/s: the line through the origin the model fitted to the levels' shares before. */
    static double line(List<Level> levels) {
        double sxy = 0;
        double sxx = 0;
        for (Level l : levels) {
            if (Double.isFinite(l.pausedShare()) && l.rps() > 0) {
                sxy += l.pausedShare() * l.rps();
                sxx += l.rps() * l.rps();
            }
        }
        return sxx == 0 ? 0 : sxy / sxx;
    }

    private static Errors errors(List<Predicted> predicted) {
        return new Errors(predicted.size(), (int) predicted.stream().map(Predicted::jvm).distinct().count(),
                rms(predicted.stream().mapToDouble(Predicted::power).toArray()),
                rms(predicted.stream().mapToDouble(Predicted::line).toArray()));
    }

    private static double rms(double[] logs) {
        return logs.length == 0 ? Double.NaN
                : Math.sqrt(Arrays.stream(logs).map(d -> d * d).sum() / logs.length);
    }
}
