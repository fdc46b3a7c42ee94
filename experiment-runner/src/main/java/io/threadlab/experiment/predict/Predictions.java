package io.threadlab.experiment.predict;

import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.plan.Jvm;
import io.threadlab.experiment.plan.Point;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The runner's predictions, made before each window from its JVM's calibration: calibration windows are added as
 * they are measured; the first prediction a JVM is asked for fits its model, once.
 */
public final class Predictions {

    private final Map<String, List<WindowResult>> calibration = new HashMap<>();
    private final Map<String, CapacityModel.Fit> fitted = new HashMap<>();

    /** A calibration window of its JVM, as it was measured. */
    public void calibrated(Jvm jvm, WindowResult row) {
        calibration.computeIfAbsent(jvm.id(), k -> new ArrayList<>()).add(row);
        fitted.remove(jvm.id());
    }

    /**
     * The forecast for a window of {@code jvm} at {@code at} (its JVM and window axes); empty when the JVM was not
     * calibrated.
     */
    public Optional<Forecast> before(Jvm jvm, Point at) {
        List<WindowResult> rows = calibration.get(jvm.id());
        if (rows == null) {
            return Optional.empty();
        }
        CapacityModel.Fit fit = fitted.computeIfAbsent(jvm.id(), k -> CapacityModel.fit(jvm.label(),
                jvm.variant().threads(), rows));
        return fit.model().map(m -> m.predict(at));
    }
}
