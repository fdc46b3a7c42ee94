package io.threadlab.experiment.report.landscape;

import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.predict.CapacityModel;
import io.threadlab.experiment.predict.Ceiling;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Whether the threads' sleeps account for a held-out point its CPU ceiling missed. The CPU per request it was
 * predicted from is the calibration's at as many requests waiting; where the point's threads slept more or fewer times
 * a request than the calibration's did there, each sleep costs what its JVM's line says ({@link SleepCost}), and that
 * moves the point's cost. Said only where the point missed, the CPU binds, the point's and the calibration's sleeps
 * were counted, and the JVM's line explains its cost; the sleeps are named where they move the cost the way the miss
 * runs and by at least half of it.
 */
public final class SleepGap {

    private SleepGap() {
    }

    /**
     * @param rows the run's windows: the point's own and its JVM's line are taken from them, and the calibration its
     *             prediction was read from (a later JVM start's, its variant's first)
     */
    public static Optional<String> explain(Outcome point, List<WindowResult> rows) {
        if (!point.heldOut() || point.withinTolerance() || point.binding().orElse(null) != Ceiling.CPU) {
            return Optional.empty();
        }
        Optional<WindowResult> own = rows.stream().filter(r -> r.jvmId().equals(point.jvmId()) && !r.calibration()
                && !r.recorded() && r.at().equals(point.at()) && r.cpu().sleepsPerRequest() != null).findFirst();
        Optional<SleepCost> line = SleepCost.of(rows).stream().filter(s -> s.jvm().equals(point.jvmId())
                && s.explains()).findFirst();
        List<WindowResult> levels = rows.stream().filter(r -> r.calibration()
                        && r.jvmId().equals(point.calibratingJvmId()) && SleepCost.busy(r))
                .sorted(Comparator.comparingDouble(CapacityModel::inJvm)).toList();
        if (own.isEmpty() || line.isEmpty() || levels.isEmpty()) {
            return Optional.empty();
        }
        WindowResult w = own.get();
        double waiting = CapacityModel.inJvm(w);
        double here = w.cpu().sleepsPerRequest();
        double there = sleepsAt(levels, waiting);
        double bySleeps = line.get().usPerSleep() / 1000 * (here - there);
        double predictedCost = point.at().get(Axis.CPUS) * 1000 / point.predicted();
        double gap = w.cpu().cpuMsPerRequest() - predictedCost;
        String numbers = String.format(Locale.ROOT, "its threads slept %.2f times a request, the calibration's %.2f"
                + " with as many waiting (%,.0f): at %.0f CPU-µs a sleep %+.3f CPU-ms a request, of the %+.3f it paid"
                + " against the prediction", here, there, waiting, line.get().usPerSleep(), bySleeps, gap);
        boolean accounts = Math.signum(bySleeps) == Math.signum(gap) && Math.abs(bySleeps) >= Math.abs(gap) / 2;
        return Optional.of((accounts ? "the sleeps: " : "not the sleeps: ") + numbers);
    }

    /** The calibration's sleeps a request at {@code waiting}, linear in the log of the requests waiting. */
    private static double sleepsAt(List<WindowResult> levels, double waiting) {
        WindowResult first = levels.getFirst();
        if (waiting <= CapacityModel.inJvm(first)) {
            return first.cpu().sleepsPerRequest();
        }
        for (int i = 1; i < levels.size(); i++) {
            WindowResult a = levels.get(i - 1);
            WindowResult b = levels.get(i);
            double qa = CapacityModel.inJvm(a);
            double qb = CapacityModel.inJvm(b);
            if (waiting <= qb && qb > qa) {
                double t = Math.log(waiting / qa) / Math.log(qb / qa);
                return a.cpu().sleepsPerRequest() + t * (b.cpu().sleepsPerRequest() - a.cpu().sleepsPerRequest());
            }
        }
        return levels.getLast().cpu().sleepsPerRequest();
    }
}
