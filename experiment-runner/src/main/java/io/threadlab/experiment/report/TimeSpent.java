package io.threadlab.experiment.report;

import io.threadlab.experiment.collect.RunManifest;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Where a run's time went: preparing (builds, k6, the delay service, the database), each kind of step (JVM starts,
 * warm-ups, calibration, windows, recorded twins, open model, stops), and tearing down, from its manifest. What buys
 * no precision shows here first.
 */
public final class TimeSpent {

    /** One part of the run: how many steps of it (0: not a step), their seconds, and their share of the whole. */
    public record Part(String what, int steps, double seconds, double share) {
        public String words() {
            return String.format(Locale.ROOT, "%s%s: %.1f min (%.0f %%)", what, steps > 0 ? " (" + steps + ")" : "",
                    seconds / 60, share * 100);
        }
    }

    private TimeSpent() {
    }

    /** The manifest's parts, then {@code after} (e.g. the analysis and the report, timed by the caller). */
    public static List<Part> of(RunManifest manifest, Map<String, Double> after) {
        Map<String, double[]> byPart = new LinkedHashMap<>();
        manifest.timeSpent().forEach((what, seconds) -> {
            if (!what.startsWith("stopping")) {
                byPart.put(what, new double[] {0, seconds});
            }
        });
        for (RunManifest.StepAsRun step : manifest.scheduleAsRun()) {
            double[] sums = byPart.computeIfAbsent(step.kind(), k -> new double[2]);
            sums[0]++;
            sums[1] += step.seconds();
        }
        manifest.timeSpent().forEach((what, seconds) -> {
            if (what.startsWith("stopping")) {
                byPart.put(what, new double[] {0, seconds});
            }
        });
        after.forEach((what, seconds) -> byPart.put(what, new double[] {0, seconds}));
        double total = byPart.values().stream().mapToDouble(s -> s[1]).sum();
        List<Part> parts = new ArrayList<>();
        byPart.forEach((what, s) -> parts.add(new Part(what, (int) s[0], s[1], total > 0 ? s[1] / total : 0)));
        return parts;
    }

    /** One line for the console or the report. */
    public static String line(List<Part> parts) {
        return "Where the time went: " + String.join("; ", parts.stream().map(Part::words).toList());
    }
}
