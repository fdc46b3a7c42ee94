package io.threadlab.experiment.report.landscape;

import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.predict.Ceiling;
import io.threadlab.experiment.record.Yardstick;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Whether the machine itself differed between a held-out point its CPU ceiling missed and the calibration it was
 * predicted from. The CPU per request that ceiling divides the quota by was measured in its JVM's calibration windows;
 * a machine slower at the point than then (the runner's fixed piece of work, {@link Yardstick}, taking more CPU) makes
 * the point's requests dearer, and a faster one cheaper. Said only where the point missed, the CPU binds, and both
 * were timed; what it says comes from those numbers. It names the machine where the difference runs the way the
 * miss does; it does not claim the whole miss, as the variants' requests slowed by less than the piece did.
 */
public final class MachineGap {

    private MachineGap() {
    }

    /**
     * @param rows the run's windows: the calibration windows its prediction was read from are taken from them (a later
     *             JVM start's, its variant's first)
     */
    public static Optional<String> explain(Outcome point, List<WindowResult> rows) {
        if (!point.heldOut() || point.withinTolerance() || point.readings().yardstickUs() == null
                || point.binding().orElse(null) != Ceiling.CPU) {
            return Optional.empty();
        }
        // a forecast made for the machine of the windows before it is held to that; an older one to the calibration
        Double assumed = point.prediction().map(p -> p.predictedMachineUs()).orElse(null);
        double calibrated = assumed != null ? assumed : rows.stream().filter(r -> r.calibration()
                        && r.jvmId().equals(point.calibratingJvmId()) && r.instruments().yardstickUs() != null)
                .mapToDouble(r -> r.instruments().yardstickUs()).average().orElse(Double.NaN);
        if (Double.isNaN(calibrated)) {
            return Optional.empty();
        }
        double machine = point.readings().yardstickUs() / calibrated;
        String numbers = String.format(Locale.ROOT, "the runner's fixed piece of work took %.2f× its CPU in the %s",
                machine, assumed != null ? "windows before it, which the forecast was made for" : "calibration");
        boolean slower = point.ratio() < 1;
        if (Math.abs(machine - 1) > Yardstick.SLOWER_SHARE && (machine > 1) == slower) {
            return Optional.of("the machine " + (slower ? "slower" : "faster") + (assumed != null
                    ? " than the forecast took it: " : " than in the calibration: ") + numbers);
        }
        return Optional.of("not the machine: " + numbers);
    }
}
