package io.threadlab.experiment.plan;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** What a warm-up's load calls, and so by how many of the delay service's calls its throughput is a request. */
class WarmUpStepTest {

    private static final WarmUpPolicy POLICY = WarmUpPolicy.boosted(2, 150, 90, false);

    private static Step.WarmUp warmUp(Variant variant, Point at) {
        return new Step.WarmUp(new Jvm(variant, 1, 8082), List.of(100), POLICY, at);
    }

    @Test
    void aModelsWarmUpMakesOneDelayCallARequestEvenWhereItsWindowsFanOut() {
        assertThat(warmUp(Variant.REACTIVE, Point.NONE).delayCallsPerRequest()).isEqualTo(1);
        Step.WarmUp fanningOut = warmUp(Variant.REACTIVE, Point.of(Axis.FAN_OUT, 4));
        assertThat(fanningOut.path()).isEqualTo("/api");
        assertThat(fanningOut.delayCallsPerRequest()).isEqualTo(1);
    }

    @Test
    void aWarmUpOnTheDatabaseMakesNoDelayCall() {
        assertThat(warmUp(Variant.REACTIVE, Point.of(Axis.DOWNSTREAM, Downstream.DB)).delayCallsPerRequest())
                .isZero();
    }

    @Test
    void aMistakeThatOnlyFansOutMakesItsWindowsCallsARequest() {
        Variant onlyFansOut = Variant.all().stream().filter(v -> v.path(Downstream.HTTP) == null
                && v.path(Downstream.DB) == null).findFirst().orElseThrow();
        Step.WarmUp warmUp = warmUp(onlyFansOut, Point.of(Axis.FAN_OUT, 4));
        assertThat(warmUp.path()).as(onlyFansOut.label()).isNotNull();
        assertThat(warmUp.delayCallsPerRequest()).isEqualTo(4);
    }
}
