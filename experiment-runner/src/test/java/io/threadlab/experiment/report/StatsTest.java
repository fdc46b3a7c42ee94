package io.threadlab.experiment.report;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Against numbers computed by hand (with a calculator), not against the code's own output. Most values are powers
 * of 1.1, so that their logs are multiples of u = ln 1.1 = 0.0953102.
 */
class StatsTest {

    private static final double U = Math.log(1.1);

    private static List<Stats.Observation> jvm(int jvm, double... values) {
        List<Stats.Observation> observations = new ArrayList<>();
        for (double v : values) {
            observations.add(new Stats.Observation(v, jvm));
        }
        return observations;
    }

    private static List<Stats.Observation> both(List<Stats.Observation> a, List<Stats.Observation> b) {
        List<Stats.Observation> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    // ---- summaries --------------------------------------------------------------------------------------------

    @Test
    void oneJvmStartGivesTheStudentTIntervalOfTheLogsWithNMinusOneDegreesOfFreedom() {
        // logs ln 100 + (0, 1, 2) u: mean ln 110, sd u, se u / sqrt 3 = 0.0550274; t(2) = 4.303 -> half 0.236783
        // 110 * exp(-+0.236783) = 86.8079 .. 139.3882
        Stats.Summary s = Stats.summarise(jvm(1, 121, 100, 110));
        assertThat(s.method()).isEqualTo(Stats.Method.ONE_JVM);
        assertThat(s.n()).isEqualTo(3);
        assertThat(s.jvms()).isEqualTo(1);
        assertThat(s.median()).isEqualTo(110.0);
        assertThat(s.mean()).as("geometric mean").isCloseTo(110.0, within(1e-9));
        assertThat(s.low()).isCloseTo(86.8079, within(1e-4));
        assertThat(s.high()).isCloseTo(139.3882, within(1e-4));
        // raw: mean 110.3333, sd sqrt(220.6667 / 2) = 10.50397
        assertThat(s.cv()).isCloseTo(0.0952021, within(1e-7));
        assertThat(s.jvmSpread()).as("not measured with one JVM start").isNaN();
        assertThat(s.relativeHalfWidth()).isCloseTo((139.3882 - 86.8079) / 2 / 110, within(1e-6));
    }

    @Test
    void jvmStartsThatAgreePoolTheirRepetitionsWithNMinusJDegreesOfFreedom() {
        // JVM 1: 1000 * 1.1^(0, 2, 4), JVM 2: 1000 * 1.1^(1, 3, 5); logs ln 1000 + k u.
        // JVM means 2u and 3u, grand mean 2.5u -> geometric mean 1000 * 1.1^2.5 = 1269.0587.
        // within: SS (4 + 0 + 4) u^2 twice = 16u^2 over 6 - 2 = 4 df -> 4u^2; between: var(2u, 3u) = 0.5u^2,
        // at most 4u^2 / 3 (the within variance over 3 repetitions per JVM): no JVM effect.
        // se sqrt(4u^2 / 6) = 0.816497u; t(4) = 2.776 -> half 2.266594u = 0.216030 -> 1022.4952 .. 1575.0783
        Stats.Summary s = Stats.summarise(both(jvm(1, 1000, 1210, 1464.1), jvm(2, 1100, 1331, 1610.51)));
        assertThat(s.method()).isEqualTo(Stats.Method.WITHIN_JVMS);
        assertThat(s.jvms()).isEqualTo(2);
        assertThat(s.mean()).isCloseTo(1269.0587, within(1e-4));
        assertThat(s.low()).isCloseTo(1022.4952, within(1e-3));
        assertThat(s.high()).isCloseTo(1575.0783, within(1e-3));
        assertThat(s.median()).isCloseTo((1210 + 1331) / 2.0, within(1e-9));
        // JVM 2 is JVM 1 times 1.1, repetition by repetition
        assertThat(s.jvmSpread()).isCloseTo(0.1, within(1e-9));
    }

    @Test
    void jvmStartsThatDisagreeMakeTheIntervalFromTheirMeansWithJMinusOneDegreeOfFreedom() {
        // JVM 1: 1000 * 1.1^(0, 1, 2), JVM 2: 1000 * 1.1^(10, 11, 12). JVM means u and 11u, grand 6u -> 1771.561.
        // within: 4u^2 over 4 df = u^2, a third of it per JVM mean; between: var(u, 11u) = 50u^2, far more.
        // se sqrt(50u^2 / 2) = 5u; t(1) = 12.706 -> half 63.53u = 6.055056 -> 4.15603 .. 755150.3
        List<Stats.Observation> values = both(jvm(1, 1000, 1100, 1210), jvm(2, 2593.7424601, 2853.1167061,
                3138.4283767));
        Stats.Summary s = Stats.summarise(values);
        assertThat(s.method()).isEqualTo(Stats.Method.BETWEEN_JVMS);
        assertThat(s.mean()).isCloseTo(1771.561, within(1e-3));
        assertThat(s.low()).isCloseTo(4.15603, within(1e-5));
        assertThat(s.high()).isCloseTo(755150.3, within(1.0));
        assertThat(s.jvmSpread()).isCloseTo(1.5937425, within(1e-7)); // 1.1^10 - 1

        // The same six values as if from one JVM: SS (36 + 25 + 16 + 16 + 25 + 36) u^2 = 154u^2 over 5 df,
        // se sqrt(30.8u^2 / 6) = 2.265686u, t(5) = 2.571 -> half 0.555189: ten times narrower, and wrong.
        Stats.Summary pooled = Stats.summarise(jvm(1, values.stream().mapToDouble(Stats.Observation::value)
                .toArray()));
        assertThat(pooled.method()).isEqualTo(Stats.Method.ONE_JVM);
        assertThat(Math.log(pooled.high() / pooled.mean())).isCloseTo(0.555189, within(1e-6));
        assertThat(Math.log(s.high() / s.mean())).isGreaterThan(10 * Math.log(pooled.high() / pooled.mean()));
    }

    @Test
    void intervalsNeverReachZeroHoweverWildTheValues() {
        // 1, 100, 10000: logs 0, ln 100, 2 ln 100; sd ln 100, t(2) = 4.303 -> half 11.440800
        // -> 100 * exp(-11.4408) = 0.00107479 (on the raw scale the interval would start at -10904)
        Stats.Summary wild = Stats.summarise(jvm(1, 1, 100, 10_000));
        assertThat(wild.low()).isPositive().isCloseTo(0.00107479, within(1e-8));
        Stats.Summary apart = Stats.summarise(both(jvm(1, 1), jvm(2, 10_000)));
        assertThat(apart.method()).isEqualTo(Stats.Method.BETWEEN_JVMS);
        assertThat(apart.low()).isPositive();
    }

    @Test
    void valuesThatAreNotPositiveNumbersAreLeftOutAndOneValueHasNoInterval() {
        Stats.Summary s = Stats.summarise(jvm(1, 4, Double.NaN, 0, 1, 3, 2));
        assertThat(s.n()).isEqualTo(4);
        assertThat(s.median()).isEqualTo(2.5);
        Stats.Summary one = Stats.summarise(jvm(1, 42));
        assertThat(one.median()).isEqualTo(42.0);
        assertThat(one.hasInterval()).isFalse();
        assertThat(one.method()).isEqualTo(Stats.Method.NONE);
        assertThat(Stats.summarise(List.of()).n()).isZero();
    }

    // ---- paired ratios ----------------------------------------------------------------------------------------

    @Test
    void variantsWithTwoJvmStartsEachPoolTheirSpreadsInStudentsT() {
        // a: JVM means 200 * 1.1^(+-1), their variance 2u^2 (1 df); b: 100 twice, exact (1 df); pooled u^2,
        // standard error u, t(2) = 4.303 -> half 4.303u = 0.410120 -> 2 * exp(-+0.410120) = 1.327142 .. 3.013996
        // (Welch's t(1) = 12.706 would have given 0.56 .. 7.2 on the same four JVM means)
        Stats.Ratio r = Stats.betweenJvms(both(jvm(1, 220), jvm(2, 200 / 1.1)), both(jvm(1, 100), jvm(2, 100)),
                List.of());
        assertThat(r.method()).isEqualTo(Stats.Method.POOLED);
        assertThat(r.ratio()).isCloseTo(2.0, within(1e-9));
        assertThat(r.low()).isCloseTo(1.327142, within(1e-6));
        assertThat(r.high()).isCloseTo(3.013996, within(1e-6));
        assertThat(r.pairs()).isEqualTo(4);
        assertThat(r.withinNoise()).isFalse();
    }

    @Test
    void aQuietSidesExtraJvmStartsNeverNarrowANoisySidesInterval() {
        // a: 3 JVM means 200 * 1.1^(1, 0, -1): variance u^2 (2 df), of its mean u^2 / 3; b: 2 JVM means
        // 100 * 1.1^(+-3): variance 18u^2 (1 df), of its mean 9u^2. Pooled (2u^2 + 18u^2) / 3 = 20u^2 / 3 gives
        // 20u^2 / 3 * (1/3 + 1/2) = 5.56u^2, below Welch's u^2 / 3 + 9u^2 = 9.33u^2: the latter, with t(3) = 3.182
        // -> half 3.182 * sqrt(28 / 3) u = 0.926527 -> 0.791853 .. 5.051442
        Stats.Ratio r = Stats.betweenJvms(both(both(jvm(1, 220), jvm(2, 200)), jvm(3, 200 / 1.1)),
                both(jvm(1, 100 * Math.pow(1.1, 3)), jvm(2, 100 / Math.pow(1.1, 3))), List.of());
        assertThat(r.ratio()).isCloseTo(2.0, within(1e-9));
        assertThat(r.low()).isCloseTo(0.791853, within(1e-6));
        assertThat(r.high()).isCloseTo(5.051442, within(1e-6));
        assertThat(r.withinNoise()).isTrue();
    }

    @Test
    void oneJvmStartOnOneSideOnlyGivesTheRatioWithoutAnInterval() {
        Stats.Ratio r = Stats.betweenJvms(both(jvm(1, 220), jvm(2, 200 / 1.1)), jvm(1, 100, 100), List.of());
        assertThat(r.method()).isEqualTo(Stats.Method.ONE_JVM);
        assertThat(r.ratio()).isCloseTo(2.0, within(1e-9));
        assertThat(r.low()).isNaN();
    }

    @Test
    void pairsThatAgreeGiveTheExactRatioEvenWhenBothDrift() {
        // both variants slow down and speed up together; every pair's ratio is exactly 2, so the logs have no spread
        Stats.Ratio r = Stats.pairedRatio(List.of(new Stats.Pair(1000, 500, 1), new Stats.Pair(2000, 1000, 2),
                new Stats.Pair(1500, 750, 1), new Stats.Pair(1200, 600, 2)));
        assertThat(r.ratio()).isCloseTo(2.0, within(1e-12));
        assertThat(r.low()).isCloseTo(2.0, within(1e-12));
        assertThat(r.high()).isCloseTo(2.0, within(1e-12));
        assertThat(r.pairs()).isEqualTo(4);
        assertThat(r.withinNoise()).isFalse();
    }

    @Test
    void aClearRatioHasAnIntervalThatExcludesOne() {
        // ratios 2 * 1.1^(-1, 0, 1): as the one-JVM summary above, 2 * exp(-+0.236783) = 1.578325 .. 2.534332
        Stats.Ratio r = Stats.pairedRatio(List.of(new Stats.Pair(1000, 550, 1), new Stats.Pair(1000, 500, 1),
                new Stats.Pair(1100, 500, 1)));
        assertThat(r.method()).isEqualTo(Stats.Method.ONE_JVM);
        assertThat(r.ratio()).isCloseTo(2.0, within(1e-9));
        assertThat(r.low()).isCloseTo(1.578325, within(1e-6));
        assertThat(r.high()).isCloseTo(2.534332, within(1e-6));
        assertThat(r.withinNoise()).isFalse();
        assertThat(r.relativeHalfWidth()).isCloseTo(0.239002, within(1e-6));
    }

    @Test
    void aRatioWhoseIntervalContainsOneIsWithinNoise() {
        // ratios 1.21, 1, 1/1.1: logs 2u, 0, -u, mean u/3 -> 1.1^(1/3) = 1.032280
        // deviations 5u/3, -u/3, -4u/3: SS 42/9 u^2, var 7/3 u^2, se sqrt(7/9) u = 0.881917u;
        // t(2) = 4.303 -> half 3.794889u = 0.361692 -> 0.718980 .. 1.482102
        Stats.Ratio r = Stats.pairedRatio(List.of(new Stats.Pair(1210, 1000, 1), new Stats.Pair(1000, 1000, 1),
                new Stats.Pair(1000, 1100, 1)));
        assertThat(r.ratio()).isCloseTo(1.032280, within(1e-6));
        assertThat(r.low()).isCloseTo(0.718980, within(1e-6));
        assertThat(r.high()).isCloseTo(1.482102, within(1e-6));
        assertThat(r.withinNoise()).isTrue();
    }

    @Test
    void pairsMissingAValueAreLeftOutAndNoPairIsNoRatio() {
        Stats.Ratio r = Stats.pairedRatio(List.of(new Stats.Pair(Double.NaN, 500, 1), new Stats.Pair(0, 500, 1),
                new Stats.Pair(1000, 0, 1), new Stats.Pair(1000, 500, 1)));
        assertThat(r.pairs()).isEqualTo(1);
        assertThat(r.ratio()).isCloseTo(2.0, within(1e-12));
        assertThat(r.low()).as("one pair: no interval").isNaN();
        assertThat(r.withinNoise()).as("no interval, no winner").isTrue();
        Stats.Ratio none = Stats.pairedRatio(List.of());
        assertThat(none.ratio()).isNaN();
        assertThat(none.method()).isEqualTo(Stats.Method.NONE);
    }

    // ---- trends -----------------------------------------------------------------------------------------------

    @Test
    void theTrendIsTheLeastSquaresChangeAcrossTheSeriesRelativeToItsMean() {
        // 100, 110, 120: slope 10 per step, over 2 steps 20, of a mean of 110
        assertThat(Stats.trend(List.of(100.0, 110.0, 120.0))).isCloseTo(20.0 / 110, within(1e-12));
        // 100, 130, 110, 140: x - 1.5 = -1.5, -0.5, 0.5, 1.5; y - 120 = -20, 10, -10, 20;
        // slope (30 - 5 - 5 + 30) / 5 = 10, over 3 steps 30, of 120: 0.25
        assertThat(Stats.trend(List.of(100.0, 130.0, 110.0, 140.0))).isCloseTo(0.25, within(1e-12));
        assertThat(Stats.trend(List.of(5.0, 5.0, 5.0))).isZero();
        assertThat(Stats.trend(List.of(5.0))).isNaN();
    }

    @Test
    void onlyASeriesOfAtLeastThreeThatRisesEveryTimeOnlyRises() {
        assertThat(Stats.onlyRises(List.of(1.0, 2.0, 3.0))).isTrue();
        assertThat(Stats.onlyRises(List.of(1.0, 2.0, 2.0))).isFalse();
        assertThat(Stats.onlyRises(List.of(1.0, 3.0, 2.0))).isFalse();
        assertThat(Stats.onlyRises(List.of(3.0, 2.0, 1.0))).isFalse();
        assertThat(Stats.onlyRises(List.of(1.0, 2.0))).as("two values are no pattern").isFalse();
    }

    @Test
    void tCriticalValuesAreTheTabulatedOnes() {
        assertThat(Stats.tCritical(1)).isEqualTo(12.706);
        assertThat(Stats.tCritical(2)).isEqualTo(4.303);
        assertThat(Stats.tCritical(4)).isEqualTo(2.776);
        assertThat(Stats.tCritical(30)).isEqualTo(2.042);
        assertThat(Stats.tCritical(0)).isNaN();
    }

    @Test
    void beyondTheTableTheCriticalValueIsNeverSmallerThanTheTrueOne() {
        // Student t, 97.5 %: t(31) = 2.0395, t(45) = 2.0141, t(61) = 1.9996, t(100) = 1.9840, t(121) = 1.9798
        assertThat(Stats.tCritical(31)).isGreaterThanOrEqualTo(2.0395);
        assertThat(Stats.tCritical(45)).isGreaterThanOrEqualTo(2.0141);
        assertThat(Stats.tCritical(61)).isGreaterThanOrEqualTo(1.9996);
        assertThat(Stats.tCritical(100)).isGreaterThanOrEqualTo(1.9839);
        assertThat(Stats.tCritical(121)).isGreaterThanOrEqualTo(1.9797);
    }
}
