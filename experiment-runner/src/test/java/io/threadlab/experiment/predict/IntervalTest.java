package io.threadlab.experiment.predict;

import io.threadlab.experiment.collect.WindowResult;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The interval stated with a prediction: the lower of the two lowest ceilings, each within its own error. Where the
 * next ceiling is clear above, the binding one's ± its error; where it is close, reaching down to the next one's low
 * end; and a row recorded without the next ceiling's error keeps the interval it was judged on.
 */
class IntervalTest {

    private static WindowResult.Prediction prediction(double margin, Double nextError) {
        return new WindowResult.Prediction(4921, "connections", margin, 300.0, 400.0, 0.06, false,
                "2026-11-29T08:00:00Z", "reactive-jvm1", Map.of("connections", 4921.0, "cpu", 4921 * margin), null,
                nextError, null, null);
    }

    @Test
    void aClearNextCeilingLeavesTheBindingOnesError() {
        WindowResult.Prediction clear = prediction(1.5, 0.10);
        assertThat(clear.low()).isCloseTo(4921 * 0.94, within(0.01));
        assertThat(clear.high()).isCloseTo(4921 * 1.06, within(0.01));
        assertThat(clear.spread()).isEqualTo("±6 %");
    }

    @Test
    void aCloseNextCeilingWithALargerErrorWidensTheIntervalBelowOnly() {
        // the CPU 4 % above the connections, known within 15 %: it may bind as low as 4,921 × 1.04 × 0.85
        WindowResult.Prediction close = prediction(1.04, 0.15);
        assertThat(close.low()).isCloseTo(4921 * 1.04 * 0.85, within(0.01));
        assertThat(close.high()).isCloseTo(4921 * 1.06, within(0.01));
        assertThat(close.covers(4476)).as("9 % under: inside only because the CPU may bind below").isTrue();
        assertThat(close.spread()).isEqualTo("-12 %/+6 %");
    }

    @Test
    void aCloseNextCeilingAboveTheBindingOnesHighCutsTheIntervalAbove() {
        // the next ceiling 2 % above, within 1 %: the throughput cannot pass 1.02 × 1.01 of the binding one
        WindowResult.Prediction tight = prediction(1.02, 0.01);
        assertThat(tight.high()).isCloseTo(4921 * 1.02 * 1.01, within(0.01));
        assertThat(tight.low()).isCloseTo(4921 * 0.94, within(0.01));
    }

    @Test
    void aNextCeilingWhoseErrorPassesAllReachesDownToNothingNotBelow() {
        // the CPU 5 % above the connections, known within 101 %: it may bind as low as nothing, never below
        WindowResult.Prediction none = prediction(1.05, 1.01);
        assertThat(none.low()).isZero();
        assertThat(none.high()).isCloseTo(4921 * 1.06, within(0.01));
        assertThat(none.spread()).isEqualTo("-100 %/+6 %");
    }

    @Test
    void aRowWithoutTheNextCeilingsErrorKeepsTheIntervalItWasJudgedOn() {
        WindowResult.Prediction old = new WindowResult.Prediction(4921, "connections", 1.04, 300.0, 400.0, 0.06,
                false, "2026-11-29T05:13:00Z", "reactive-jvm1", Map.of(), 0.8, null, null, null);
        assertThat(old.low()).isCloseTo(4921 * 0.94, within(0.01));
        assertThat(old.covers(4476)).isFalse();
    }
}
