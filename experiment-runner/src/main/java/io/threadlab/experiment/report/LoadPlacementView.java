package io.threadlab.experiment.report;

import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.plan.Headroom;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Where the load generator ran, when a run measured both ways ({@code --load-cpus compare}): per mode, how steady the
 * windows were inside (the per-second throughput's CV, median over windows), how much the repetitions of a cell
 * spread (their CV, median over cells), and the most k6 used of the CPU left to it.
 */
record LoadPlacementView(List<Row> rows, String note) {

    record Row(String mode, int windows, String perSecondCv, String cellCv, String k6Share) {
    }

    static LoadPlacementView of(Run run) {
        Map<String, List<WindowResult>> byMode = new TreeMap<>();
        run.windows().stream().filter(w -> w.window().loadCpus() != null && !w.recorded() && !w.calibration()
                && w.users() != null).forEach(w -> byMode.computeIfAbsent(w.window().loadCpus(),
                m -> new ArrayList<>()).add(w));
        if (byMode.size() < 2) {
            return new LoadPlacementView(List.of(), "");
        }
        List<Row> rows = new ArrayList<>();
        byMode.forEach((mode, windows) -> rows.add(new Row(mode, windows.size(),
                Numbers.pct(median(windows.stream().map(w -> cv(w.load().perSecond())).filter(Objects::nonNull)
                        .toList())), Numbers.pct(median(cellCvs(windows))), Numbers.pct(windows.stream()
                        .map(w -> HeadroomChecks.headroom(run, w)).filter(Headroom::measured)
                        .mapToDouble(Headroom::share).max().orElse(Double.NaN)))));
        return new LoadPlacementView(rows, note(byMode));
    }

    /**
     * Which placements were measured, and on how many JVM starts both were: a comparison is fair where each JVM start
     * ran both, for then no JVM's level favours one placement.
     */
    private static String note(Map<String, List<WindowResult>> byMode) {
        Map<String, Set<String>> modesByJvm = new TreeMap<>();
        byMode.forEach((mode, windows) -> windows.forEach(w -> modesByJvm.computeIfAbsent(w.jvmName() + " JVM "
                + w.jvm(), k -> new TreeSet<>()).add(mode)));
        long both = modesByJvm.values().stream().filter(modes -> modes.size() == byMode.size()).count();
        String measured = "This run measured with k6 and the delay service on every CPU (shared: with the variants)"
                + " and on a CPU of their own (separate)";
        return both == modesByJvm.size() ? measured + "; every JVM start ran both."
                : String.format(Locale.ROOT, "%s; %d of %d JVM starts ran both: the others' windows compare their"
                + " JVM start as well as the placement.", measured, both, modesByJvm.size());
    }

    private static List<Double> cellCvs(List<WindowResult> windows) {
        Map<String, List<Double>> cells = new LinkedHashMap<>();
        windows.forEach(w -> cells.computeIfAbsent(w.variant() + "@" + w.cell().tag(),
                k -> new ArrayList<>()).add(w.load().requestsPerSecond()));
        return cells.values().stream().map(LoadPlacementView::cv).filter(Objects::nonNull).toList();
    }

    private static Double cv(List<Double> values) {
        if (values == null || values.size() < 2) {
            return null;
        }
        double mean = values.stream().mapToDouble(d -> d).average().orElseThrow();
        double sd = Math.sqrt(values.stream().mapToDouble(v -> (v - mean) * (v - mean)).sum() / (values.size() - 1));
        return mean > 0 ? sd / mean : null;
    }

    private static double median(List<Double> values) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        double[] sorted = values.stream().mapToDouble(d -> d).sorted().toArray();
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
