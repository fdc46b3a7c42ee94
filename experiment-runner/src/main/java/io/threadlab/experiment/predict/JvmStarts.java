package io.threadlab.experiment.predict;

import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.plan.Point;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * How far one variant's JVM starts differed in a run where they measured the same point: the CPU a request cost, each
 * window's taken to one machine speed ({@link MachineSpeed}), as a log ratio of the dearest start to the cheapest, the
 * widest over the points. A calibration is one JVM start's; a window of another run is another start, which may cost
 * as much more or less as the run's own starts did. A run with one start a point, or none measured, earns nothing here.
 *
 * <p>Why it is needed: in the default run default-8 the reactive starts differed by 10 % at 500 users (0.080 and 0.089
 * CPU-ms a request at the same machine speed), the imperative by 7 %; the interval a forecast stated for another run's
 * windows held only the calibrated start's own spread (±5 %, windows of one JVM), and heldout-10's virtual threads
 * fell outside it three times of four.
 *
 * @param spread the widest log ratio between two starts at one point (0: not measured)
 * @param points the points at which two starts or more were measured
 */
record JvmStarts(double spread, int points) {

    static final JvmStarts NONE = new JvmStarts(0, 0);

    /** The spread among {@code variant}'s JVM starts in a run's measured windows (not its calibration, nor its JFR). */
    static JvmStarts of(List<WindowResult> windows, String variant) {
        Map<Point, Map<Integer, List<Double>>> byPoint = new LinkedHashMap<>();
        for (WindowResult w : windows) {
            double cpuMs = Level.cpuMs(w);
            Double us = w.instruments().yardstickUs();
            if (!w.variant().equals(variant) || w.calibration() || w.recorded() || w.users() == null || cpuMs <= 0
                    || us == null || !(us > 0)) {
                continue;
            }
            // at one machine speed: the same correction a forecast makes for the machine it is for
            byPoint.computeIfAbsent(w.at(), k -> new HashMap<>()).computeIfAbsent(w.jvm(), k -> new ArrayList<>())
                    .add(Math.log(cpuMs) - MachineSpeed.ELASTICITY * Math.log(us));
        }
        double widest = 0;
        int points = 0;
        for (Map<Integer, List<Double>> starts : byPoint.values()) {
            if (starts.size() < 2) {
                continue;
            }
            double[] means = starts.values().stream().mapToDouble(l -> l.stream().mapToDouble(d -> d).average()
                    .orElseThrow()).toArray();
            widest = Math.max(widest, java.util.Arrays.stream(means).max().orElseThrow()
                    - java.util.Arrays.stream(means).min().orElseThrow());
            points++;
        }
        return new JvmStarts(widest, points);
    }

    /**
     * The forecast for another JVM start: the CPU ceiling's error, where it binds or is the next, taken with this
     * spread (the two independent: the root of their squares), and a note saying so. Unchanged where nothing was
     * measured.
     */
    Forecast forAnotherStart(Forecast f) {
        if (points == 0) {
            return f;
        }
        double error = f.binding() == Ceiling.CPU ? Math.hypot(f.expectedError(), spread) : f.expectedError();
        boolean nextCpu = f.ceilings().size() > 1 && f.next() == Ceiling.CPU;
        double nextError = nextCpu ? Math.hypot(f.nextError(), spread) : f.nextError();
        List<String> notes = new ArrayList<>(f.notes());
        notes.add(String.format(Locale.ROOT, "another JVM start than the calibrated one: the run's own starts of this"
                + " variant differed by up to %.0f %% in the CPU a request cost at the same point and machine speed (%d"
                + " point%s)%s", (Math.exp(spread) - 1) * 100, points, points == 1 ? "" : "s",
                f.binding() == Ceiling.CPU || nextCpu ? ", which the CPU ceiling's error takes in" : ""));
        return new Forecast(f.jvm(), f.rps(), f.binding(), f.margin(), f.ceilings(), f.p50Ms(), f.rssMb(), error,
                f.extrapolated(), f.holdMs(), notes, nextError, f.k6Cores(), f.k6Error(), f.machineUs());
    }
}
