package io.threadlab.experiment.predict;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The machine's speed as the runner's fixed piece of work timed it ({@code record.Yardstick}), in a calibration and
 * where a forecast is made. The CPU a request costs moves with it, by less than the piece's own: in the published runs,
 * where one JVM measured one point in windows of different machine speeds, a request's CPU moved {@value #ELASTICITY}
 * times as far as the piece's, in logarithms ({@code MachineElasticityTest} recomputes it from findings/). So each calibration level's
 * CPU per request is taken to the calibration's median speed, and a forecast to the speed it is made for: in a run,
 * the last windows measured before the point's ({@link RecentMachine}).
 *
 * @param calibratedUs the median of the calibration levels' CPU-µs a piece (NaN: not timed)
 * @param forUs        the CPU-µs a piece took where the forecast is made for (NaN: the calibration's speed)
 */
public record MachineSpeed(double calibratedUs, double forUs) {

    /** A request's CPU moves this share of the piece's, in logarithms. */
    public static final double ELASTICITY = 0.57;

    static MachineSpeed of(List<Level> levels) {
        return new MachineSpeed(RecentMachine.median(levels.stream().mapToDouble(Level::yardstickUs)
                .filter(Double::isFinite).toArray()), Double.NaN);
    }

    /** The same calibration, for a machine whose piece takes {@code us} (null: the calibration's speed). */
    MachineSpeed forMachine(Double us) {
        return new MachineSpeed(calibratedUs, us == null ? Double.NaN : us);
    }

    /** What a request's CPU is multiplied by on the machine forecast for: 1 where either speed is not known. */
    double factor() {
        return scale(forUs, calibratedUs);
    }

    /** A level with its CPU per request taken to the calibration's speed. */
    Level atCalibration(Level level) {
        return level.withCpuMs(level.cpuMs() * scale(calibratedUs, level.yardstickUs()));
    }

    private static double scale(double to, double from) {
        return Double.isFinite(to) && Double.isFinite(from) && from > 0 ? Math.pow(to / from, ELASTICITY) : 1;
    }

    /** What the forecast says of it, where the machine forecast for differs from the calibration's. */
    Optional<String> note() {
        if (factor() == 1) {
            return Optional.empty();
        }
        return Optional.of(String.format(Locale.ROOT, "the machine %s than in the calibration (its fixed piece of work"
                + " %,.0f CPU-µs against %,.0f): a request's CPU taken as %.2f× (%.2f per unit of the piece's, in"
                + " logarithms)", forUs > calibratedUs ? "slower" : "faster", forUs, calibratedUs, factor(),
                ELASTICITY));
    }
}
