package io.threadlab.experiment.predict;

import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.testing.Windows;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** Whether k6's cost as a calibration fits it holds in the windows of the runs that made it, and where it does not. */
class LoadCostEvidenceTest {

    /**
     * A run whose calibration sees k6 spend 0.1 CPU-ms a request without the histogram, and whose measured window at
     * 2,500 req/s sees it spend {@code factor} times what that and the histogram's constant say.
     */
    private static List<WindowResult> run(double factor) {
        return List.of(
                Windows.closed("reactive", 700, 3000).k6Cores(0.3).calibration().withoutPercentiles().build(),
                Windows.closed("reactive", 300, 2000).k6Cores(0.2).calibration().withoutPercentiles().build(),
                Windows.closed("reactive", 150, 1000).k6Cores(0.1).calibration().withoutPercentiles().build(),
                Windows.closed("reactive", 500, 2500).k6Cores(0.25 * LoadCost.HISTOGRAM * factor).build());
    }

    @Test
    void aCalibrationWhoseK6SpendsWhatItsWindowsDoHolds() {
        LoadCostEvidence evidence = LoadCostEvidence.of(Map.of("a", run(0.98), "b", run(1.02)));
        assertThat(evidence.windows()).isEqualTo(2);
        assertThat(evidence.runs()).isEqualTo(2);
        assertThat(evidence.factor()).isCloseTo(1.0, within(0.001));
        assertThat(evidence.holds()).isTrue();
    }

    @Test
    void windowsWhereK6SpendsHalfAgainAsMuchDoNotHold() {
        LoadCostEvidence evidence = LoadCostEvidence.of(Map.of("a", run(1.45), "b", run(1.55)));
        assertThat(evidence.factor()).isCloseTo(Math.sqrt(1.45 * 1.55), within(0.001));
        assertThat(evidence.holds()).isFalse();
    }

    /**
     * A window far below the calibration's throughput reads the fitted line's intercept, not k6: a map's 10 users
     * waiting 1 s each. Left out, whatever it spent.
     */
    @Test
    void windowsBelowTheCalibrationsThroughputAreLeftOut() {
        List<WindowResult> withSlowWindow = new java.util.ArrayList<>(run(1.0));
        withSlowWindow.add(Windows.closed("reactive", 10, 8).k6Cores(0.001).build());
        LoadCostEvidence evidence = LoadCostEvidence.of(Map.of("a", withSlowWindow, "b", run(1.0)));
        assertThat(evidence.windows()).isEqualTo(2);
        assertThat(evidence.factor()).isCloseTo(1.0, within(0.001));
    }

    @Test
    void oneRunOrNoCalibrationSaysNothing() {
        assertThat(LoadCostEvidence.of(Map.of("a", run(1.0))).factor()).isNaN();
        LoadCostEvidence uncalibrated = LoadCostEvidence.of(Map.of("a", List.of(Windows.closed("reactive", 500, 2500)
                .build()), "b", List.of(Windows.closed("reactive", 500, 2500).build())));
        assertThat(uncalibrated.windows()).isZero();
        assertThat(uncalibrated.factor()).isNaN();
    }
}
