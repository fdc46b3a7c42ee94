package io.threadlab.experiment.predict;

import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.testing.Windows;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.DoubleBinaryOperator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The collector's pauses predicted from a JVM's calibration, as a power of the users and as a line in the throughput,
 * against that JVM's later windows: the reading that matches how they paused is the one with the smaller error.
 */
class PauseEvidenceTest {

    /** 10-s windows: the seconds paused in one at {@code users} and {@code rps}, as {@code share} says. */
    private static WindowResult window(int users, double rps, DoubleBinaryOperator share, boolean calibration) {
        Windows w = Windows.closed("reactive", users, rps).cpuMs(0.1).cpuCores(0.5).meanMs(users / rps * 1000)
                .youngCollections(3, share.applyAsDouble(users, rps) * 10);
        return (calibration ? w.calibration() : w).build();
    }

    /** A JVM calibrated at 150 to 1,000 users, then measured at 700 and 3,000, each window paused as {@code share}. */
    private static List<WindowResult> jvm(DoubleBinaryOperator calibrated, DoubleBinaryOperator measured) {
        List<WindowResult> windows = new ArrayList<>();
        for (int[] ur : new int[][] {{150, 4000}, {300, 4200}, {700, 4600}, {1000, 5000}}) {
            windows.add(window(ur[0], ur[1], calibrated, true));
        }
        windows.add(window(700, 4500, measured, false));
        windows.add(window(3000, 2600, measured, false));
        windows.add(window(3000, 2700, measured, false));
        return windows;
    }

    private static final DoubleBinaryOperator GROWING = (users, rps) -> 3e-8 * users * rps;

    @Test
    void windowsThatPausedAsThePowerSaysArePredictedByItBeyondTheUsersRead() {
        PauseEvidence evidence = PauseEvidence.of(Map.of("run", jvm(GROWING, GROWING)));
        assertThat(evidence.within().windows()).isEqualTo(1);
        assertThat(evidence.beyond().windows()).isEqualTo(2);
        assertThat(evidence.beyond().jvms()).isEqualTo(1);
        assertThat(evidence.beyond().power()).isCloseTo(0, within(1e-9));
        assertThat(evidence.beyond().line()).as("the line says a fraction of it at 3,000 users")
                .isGreaterThan(Math.log(2));
        assertThat(evidence.holds()).isTrue();
    }

    @Test
    void windowsThatPausedAsTheLineSaysTurnTheEvidence() {
        // beyond the users read, these paused what a request paused at 1,000 users: the power says three times that
        DoubleBinaryOperator flat = (users, rps) -> 3e-8 * Math.min(users, 1000) * rps;
        PauseEvidence evidence = PauseEvidence.of(Map.of("run", jvm(GROWING, flat)));
        assertThat(evidence.beyond().power()).isCloseTo(Math.log(3), within(1e-9));
        assertThat(evidence.beyond().line()).isLessThan(evidence.beyond().power());
        assertThat(evidence.holds()).isFalse();
    }

    @Test
    void aCalibrationThatNeverPausedPredictsNothing() {
        PauseEvidence evidence = PauseEvidence.of(Map.of("run", jvm((users, rps) -> 0, GROWING)));
        assertThat(evidence.within().windows() + evidence.beyond().windows()).isZero();
        assertThat(evidence.holds()).isFalse();
    }
}
