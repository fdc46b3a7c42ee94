package io.threadlab.experiment.report.landscape;

import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.predict.Forecast;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Whether the collector accounts for a held-out point its ceiling missed. Said only where the point missed and its
 * window's pauses were read; what it says comes from those numbers.
 * <ul>
 * <li>Where the CPU binds: the CPU per request it was predicted from was measured at the calibration's users and
 * delay; where requests live longer or more of them are in flight, more of them survive a young collection and are
 * copied, so a collector that paused more of the point's window than of its calibration's leaves the point fewer
 * requests for its quota, and one that paused less leaves it more. The collector is named only where the difference
 * runs the way the miss does and is large enough to move the ceiling past the target.</li>
 * <li>Where a time held binds (workers, connections, the database pool, the users): every request in flight waits out
 * every pause, so each one is held the delay ÷ (1 − the share of the window paused), and the ceiling is that much
 * lower. The collector is named where the point was slower, the ceiling so lowered is within the target of it, and
 * the pauses account for more of the miss than is left.</li>
 * </ul>
 */
public final class GcGap {

    /** A difference in the share of a window paused large enough to move the CPU ceiling past the target. */
    static final double MATTERS = 0.05;

    private GcGap() {
    }

    /**
     * @param rows the run's windows: the calibration windows its prediction was read from are taken from them, the
     *             one nearest the point's users in log (the level most like it)
     */
    public static Optional<String> explain(Outcome point, List<WindowResult> rows) {
        if (!point.heldOut() || point.withinTolerance() || point.readings().gcShare() == null
                || point.binding().isEmpty()) {
            return Optional.empty();
        }
        return switch (point.binding().get()) {
            case CPU -> againstCalibration(point, rows);
            case WORKERS, CONNECTIONS, DB_POOL, USERS -> stretchingTheHold(point);
            case DB_CPU, LOAD -> Optional.empty();
        };
    }

    private static Optional<String> stretchingTheHold(Outcome point) {
        double share = point.readings().gcShare();
        double stretched = point.predicted() * (1 - share);
        double off = point.measured() / stretched - 1;
        String numbers = String.format(Locale.ROOT, "GC paused %.0f %% of the window, which holds every request as"
                + " much longer: %,.0f req/s so, %+.0f %% from the measurement", share * 100, stretched, off * 100);
        boolean slower = point.ratio() < 1;
        // Named where the pauses take the ceiling to within the target and account for more of the miss than is left.
        boolean accounts = slower && Math.abs(off) <= Forecast.TOLERANCE && share >= Math.abs(off);
        return Optional.of((accounts ? "the collector: " : "not the collector alone: ") + numbers);
    }

    /** " (its young collections promoted 81 MB/s)": what makes a young collection long, where it was read. */
    private static String promoted(double mbPerSecond) {
        return String.format(Locale.ROOT, " (its young collections promoted %.0f MB/s)", mbPerSecond);
    }

    /**
     * The calibration window most like the point, of the JVM its prediction was read from (a later JVM start's, its
     * variant's first): at the point's delay where the calibration measured it (the
     * CPU curve the point was read from), else at any; of those, the nearest users in log. database-parallel-1's
     * reactive 500 users at 10 ms were read from 700 and 300 users at 10 ms, both promoting, and compared with 400
     * users at 50 ms, clean, the note said "not the collector" of a miss the collector made.
     */
    private static Optional<WindowResult> mostLike(Outcome point, List<WindowResult> rows) {
        List<WindowResult> mine = rows.stream().filter(r -> r.calibration() && r.gc() != null && r.users() != null
                && r.jvmId().equals(point.calibratingJvmId())).toList();
        List<WindowResult> sameDelay = mine.stream().filter(r -> r.delayMs() != null
                && r.delayMs() == point.delayMs()).toList();
        return (sameDelay.isEmpty() ? mine : sameDelay).stream()
                .min(Comparator.comparingDouble(r -> Math.abs(Math.log((double) r.users() / point.users()))));
    }

    private static Optional<String> againstCalibration(Outcome point, List<WindowResult> rows) {
        Optional<WindowResult> calibration = mostLike(point, rows);
        if (calibration.isEmpty()) {
            return Optional.empty();
        }
        WindowResult c = calibration.get();
        double there = c.gc().pauseShare(c.load().windowSeconds());
        double here = point.readings().gcShare();
        double more = here - there;
        boolean slower = point.ratio() < 1;
        Double promotedThere = c.gc().promotedMbPerSecond(c.load().windowSeconds());
        Double promotedHere = point.readings().promotedMbPerSecond();
        boolean promotions = promotedHere != null && promotedThere != null;
        String shares = String.format(Locale.ROOT, "GC paused %.0f %% of the window%s, %.0f %% of the calibration's at"
                        + " %,d users%s", here * 100, promotions ? promoted(promotedHere) : "", there * 100, c.users(),
                promotions ? promoted(promotedThere) : "");
        if (Math.abs(more) >= MATTERS && (more > 0) == slower) {
            return Optional.of("the collector: " + shares + (slower ? ", whose CPU per request did not pay for it"
                    : ", whose CPU per request paid for it"));
        }
        return Optional.of("not the collector: " + shares);
    }
}
