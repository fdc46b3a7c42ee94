package io.threadlab.experiment.findings;

import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.predict.SurvivorSpace;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The survivor space beyond the calibrated users, as the published runs that read it called it and measured it: for
 * each point beyond a calibration's most users, what the calibration's survivors a user say the point's users keep
 * against the survivor space's size, whether the forecast called the overflow ({@link SurvivorSpace}), and how many
 * of the point's windows (every JVM start of the variant) promoted {@link SurvivorSpace#PROMOTING_MB_PER_S} a second or
 * more. The call matches where it said overflow and most of them promoted, or said none and most did not. A
 * calibration that promoted makes no call: the state is its own already, and the windows beyond it are expected to
 * promote as it did.
 */
final class SurvivorCalls {

    record Row(String run, String variant, String at, String perUser, String expected, String called,
               String promoted, String survivors, boolean matched) {
    }

    record Section(List<Row> rows, String matched, String points, String threshold) {
    }

    private SurvivorCalls() {
    }

    static Section of(List<PublishedRun> runs) {
        List<Row> rows = new ArrayList<>();
        for (PublishedRun run : runs) {
            rows.addAll(rows(run.name(), run.results(), run.facts().windows()));
        }
        String all = PublishedRun.FROM_DOCS;
        return new Section(rows, Cite.link(String.valueOf(rows.stream().filter(Row::matched).count()), all),
                Cite.link(String.valueOf(rows.size()), all), Cite.link(Cite.format(
                        SurvivorSpace.PROMOTING_MB_PER_S, 0) + " MB", Cite.SOURCE + "predict/SurvivorSpace.java"));
    }

    /** A run's rows: each variant's first calibrated JVM, against its variant's windows beyond its users. */
    static List<Row> rows(String run, String results, List<WindowResult> windows) {
        Map<String, List<WindowResult>> calibrations = new TreeMap<>();
        windows.stream().filter(WindowResult::calibration)
                .forEach(w -> calibrations.computeIfAbsent(w.jvmId(), j -> new ArrayList<>()).add(w));
        List<Row> rows = new ArrayList<>();
        List<String> variants = new ArrayList<>();
        calibrations.forEach((jvm, calibration) -> {
            String variant = calibration.getFirst().variant();
            SurvivorSpace space = SurvivorSpace.fit(calibration);
            if (variants.contains(variant) || !space.read()) {
                return;
            }
            variants.add(variant);
            Map<List<Integer>, List<WindowResult>> beyond = new TreeMap<>(Comparator
                    .comparing((List<Integer> k) -> k.get(0)).thenComparing(k -> k.get(1)));
            windows.stream().filter(w -> !w.calibration() && w.variant().equals(variant) && w.users() != null
                            && w.delayMs() != null && w.users() > space.mostUsers() && w.gc() != null
                            && w.gc().promotedMb() != null && w.burst() == null)
                    .forEach(w -> beyond.computeIfAbsent(List.of(w.delayMs(), w.users()), k -> new ArrayList<>())
                            .add(w));
            beyond.forEach((at, measured) -> rows.add(row(run, results, variant, at.get(0), at.get(1), space,
                    measured)));
        });
        return rows;
    }

    private static Row row(String run, String results, String variant, int delayMs, int users, SurvivorSpace space,
                           List<WindowResult> measured) {
        // a calibration in the state calls nothing (overflowsAt is false): its windows beyond are expected to promote
        boolean called = space.overflowsAt(users) || space.promoting();
        long promoting = measured.stream().filter(SurvivorSpace::promoted).count();
        double survivors = CollectorStates.median(measured, w -> w.gc().survivorMb() == null ? Double.NaN
                : w.gc().survivorMb());
        boolean most = promoting * 2 > measured.size();
        return new Row(Cite.link(run, results), variant, String.format(Locale.ROOT, "%d ms, %,d users", delayMs,
                users), Cite.link(Cite.format(space.mbPerUser() * 1000, 1) + " KB", results),
                Cite.link(Cite.format(space.mbPerUser() * users, 0) + " MB", results) + " of "
                        + Cite.link(Cite.format(space.sizeMb(), 1) + " MB", results),
                space.promoting() ? "in the calibration" : called ? "overflow" : "none",
                Cite.link(String.valueOf(promoting), results) + " of " + Cite.link(String.valueOf(measured.size()),
                        results), Cite.number(survivors, 1, results) + (Double.isNaN(survivors) ? "" : " MB"),
                called == most);
    }
}
