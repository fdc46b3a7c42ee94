package io.threadlab.experiment.predict;

import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.Jvm;
import io.threadlab.experiment.plan.Point;
import io.threadlab.experiment.plan.Variant;
import io.threadlab.experiment.testing.Windows;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which calibration predicts a window: its JVM's own, else its variant's first JVM start's, whether that was
 * calibrated in this session or in the earlier run an extension ({@code --extend}) adds to.
 */
class PredictionsTest {

    private static final Jvm FIRST = new Jvm(Variant.REACTIVE, 1, 8082);
    private static final Jvm THIRD = new Jvm(Variant.REACTIVE, 3, 8082);
    private static final Point AT = Point.of(Axis.CPUS, 0.5).with(Axis.WORKER_MAX, 200).with(Axis.POOL_SIZE, 1000)
            .with(Axis.DELAY_MS, 10).with(Axis.USERS, 500);

    /** JVM start 1 of reactive calibrated at 100, 300 and 1,000 users, CPU-bound (as in CapacityModelTest). */
    private static List<WindowResult> calibration() {
        return List.of(
                Windows.closed("reactive", 1000, 6250).cpuMs(0.08).cpuCores(0.5).calibration().build(),
                Windows.closed("reactive", 300, 0.5 / 0.105 * 1000).cpuMs(0.105).cpuCores(0.5).calibration().build(),
                Windows.closed("reactive", 100, 0.5 / 0.11 * 1000).cpuMs(0.11).cpuCores(0.5).calibration().build());
    }

    @Test
    void aLaterJvmStartIsPredictedFromTheFirstOnesCalibration() {
        Predictions predictions = new Predictions();
        calibration().forEach(row -> predictions.calibrated(FIRST, row));
        Forecast forecast = predictions.before(THIRD, AT).orElseThrow();
        assertThat(forecast.jvm()).isEqualTo("reactive-jvm1");
        assertThat(new Predictions().before(THIRD, AT)).as("nothing calibrated, nothing predicted").isEmpty();
    }

    @Test
    void anExtensionPredictsFromTheEarlierRunsCalibrationAsTheRunItselfWould() {
        List<WindowResult> earlier = new ArrayList<>(calibration());
        // the earlier run's measured windows are no calibration, and change nothing
        earlier.add(Windows.closed("reactive", 500, 4000).cpuMs(0.2).jvm(1).build());
        earlier.add(Windows.closed("reactive", 500, 4100).cpuMs(0.2).jvm(2).repetition(2).build());
        Predictions withinTheRun = new Predictions();
        calibration().forEach(row -> withinTheRun.calibrated(FIRST, row));

        Forecast extension = Predictions.from(earlier).before(THIRD, AT).orElseThrow();
        assertThat(extension.jvm()).isEqualTo("reactive-jvm1");
        assertThat(extension.rps()).isEqualTo(withinTheRun.before(THIRD, AT).orElseThrow().rps());
        assertThat(Predictions.from(List.of()).before(THIRD, AT)).isEmpty();
    }
}
