package io.threadlab.experiment.report;

import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.Point;
import io.threadlab.experiment.collect.RunManifest;

import java.util.List;
import java.util.Locale;

/**
 * How far each headline ratio is from decided: beside its interval, the direction the JVM means point in (with the
 * exact p of a split that lopsided) and, where the interval is too wide, what it would take from the run's own
 * spread between JVM starts; and how precision on demand went, when the run was asked for it.
 *
 * @param rows    one per headline ratio
 * @param outcome precision on demand's goal and stop, or null when not asked for
 */
record Decision(List<Row> rows, RunManifest.PrecisionOutcome outcome) {

    /** Half-width a headline ratio should reach (the report's target, and --precision's usual one). */
    static final double TARGET = SpreadChecks.TARGET_RATIO_HALF_WIDTH;
    private static final String WITHIN = Thresholds.ENFORCED.ratioHalfWidthPct();
    /** The most JVM starts a ratio is said to need; beyond it, the report says only that it needs more. */
    private static final int MOST_STARTS = 40;

    record Row(SummaryTables.At at, String variant, String ratio, String direction, String toDecide) {
    }

    static Decision of(Run run) {
        int starts = (int) run.windows().stream().mapToInt(w -> w.jvm()).distinct().count();
        double minutesPerStart = Checks.runMinutes(run.manifest()) / Math.max(1, starts);
        List<Row> rows = HeadlineRatios.of(run.windows()).stream().map(r -> new Row(
                SummaryTables.at(r.at()), r.variant() + " / " + r.baseline(),
                Numbers.ratio(r.ratio()), r.direction().words(r.variant(), r.baseline()),
                r.decided() && r.within(TARGET) ? "decided, within " + WITHIN : (r.decided() ? "decided; " + WITHIN
                        + " at " : "") + Precision.toDecide(r.ratio(), starts, TARGET, minutesPerStart, MOST_STARTS)
                        .map(n -> n.words(starts)).orElse(starts < 2 ? "one JVM start: its spread between starts is not"
                                + " measured" : "more than " + MOST_STARTS + " JVM starts at this spread"))).toList();
        return new Decision(rows, run.manifest().precision());
    }
}
