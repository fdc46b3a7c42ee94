package io.threadlab.experiment.findings;

import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.DbAccess;
import io.threadlab.experiment.plan.Downstream;
import io.threadlab.experiment.report.Stats;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * The collector's two states on the database (docs/method.md): over the published database runs' windows on the
 * Serial collector, through the plain client, whose variant's CPU bound them, per variant, how many had its young
 * collections pause a large share of the window, and what those windows and the others cost a request. The state is
 * read from the pauses because every published run recorded them; what the young collections promoted, which says it
 * directly, is given where a run recorded it.
 */
final class CollectorStates {

    /** A window whose variant used this share of its quota or more: its CPU bound it, not the pool or the users. */
    static final double BUSY = 0.9;

    /**
     * Young collections pausing this share of the window or more: the promoting state. Between the two groups the event
     * loop's and the virtual threads' windows on the database form: of the published ones, most paused under 4 % or
     * over 10 %, a few in between.
     */
    static final double PROMOTING = 0.05;

    private static final String SOURCE = "findings/CollectorStates.java";

    record Row(String variant, String windows, String promoting, String pausedPromoting, String pausedOthers,
               String cpuPromoting, String cpuOthers, String promotedPromoting, String promotedOthers) {
    }

    record Section(String busy, String promoting, List<Row> rows) {
    }

    private CollectorStates() {
    }

    static Section of(List<PublishedRun> runs) {
        Map<String, List<WindowResult>> byVariant = new LinkedHashMap<>();
        for (PublishedRun run : runs.stream().filter(CollectorStates::serial).toList()) {
            for (WindowResult w : run.facts().windows()) {
                if (counted(w)) {
                    byVariant.computeIfAbsent(w.variant(), v -> new ArrayList<>()).add(w);
                }
            }
        }
        List<Row> rows = byVariant.entrySet().stream().map(e -> row(e.getKey(), e.getValue())).toList();
        return new Section(Cite.threshold(BUSY, SOURCE), Cite.threshold(PROMOTING, SOURCE), rows);
    }

    /** The collector whose survivor space and threshold the state is made of (docs/method.md). */
    static boolean serial(PublishedRun run) {
        return run.facts().manifest().jvmFlags().contains("-XX:+UseSerialGC");
    }

    /** Through the plain client, the CPU bound, the young collections' pauses read. */
    static boolean counted(WindowResult w) {
        Double quota = w.at().get(Axis.CPUS);
        DbAccess access = w.at().get(Axis.DB_ACCESS);
        return w.at().get(Axis.DOWNSTREAM) == Downstream.DB && (access == null || access == DbAccess.JDBC)
                && w.burst() == null && w.gc() != null && quota != null && quota > 0
                && w.cpu().cpuCores() / quota >= BUSY && w.load().windowSeconds() > 0;
    }

    static boolean promoting(WindowResult w) {
        return youngShare(w) >= PROMOTING;
    }

    private static double youngShare(WindowResult w) {
        return w.gc().minorPauseSeconds() / w.load().windowSeconds();
    }

    private static double cpu(WindowResult w) {
        return w.cpu().cpuMsPerRequest();
    }

    private static double promoted(WindowResult w) {
        Double mbs = w.gc().promotedMbPerSecond(w.load().windowSeconds());
        return mbs == null ? Double.NaN : mbs;
    }

    static Row row(String variant, List<WindowResult> windows) {
        List<WindowResult> in = windows.stream().filter(CollectorStates::promoting).toList();
        List<WindowResult> out = windows.stream().filter(w -> !promoting(w)).toList();
        String all = PublishedRun.FROM_DOCS;
        return new Row(variant, Cite.link(String.valueOf(windows.size()), all), Cite.link(String.valueOf(in.size()),
                all), share(in), share(out), Cite.number(median(in, CollectorStates::cpu), 3, all),
                Cite.number(median(out, CollectorStates::cpu), 3, all),
                Cite.number(median(in, CollectorStates::promoted), 1, all),
                Cite.number(median(out, CollectorStates::promoted), 1, all));
    }

    private static String share(List<WindowResult> windows) {
        double median = median(windows, CollectorStates::youngShare);
        return Double.isNaN(median) ? "–" : Cite.link(Cite.percent(median), PublishedRun.FROM_DOCS);
    }

    /** The median of what was read (NaN left out); NaN where nothing was. */
    static <T> double median(List<T> items, ToDoubleFunction<T> value) {
        double[] read = items.stream().mapToDouble(value).filter(v -> !Double.isNaN(v)).toArray();
        return read.length == 0 ? Double.NaN : Stats.median(read);
    }
}
