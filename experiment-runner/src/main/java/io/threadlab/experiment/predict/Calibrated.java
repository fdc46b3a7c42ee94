package io.threadlab.experiment.predict;

import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.Point;
import io.threadlab.experiment.plan.Variant;

import java.util.Comparator;
import java.util.List;

/**
 * One variant's calibration as a results directory holds it: the calibration windows of the JVM whose model predicts
 * the variant, and that model (or why there is none).
 *
 * @param jvm     the calibrated JVM, as results name it ({@code imperative-jvm1})
 * @param threads where the variant's request code runs; unknown to this runner: taken as workers ({@code known} false)
 * @param known   whether this runner knows the variant, and so its threads
 */
public record Calibrated(String variant, String jvm, Variant.Threads threads, boolean known,
                         List<WindowResult> windows, CapacityModel.Fit fit) {

    public Calibrated {
        windows = List.copyOf(windows);
    }

    /** The calibration windows of one JVM, fitted. */
    static Calibrated of(String variant, String jvm, List<WindowResult> windows) {
        // As the report's landscape does: a variant this runner does not know is taken to run on workers, which adds
        // the workers' ceiling rather than hiding one; the prediction says so.
        Variant.Threads threads = Variant.find(variant).map(Variant::threads).orElse(Variant.Threads.WORKER);
        return new Calibrated(variant, jvm, threads, Variant.find(variant).isPresent(), windows,
                CapacityModel.fit(jvm, threads, windows));
    }

    /** The JVM axes it was calibrated with: quota, worker maximum, pool. */
    public Point setup() {
        return windows.getFirst().at().only(Axis.Scope.JVM);
    }

    /** The downstream's delay of the calibration windows (one per calibration: the plan gives one). */
    public int delayMs() {
        return windows.getFirst().delayMs();
    }

    /** Every number of users it was calibrated at, most first (as it was measured). */
    public List<Integer> users() {
        return windows.stream().map(WindowResult::users).distinct().sorted(Comparator.reverseOrder()).toList();
    }
}
