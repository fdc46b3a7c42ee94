package io.threadlab.experiment.predict;

import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.WorkKind;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * What calibrations say of how a level reads its window's CPU per request ({@link Level#cpuMs}): the window's whole
 * (its CPU over the requests it served), or the median of its seconds' (what the model read before). In every
 * published calibration, each busy level with others on both sides of it in the requests waiting is left out and
 * predicted from the others' curve, read one way and then the other, against what the level cost over its requests:
 * the cost its throughput and CPU say, and the one a held-out window's throughput is judged by. The reading the model
 * takes is the one whose errors are smaller (root mean square, in logarithms) over all of them.
 *
 * @param kinds per kind of work, in the order first met
 * @param all   every kind together
 */
public record CostReadingEvidence(List<Errors> kinds, Errors all) {

    /**
     * One kind of work's levels left out: how many, of how many calibrated JVMs, and their root mean square log error
     * read each way.
     *
     * @param work a kind of work in words ("the database, through Hibernate"); "all" for every kind together
     */
    public record Errors(String work, int levels, int calibrations, double whole, double median) {
    }

    /** A level left out: its error read each way, in logarithms. */
    private record LeftOut(String work, String calibration, double whole, double median) {
    }

    /** @param runs each run's windows, by its name */
    public static CostReadingEvidence of(Map<String, List<WindowResult>> runs) {
        List<LeftOut> out = new ArrayList<>();
        runs.forEach((run, windows) -> {
            Map<List<String>, List<WindowResult>> byJvm = new LinkedHashMap<>();
            windows.stream().filter(WindowResult::calibration).filter(w -> w.users() != null && w.delayMs() != null)
                    .forEach(w -> byJvm.computeIfAbsent(List.of(w.jvmId(),
                            WorkKind.words(WorkKind.of(w.at()))), k -> new ArrayList<>()).add(w));
            byJvm.forEach((key, calibration) -> out.addAll(leftOut(key.get(1), run + " " + key.get(0),
                    calibration)));
        });
        Map<String, List<LeftOut>> byWork = new LinkedHashMap<>();
        out.forEach(l -> byWork.computeIfAbsent(l.work(), k -> new ArrayList<>()).add(l));
        return new CostReadingEvidence(byWork.entrySet().stream().map(e -> errors(e.getKey(), e.getValue()))
                .toList(), errors("all", out));
    }

    /** Whether the window's whole predicts the levels left out at least as well as the median of the seconds. */
    public boolean holds() {
        return all.levels() > 0 && all.whole() <= all.median();
    }

    private static List<LeftOut> leftOut(String work, String calibration, List<WindowResult> windows) {
        List<CpuCurve.Level> whole = busy(windows, Level::cpuMs);
        List<CpuCurve.Level> median = busy(windows, r -> r.cpu().medianMsPerRequest());
        List<LeftOut> out = new ArrayList<>();
        for (int i = 0; i < whole.size(); i++) {
            double cost = whole.get(i).cpuMs();
            double byWhole = Math.log(predicted(whole, i) / cost);
            double byMedian = Math.log(predicted(median, i) / cost);
            if (Double.isFinite(byWhole) && Double.isFinite(byMedian)) {
                out.add(new LeftOut(work, calibration, byWhole, byMedian));
            }
        }
        return out;
    }

    /** Level {@code i} predicted from the others; NaN where it lies beyond them in the requests waiting. */
    private static double predicted(List<CpuCurve.Level> levels, int i) {
        List<CpuCurve.Level> others = new ArrayList<>(levels);
        CpuCurve.Level out = others.remove(i);
        boolean between = others.stream().anyMatch(o -> o.inJvm() < out.inJvm())
                && others.stream().anyMatch(o -> o.inJvm() > out.inJvm());
        return between ? CpuCurve.fit(others).at(out.inJvm(), out.inFlight(), false).cpuMs() : Double.NaN;
    }

    /**
     * The calibration's busy levels as the model takes them ({@link CapacityModel#fit}: at the calibration's machine
     * speed, at least {@link CapacityModel#LIGHT_SHARE} of the quota), each window's CPU per request read by {@code
     * reading}; fewest waiting first. The same windows make the same levels either way: only their cost differs.
     */
    private static List<CpuCurve.Level> busy(List<WindowResult> calibration, ToDoubleFunction<WindowResult> reading) {
        List<Level> timed = Level.of(calibration, reading);
        MachineSpeed machine = MachineSpeed.of(timed);
        double quota = calibration.getFirst().at().get(Axis.CPUS);
        return timed.stream().map(machine::atCalibration).filter(l -> l.cores() >= CapacityModel.LIGHT_SHARE * quota)
                .map(Level::onCurve).sorted(Comparator.comparingDouble(CpuCurve.Level::inJvm)).toList();
    }

    private static Errors errors(String work, List<LeftOut> levels) {
        return new Errors(work, levels.size(), (int) levels.stream().map(LeftOut::calibration).distinct().count(),
                rms(levels, LeftOut::whole), rms(levels, LeftOut::median));
    }

    private static double rms(List<LeftOut> levels, ToDoubleFunction<LeftOut> error) {
        return Math.sqrt(levels.stream().mapToDouble(error).map(e -> e * e).average().orElse(Double.NaN));
    }
}
