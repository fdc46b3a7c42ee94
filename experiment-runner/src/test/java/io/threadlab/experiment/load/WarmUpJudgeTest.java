package io.threadlab.experiment.load;

import io.threadlab.experiment.collect.CompilerSample;

import io.threadlab.experiment.plan.WarmUpPolicy;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class WarmUpJudgeTest {

    private static final double QUOTA = 0.5;
    // 2-second samples, windows of 10 s = 5 samples; quiet: compiler at most 2 % of 0.5 CPU = 10 ms/s; trend 10 %
    private static final WarmUpPolicy POLICY = WarmUpPolicy.boosted(2, 150, 90, false);
    private static final long UNKNOWN = -1;

    private static CompilerSample sample(double t, double rate, long c1, long c2, double cpuMs, double waitMs) {
        return new CompilerSample(t, QUOTA, 500, rate, c1, c2, 10_000, 5_000_000, cpuMs, waitMs);
    }

    private static CompilerSample quiet(double t, double rate) {
        return sample(t, rate, 0, 0, 4, 1);
    }

    /** Five samples 2 s apart at the given rates, quiet unless changed below. */
    private static List<CompilerSample> window(double... rates) {
        List<CompilerSample> window = new ArrayList<>();
        for (int i = 0; i < rates.length; i++) {
            window.add(quiet(2 * (i + 1), rates[i]));
        }
        return window;
    }

    private static final double[] FLAT = {1000, 1010, 990, 1005, 995};

    // ---- the boost ----------------------------------------------------------------------------------------------

    @Test
    void theBoostEndsWhenTheLastTwoSamplesHaveAnEmptyQueueAndANearlyIdleCompiler() {
        CompilerSample busy = sample(2, 800, 150, 180, 900, 300);
        assertThat(WarmUpJudge.boostDone(List.of())).isFalse();
        assertThat(WarmUpJudge.boostDone(List.of(sample(2, 800, 0, 0, 0, 0)))).as("one sample").isFalse();
        // (30 + 10 + 20 + 5) / 2 = 32.5 ms/s, at most 50: done, however busy it was before
        assertThat(WarmUpJudge.boostDone(List.of(busy, sample(4, 900, 0, 0, 30, 10), sample(6, 900, 0, 0, 20, 5))))
                .isTrue();
    }

    @Test
    void theBoostGoesOnWhileC2HasWorkOrC1MoreThanItsNoise() {
        assertThat(WarmUpJudge.boostDone(List.of(sample(2, 900, 0, 1, 5, 0), sample(4, 900, 0, 0, 5, 0))))
                .as("one C2 method queued").isFalse();
        assertThat(WarmUpJudge.boostDone(List.of(sample(2, 900, 10, 0, 5, 0), sample(4, 900, 10, 0, 5, 0))))
                .as("ten C1 methods: noise").isTrue();
        assertThat(WarmUpJudge.boostDone(List.of(sample(2, 900, 11, 0, 5, 0), sample(4, 900, 0, 0, 5, 0))))
                .as("eleven C1 methods").isFalse();
    }

    @Test
    void theBoostGoesOnWhileTheCompilerRunsOrWaitsToRun() {
        // CPU alone (40 + 30) / 2 = 35 is quiet; with the run-queue wait (40 + 20 + 30 + 20) / 2 = 55 it is not
        assertThat(WarmUpJudge.boostDone(List.of(sample(2, 900, 0, 0, 40, 20), sample(4, 900, 0, 0, 30, 20))))
                .isFalse();
    }

    @Test
    void withoutAQueueTheBoostEndsOnTheCompilersTimeAlone() {
        assertThat(WarmUpJudge.boostDone(List.of(sample(2, 900, UNKNOWN, UNKNOWN, 20, 5),
                sample(4, 900, UNKNOWN, UNKNOWN, 20, 5)))).isTrue();
        assertThat(WarmUpJudge.boostDone(List.of(sample(2, 900, UNKNOWN, UNKNOWN, 200, 5),
                sample(4, 900, UNKNOWN, UNKNOWN, 200, 5)))).isFalse();
    }

    // ---- a level at the quota -----------------------------------------------------------------------------------

    @Test
    void aQuietFlatWindowIsFinished() {
        WarmUpJudge.Judgement judgement = WarmUpJudge.level(window(FLAT), QUOTA, POLICY);
        assertThat(judgement.finished()).isTrue();
        assertThat(judgement.reason()).isEqualTo("finished");
        assertThat(judgement.compilerShare()).isCloseTo(0.008, within(1e-12)); // 4 ms/s of 500 ms/s
        assertThat(judgement.maxC2Queue()).isZero();
        // t = 2..10, rates 1000 + (0, 10, -10, 5, -5): slope -30 / 40 = -0.75/s, over 8 s of a 1000 mean: -0.6 %
        assertThat(judgement.trend()).isCloseTo(-0.006, within(1e-12));
    }

    @Test
    void fewerSamplesThanAWindowAreNotFinishedYet() {
        WarmUpJudge.Judgement judgement = WarmUpJudge.level(window(1000, 1000, 1000, 1000), QUOTA, POLICY);
        assertThat(judgement.finished()).isFalse();
        assertThat(judgement.reason()).isEqualTo("too few samples yet");
    }

    @Test
    void aSingleQueuedC2MethodAnywhereInTheWindowIsNotFinished() {
        List<CompilerSample> window = window(FLAT);
        window.set(2, sample(6, 990, 0, 3, 4, 1));
        WarmUpJudge.Judgement judgement = WarmUpJudge.level(window, QUOTA, POLICY);
        assertThat(judgement.finished()).isFalse();
        assertThat(judgement.reason()).isEqualTo("compile queue not empty (C2 up to 3, C1 up to 0)");
        assertThat(judgement.maxC2Queue()).isEqualTo(3);
    }

    @Test
    void c1WorkCountsOnlyAboveItsNoise() {
        List<CompilerSample> window = window(FLAT);
        window.set(1, sample(4, 1010, 10, 0, 4, 1));
        assertThat(WarmUpJudge.level(window, QUOTA, POLICY).finished()).isTrue();
        window.set(1, sample(4, 1010, 25, 0, 4, 1));
        WarmUpJudge.Judgement judgement = WarmUpJudge.level(window, QUOTA, POLICY);
        assertThat(judgement.finished()).isFalse();
        assertThat(judgement.reason()).isEqualTo("compile queue not empty (C2 up to 0, C1 up to 25)");
    }

    @Test
    void aCompilerAboveItsShareOfTheQuotaIsNotFinishedEvenWithAnEmptyQueue() {
        List<CompilerSample> window = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            window.add(sample(2 * (i + 1), FLAT[i], 0, 0, 12, 0));
        }
        WarmUpJudge.Judgement judgement = WarmUpJudge.level(window, QUOTA, POLICY);
        assertThat(judgement.finished()).isFalse();
        // 12 ms/s of 500 ms/s
        assertThat(judgement.compilerShare()).isCloseTo(0.024, within(1e-12));
        assertThat(judgement.reason()).isEqualTo("compiler threads used 2.4 % of the quota");
    }

    @Test
    void aRisingOrFallingThroughputIsNotFinished() {
        // slope 25/s over 8 s of an 1100 mean: 200 / 1100 = +18.2 %
        WarmUpJudge.Judgement rising = WarmUpJudge.level(window(1000, 1050, 1100, 1150, 1200), QUOTA, POLICY);
        assertThat(rising.finished()).isFalse();
        assertThat(rising.trend()).isCloseTo(200.0 / 1100, within(1e-12));
        assertThat(rising.reason()).isEqualTo("throughput trend +18 % across the window");
        WarmUpJudge.Judgement falling = WarmUpJudge.level(window(1200, 1150, 1100, 1050, 1000), QUOTA, POLICY);
        assertThat(falling.finished()).isFalse();
        assertThat(falling.reason()).isEqualTo("throughput trend -18 % across the window");
    }

    @Test
    void withoutAQueueALevelIsJudgedOnTheCompilersCpuAndTheTrend() {
        List<CompilerSample> quiet = new ArrayList<>();
        List<CompilerSample> busy = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            quiet.add(sample(2 * (i + 1), FLAT[i], UNKNOWN, UNKNOWN, 4, 1));
            busy.add(sample(2 * (i + 1), FLAT[i], UNKNOWN, UNKNOWN, 30, 1));
        }
        WarmUpJudge.Judgement finished = WarmUpJudge.level(quiet, QUOTA, POLICY);
        assertThat(finished.finished()).isTrue();
        assertThat(finished.maxC2Queue()).isEqualTo(UNKNOWN);
        WarmUpJudge.Judgement notFinished = WarmUpJudge.level(busy, QUOTA, POLICY);
        assertThat(notFinished.finished()).isFalse();
        assertThat(notFinished.reason()).isEqualTo("compiler threads used 6.0 % of the quota");
    }

    @Test
    void theTrendIsTheLeastSquaresChangeAcrossTheWindowRelativeToItsMean() {
        // t = 0, 2, 4, 6 (mean 3), rates 100, 120, 110, 150 (mean 120):
        // sum (dt * dr) = (-3)(-20) + (-1)(0) + (1)(-10) + (3)(30) = 140, sum dt^2 = 20 -> slope 7/s;
        // over the 6 s span: 42, relative to the mean 120: 0.35
        List<CompilerSample> series = List.of(quiet(0, 100), quiet(2, 120), quiet(4, 110), quiet(6, 150));
        assertThat(WarmUpJudge.trend(series)).isCloseTo(0.35, within(1e-12));
        assertThat(WarmUpJudge.trend(List.of(quiet(0, 100)))).as("one sample").isNaN();
        assertThat(WarmUpJudge.trend(List.of(quiet(0, 0), quiet(2, 0)))).as("no throughput").isNaN();
    }
}
