package io.threadlab.experiment.predict;

import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.WorkKind;
import io.threadlab.experiment.plan.Downstream;
import io.threadlab.experiment.plan.Jvm;
import io.threadlab.experiment.plan.Point;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The runner's predictions, made before each window from a calibration: its JVM's own, or where its JVM was not
 * calibrated, the first JVM start's of the same variant and setup. Calibration windows are added as they are
 * measured; the first prediction from a calibration fits its model, once.
 */
public final class Predictions {

    private final Map<String, List<WindowResult>> calibration = new HashMap<>();
    private final Map<String, CapacityModel.Fit> fitted = new HashMap<>();
    /** The CPUs k6 shares with the services (NaN: k6 elsewhere, or on a CPU of its own). */
    private final double sharedCores;

    /** Nothing calibrated yet; k6 not on the services' cores. */
    public Predictions() {
        this(Double.NaN);
    }

    /** @param sharedCores the CPUs k6 shares with the services; NaN where it runs elsewhere */
    public Predictions(double sharedCores) {
        this.sharedCores = sharedCores;
    }

    /**
     * With the calibration windows already measured, as an extension ({@code --extend}) finds them in the earlier
     * run: its JVM starts are predicted from the first JVM start's calibration, as precision on demand's are within
     * one run. None (a new run): nothing is calibrated yet.
     */
    public static Predictions from(List<WindowResult> measured) {
        return from(measured, Double.NaN);
    }

    /** The same, with k6 on {@code sharedCores} CPUs beside the services (NaN: elsewhere). */
    public static Predictions from(List<WindowResult> measured, double sharedCores) {
        Predictions predictions = new Predictions(sharedCores);
        measured.stream().filter(WindowResult::calibration).forEach(row -> predictions.calibration
                .computeIfAbsent(key(row.jvmId(), row.at()), k -> new ArrayList<>()).add(row));
        return predictions;
    }

    /** A calibration window of its JVM, as it was measured: each kind of work calibrates a model of its own. */
    public void calibrated(Jvm jvm, WindowResult row) {
        String key = key(jvm, row.at());
        calibration.computeIfAbsent(key, k -> new ArrayList<>()).add(row);
        fitted.remove(key);
    }

    private static String key(Jvm jvm, Point at) {
        return key(jvm.id(), at);
    }

    private static String key(String jvm, Point at) {
        return jvm + "@" + WorkKind.label(WorkKind.of(at));
    }

    /**
     * The forecast for a window of {@code jvm} at {@code at} (its JVM and window axes), on the calibration's machine
     * speed; empty when the JVM was not calibrated.
     */
    public Optional<Forecast> before(Jvm jvm, Point at) {
        return before(jvm, at, null);
    }

    /**
     * The same on a machine whose fixed piece of work took {@code machineUs} CPU-µs ({@link MachineSpeed}; null: the
     * calibration's speed).
     */
    public Optional<Forecast> before(Jvm jvm, Point at, Double machineUs) {
        String calibrated = calibration.containsKey(key(jvm, at)) ? key(jvm, at)
                : key(new Jvm(jvm.variant(), 1, jvm.port(), jvm.setup()), at);
        List<WindowResult> rows = calibration.get(calibrated);
        if (rows == null) {
            return Optional.empty();
        }
        CapacityModel.Fit fit = fitted.computeIfAbsent(calibrated, k -> CapacityModel.fit(k.substring(0,
                k.indexOf('@')), jvm.variant().threads(), rows));
        return fit.model().map(m -> m.onMachine(sharedCores).forMachine(machineUs).predict(at));
    }
}
