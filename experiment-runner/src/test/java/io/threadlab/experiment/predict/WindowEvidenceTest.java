package io.threadlab.experiment.predict;

import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.testing.Windows;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** Two windows of one JVM at one point: a calibration window and a measured one at the point it calibrated. */
class WindowEvidenceTest {

    @Test
    void eachMeasuredWindowIsPairedWithTheCalibrationWindowOfItsJvmAtItsPoint() {
        // reactive at 700 users: 10 % dearer measured, at one machine speed; virtual threads at 700: the piece 1.1x
        // slower, the request 1.1^0.57 dearer (what the machine explains) and 5 % more: ln 1.10 and ln 1.05 remain
        List<WindowResult> run = List.of(
                Windows.closed("reactive", 700, 3000).calibration().cpuMs(0.100).yardstick(1000).build(),
                Windows.closed("reactive", 700, 3000).cpuMs(0.110).yardstick(1000).build(),
                Windows.closed("virtual-thread", 700, 3000).calibration().cpuMs(0.100).yardstick(1000).build(),
                Windows.closed("virtual-thread", 700, 3000).cpuMs(0.100 * Math.pow(1.1, MachineSpeed.ELASTICITY)
                        * 1.05).yardstick(1100).build(),
                // another point, another JVM start, a recorded twin: none is the calibration window's pair
                Windows.closed("reactive", 500, 3000).cpuMs(0.200).yardstick(1000).build(),
                Windows.closed("reactive", 700, 3000).jvm(2).cpuMs(0.200).yardstick(1000).build(),
                Windows.closed("reactive", 700, 3000).recorded().cpuMs(0.200).yardstick(1000).build());
        WindowEvidence evidence = WindowEvidence.of(Map.of("run", run));
        double rms = Math.sqrt((Math.pow(Math.log(1.10), 2) + Math.pow(Math.log(1.05), 2)) / 2);
        assertThat(evidence.pairs()).isEqualTo(2);
        assertThat(evidence.runs()).isEqualTo(1);
        assertThat(evidence.difference()).isCloseTo(rms, within(1e-9));
        assertThat(evidence.standardError()).isCloseTo(rms / 2, within(1e-9));
        assertThat(evidence.holds(rms + 1.9 * rms / 2)).isTrue();
        assertThat(evidence.holds(rms + 2.1 * rms / 2)).isFalse();
    }

    @Test
    void aRunThatNeverMeasuredACalibratedPointAgainSaysNothing() {
        WindowEvidence none = WindowEvidence.of(Map.of("run", List.of(
                Windows.closed("reactive", 700, 3000).calibration().cpuMs(0.100).yardstick(1000).build(),
                Windows.closed("reactive", 500, 3000).cpuMs(0.110).yardstick(1000).build())));
        assertThat(none.difference()).isNaN();
        assertThat(none.holds(CpuCurve.LEAST_ERROR)).isFalse();
    }
}
