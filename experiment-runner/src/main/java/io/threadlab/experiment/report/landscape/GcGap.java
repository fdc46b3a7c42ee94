package io.threadlab.experiment.report.landscape;

import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.predict.Ceiling;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Whether the collector accounts for a held-out point the CPU ceiling missed. The CPU per request it was predicted
 * from was measured at the calibration's users and delay; where requests live longer or more of them are in flight,
 * more of them survive a young collection and are copied, so a collector that paused more of the point's window than
 * of its calibration's leaves the point fewer requests for its quota, and one that paused less leaves it more. Said
 * only where the point missed, the CPU binds and both windows' pauses were read; what it says comes from those two
 * numbers: the collector is named only where the difference runs the way the miss does and is large enough to move
 * the ceiling past the target.
 */
public final class GcGap {

    /** A difference in the share of a window paused large enough to move the CPU ceiling past the target. */
    static final double MATTERS = 0.05;

    private GcGap() {
    }

    /**
     * @param rows the run's windows: the point's JVM's calibration windows are taken from them, the nearest users
     *             (the CPU per request is interpolated between them in log(users))
     */
    public static Optional<String> explain(Outcome point, List<WindowResult> rows) {
        if (!point.heldOut() || point.withinTolerance() || point.binding().orElse(null) != Ceiling.CPU
                || point.gcShare() == null) {
            return Optional.empty();
        }
        Optional<WindowResult> calibration = rows.stream().filter(r -> r.calibration() && r.gc() != null
                        && r.users() != null && r.jvmId().equals(point.jvmId()))
                .min(Comparator.comparingDouble(r -> Math.abs(Math.log((double) r.users() / point.users()))));
        if (calibration.isEmpty()) {
            return Optional.empty();
        }
        WindowResult c = calibration.get();
        double there = c.gc().pauseShare(c.load().windowSeconds());
        double here = point.gcShare();
        double more = here - there;
        boolean slower = point.ratio() < 1;
        String shares = String.format(Locale.ROOT, "GC paused %.0f %% of the window, %.0f %% of the calibration's at"
                + " %,d users", here * 100, there * 100, c.users());
        if (Math.abs(more) >= MATTERS && (more > 0) == slower) {
            return Optional.of("the collector: " + shares + (slower ? ", whose CPU per request did not pay for it"
                    : ", whose CPU per request paid for it"));
        }
        return Optional.of("not the collector: " + shares);
    }
}
