package io.threadlab.experiment.predict;

import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.testing.PublishedWindows;
import io.threadlab.experiment.testing.Windows;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How a calibration level reads its cost ({@link Level#cpuMs}): the window's whole predicts the levels left out better
 * where a level's seconds swung in waves, the median of its seconds where one second stalled; and over the published
 * calibrations the model's reading must be the better one, so a publication that turns it fails here.
 */
class CostReadingEvidenceTest {

    /** Five busy levels at 10 ms, each costing {@code cost} over its requests, the middle one's seconds as given. */
    private static List<WindowResult> calibration(double middleWhole, List<Double> middleSeconds) {
        int[] users = {150, 300, 500, 700, 900};
        double[] cost = {0.200, 0.185, middleWhole, 0.160, 0.150};
        return java.util.stream.IntStream.range(0, users.length).mapToObj(i -> Windows.closed("reactive", users[i],
                        490 / cost[i]).calibration().cpuMs(cost[i]).cpuCores(0.49)
                .cpuPerSecond(i == 2 ? middleSeconds : List.of(cost[i], cost[i], cost[i], cost[i])).build()).toList();
    }

    @Test
    void wavesMakeTheSecondsMedianFarFromTheWindowAndItsNeighboursWrong() {
        // the pool released the middle level's requests in waves: half its seconds dear, the window 0.170
        CostReadingEvidence evidence = CostReadingEvidence.of(Map.of("run", calibration(0.170,
                List.of(0.10, 0.40, 0.10, 0.40))));
        assertThat(evidence.all().levels()).as("the three levels between others").isEqualTo(3);
        assertThat(evidence.all().calibrations()).isEqualTo(1);
        assertThat(evidence.kinds()).extracting(CostReadingEvidence.Errors::work).containsExactly("the delay service");
        assertThat(evidence.all().whole()).isLessThan(evidence.all().median());
        assertThat(evidence.holds()).isTrue();
    }

    @Test
    void aStalledSecondMakesTheWindowDearAndTheMedianPredictsBetter() {
        // one second of the middle level stalled: the window 0.250, its other seconds 0.170
        CostReadingEvidence evidence = CostReadingEvidence.of(Map.of("run", calibration(0.250,
                List.of(0.17, 0.17, 0.17, 0.50))));
        assertThat(evidence.all().median()).isLessThan(evidence.all().whole());
        assertThat(evidence.holds()).isFalse();
    }

    @Test
    void aCalibrationOfTwoLevelsLeavesNothingOut() {
        CostReadingEvidence none = CostReadingEvidence.of(Map.of("run", calibration(0.170, List.of()).subList(0, 2)));
        assertThat(none.all().levels()).isZero();
        assertThat(none.holds()).isFalse();
    }

    @Test
    void thePublishedCalibrationsEarnTheReadingTheModelTakes() throws IOException {
        CostReadingEvidence evidence = CostReadingEvidence.of(PublishedWindows.read());
        assertThat(evidence.all().levels()).as("calibration levels between others in findings/").isGreaterThan(100);
        assertThat(evidence.holds()).as("left out, the window's whole %.3f against the seconds' median %.3f over %d"
                + " levels", evidence.all().whole(), evidence.all().median(), evidence.all().levels()).isTrue();
    }
}
