package io.threadlab.experiment.report.landscape;

import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.testing.Windows;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The machine is named for a CPU-ceiling miss only where the runner's yardstick differed between the point and its
 * calibration, the way the miss runs; the shapes are the default run of 2026-11-27T20-15-46Z, whose first minutes the
 * machine spent slower (the piece at 1.5× the CPU it took later).
 */
class MachineGapTest {

    private static WindowResult.Prediction predicted(double rps, String binding) {
        return new WindowResult.Prediction(rps, binding, 2, 10.0, 300.0, 0.05, false, "2026-11-27T20:19:00Z",
                "imperative-jvm1", Map.of(binding, rps), null, null, null, null);
    }

    /** The calibration: 150 and 700 users, the piece at 1,000 and 1,040 CPU-µs. */
    private static List<WindowResult> calibration() {
        return List.of(Windows.closed("imperative", 150, 2600).calibration().yardstick(1000).build(),
                Windows.closed("imperative", 700, 2600).calibration().yardstick(1040).build());
    }

    private static Optional<String> explain(WindowResult point) {
        List<WindowResult> rows = new ArrayList<>(calibration());
        rows.add(point);
        Outcome outcome = Landscape.of(rows, 2, false).outcomes().getFirst();
        return MachineGap.explain(outcome, rows);
    }

    @Test
    void aSlowerPointOnASlowerMachineNamesTheMachine() {
        Optional<String> note = explain(Windows.closed("imperative", 500, 2100).yardstick(1530)
                .prediction(predicted(2660, "cpu")).build());
        assertThat(note).hasValue("the machine slower than in the calibration: the runner's fixed piece of work took"
                + " 1.50× its CPU in the calibration");
    }

    /** A later JVM start is held to the calibration its prediction was read from, its variant's first start's. */
    @Test
    void aLaterJvmStartIsHeldToTheCalibrationItWasPredictedFrom() {
        Optional<String> note = explain(Windows.closed("imperative", 500, 2100).jvm(2).yardstick(1530)
                .prediction(predicted(2660, "cpu")).build());
        assertThat(note).hasValue("the machine slower than in the calibration: the runner's fixed piece of work took"
                + " 1.50× its CPU in the calibration");
    }

    @Test
    void aFasterPointOnAFasterMachineNamesTheMachine() {
        Optional<String> note = explain(Windows.closed("imperative", 500, 3300).yardstick(816)
                .prediction(predicted(2660, "cpu")).build());
        assertThat(note).hasValue("the machine faster than in the calibration: the runner's fixed piece of work took"
                + " 0.80× its CPU in the calibration");
    }

    @Test
    void aForecastAlreadyMadeForTheSlowerMachineIsNotExplainedByIt() {
        // the same miss on the same slow machine, but the forecast was made for it: the machine is not the gap
        WindowResult.Prediction forTheMachine = new WindowResult.Prediction(2660, "cpu", 2, 10.0, 300.0, 0.05, false,
                "2026-11-27T20:19:00Z", "imperative-jvm1", Map.of("cpu", 2660.0), null, null, 1500.0, null);
        assertThat(explain(Windows.closed("imperative", 500, 2100).yardstick(1530).prediction(forTheMachine).build()))
                .hasValue("not the machine: the runner's fixed piece of work took 1.02× its CPU in the windows before"
                        + " it, which the forecast was made for");
        // and on a machine slower still than the one it was made for, it is named against that one
        assertThat(explain(Windows.closed("imperative", 500, 2100).yardstick(1800).prediction(forTheMachine).build()))
                .hasValue("the machine slower than the forecast took it: the runner's fixed piece of work took 1.20×"
                        + " its CPU in the windows before it, which the forecast was made for");
    }

    /**
     * Whether the window's machine kept the speed its forecast was made for, within the yardstick's slower share,
     * either way; unknown where the forecast did not record the speed or the window was not timed.
     */
    @Test
    void aWindowSaysWhetherItsMachineKeptTheSpeedItsForecastTookIt() {
        WindowResult.Prediction forTheMachine = new WindowResult.Prediction(2660, "cpu", 2, 10.0, 300.0, 0.05, false,
                "2026-11-27T20:19:00Z", "imperative-jvm1", Map.of("cpu", 2660.0), null, null, 1500.0, null);
        assertThat(asForecast(Windows.closed("imperative", 500, 2100).yardstick(1700).prediction(forTheMachine)))
                .hasValue(true);
        assertThat(asForecast(Windows.closed("imperative", 500, 2100).yardstick(1800).prediction(forTheMachine)))
                .hasValue(false);
        assertThat(asForecast(Windows.closed("imperative", 500, 2100).yardstick(1200).prediction(forTheMachine)))
                .hasValue(false);
        assertThat(asForecast(Windows.closed("imperative", 500, 2100).yardstick(1530)
                .prediction(predicted(2660, "cpu")))).as("made before the runner recorded the speed").isEmpty();
        assertThat(asForecast(Windows.closed("imperative", 500, 2100).prediction(forTheMachine)))
                .as("not timed").isEmpty();
    }

    private static Optional<Boolean> asForecast(Windows point) {
        List<WindowResult> rows = new ArrayList<>(calibration());
        rows.add(point.build());
        return Landscape.of(rows, 2, false).outcomes().getFirst().machineAsForecast();
    }

    @Test
    void theMachineTheOtherWayOrAsFastIsNotNamed() {
        // slower machine, faster point: the machine cannot have made it faster
        assertThat(explain(Windows.closed("imperative", 500, 3300).yardstick(1530)
                .prediction(predicted(2660, "cpu")).build())).hasValue("not the machine: the runner's fixed piece of"
                + " work took 1.50× its CPU in the calibration");
        // a slower point, the machine within 15 % of its calibration's
        assertThat(explain(Windows.closed("imperative", 500, 2100).yardstick(1122)
                .prediction(predicted(2660, "cpu")).build())).hasValue("not the machine: the runner's fixed piece of"
                + " work took 1.10× its CPU in the calibration");
    }

    @Test
    void nothingIsSaidWithinTheTargetUnderAnotherCeilingOrUntimed() {
        assertThat(explain(Windows.closed("imperative", 500, 2600).yardstick(1530)
                .prediction(predicted(2660, "cpu")).build())).isEmpty();
        assertThat(explain(Windows.closed("imperative", 500, 2100).yardstick(1530)
                .prediction(predicted(2660, "workers")).build())).isEmpty();
        assertThat(explain(Windows.closed("imperative", 500, 2100)
                .prediction(predicted(2660, "cpu")).build())).isEmpty();
    }
}
