package io.threadlab.experiment.load;

import io.threadlab.experiment.plan.WarmUpPolicy;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WarmUpTest {

    private static final double QUIET = 2.0;
    private static final double COMPILING = 300.0;
    private static final double UNKNOWN = Double.NaN;

    // min 10 s, max 30 s, samples every 2 s, steady = last 3 within 10 % of their mean and the JIT's mean under 100 ms/s
    private final WarmUpPolicy policy = new WarmUpPolicy(100, 10, 30, 2, 3, 0.10, 100);

    @Test
    void aRisingRateIsNotSteadyAndAFlatOneWithAQuietJitIs() {
        WarmUp warmUp = new WarmUp(policy);
        assertThat(warmUp.add(300, COMPILING, 2)).isEqualTo(WarmUp.State.WARMING);
        assertThat(warmUp.add(900, COMPILING, 4)).isEqualTo(WarmUp.State.WARMING);
        assertThat(warmUp.add(1500, QUIET, 6)).isEqualTo(WarmUp.State.WARMING);
        assertThat(warmUp.add(1520, QUIET, 8)).isEqualTo(WarmUp.State.WARMING); // 900 still among the last three
        assertThat(warmUp.add(1490, QUIET, 10)).isEqualTo(WarmUp.State.STEADY);
    }

    @Test
    void aPlateauWhileTheJitIsStillCompilingIsNotSteady() {
        // Measured under 0.5 CPU: ~1,700 req/s for 10 s while C2 worked, then ~4,000 once it finished.
        WarmUp warmUp = new WarmUp(policy);
        for (int t = 2; t <= 16; t += 2) {
            assertThat(warmUp.add(1700, COMPILING, t)).as("at %d s", t).isEqualTo(WarmUp.State.WARMING);
        }
        warmUp.add(4000, 400, 18);
        warmUp.add(4010, QUIET, 20);
        // flat throughput, but the JIT averaged (400 + 2 + 2) / 3 = 135 ms/s over the last three samples
        assertThat(warmUp.add(3990, QUIET, 22)).isEqualTo(WarmUp.State.WARMING);
        assertThat(warmUp.lastJit()).isCloseTo(134.67, org.assertj.core.data.Offset.offset(0.01));
        assertThat(warmUp.add(4005, 150, 24)).isEqualTo(WarmUp.State.STEADY); // (2 + 2 + 150) / 3 = 51: a blip
    }

    @Test
    void steadyBeforeTheMinimumKeepsWarming() {
        WarmUp warmUp = new WarmUp(policy);
        warmUp.add(1000, QUIET, 2);
        warmUp.add(1000, QUIET, 4);
        assertThat(warmUp.add(1000, QUIET, 6)).isEqualTo(WarmUp.State.WARMING);
        assertThat(warmUp.add(1000, QUIET, 10)).isEqualTo(WarmUp.State.STEADY);
    }

    @Test
    void withoutAJitMetricThroughputAloneDecides() {
        WarmUp warmUp = new WarmUp(policy);
        warmUp.add(1000, UNKNOWN, 6);
        warmUp.add(1000, UNKNOWN, 8);
        assertThat(warmUp.add(1000, UNKNOWN, 10)).isEqualTo(WarmUp.State.STEADY);
    }

    @Test
    void aRateThatNeverSettlesGivesUpAtTheCeiling() {
        WarmUp warmUp = new WarmUp(policy);
        WarmUp.State state = WarmUp.State.WARMING;
        for (int t = 2; t <= 30; t += 2) {
            state = warmUp.add(t % 4 == 0 ? 500 : 1500, QUIET, t);
        }
        assertThat(state).isEqualTo(WarmUp.State.GAVE_UP);
        assertThat(warmUp.rates()).hasSize(15);
        assertThat(warmUp.lastSpread()).isGreaterThan(0.10);
    }

    @Test
    void noTrafficIsNeverSteady() {
        WarmUp warmUp = new WarmUp(policy);
        for (int t = 2; t <= 28; t += 2) {
            assertThat(warmUp.add(0, QUIET, t)).isEqualTo(WarmUp.State.WARMING);
        }
    }

    @Test
    void rejectsAPolicyThatCannotWork() {
        assertThatThrownBy(() -> new WarmUpPolicy(100, 30, 10, 2, 3, 0.1, 20)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new WarmUpPolicy(100, 0, 10, 2, 1, 0.1, 20)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new WarmUpPolicy(100, 0, 10, 2, 3, 0.1, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
