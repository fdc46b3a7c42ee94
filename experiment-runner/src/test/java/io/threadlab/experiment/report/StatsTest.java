package io.threadlab.experiment.report;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** Against numbers computed by hand (and checked with a calculator), not against the code's own output. */
class StatsTest {

    @Test
    void threeRepetitionsGiveTheMedianAndTheStudentTIntervalOfTheMean() {
        // 100, 110, 120: mean 110, sd 10, se 10/sqrt(3) = 5.7735, t(2) = 4.303 -> half-width 24.843
        Stats.Summary s = Stats.summarise(List.of(110.0, 100.0, 120.0));
        assertThat(s.n()).isEqualTo(3);
        assertThat(s.median()).isEqualTo(110.0);
        assertThat(s.mean()).isEqualTo(110.0);
        assertThat(s.low()).isCloseTo(85.157, within(0.001));
        assertThat(s.high()).isCloseTo(134.843, within(0.001));
        assertThat(s.cv()).isCloseTo(10.0 / 110.0, within(1e-9));
    }

    @Test
    void anEvenCountTakesTheMiddlePairAndNaNsAreIgnored() {
        Stats.Summary s = Stats.summarise(List.of(4.0, 1.0, Double.NaN, 3.0, 2.0));
        assertThat(s.n()).isEqualTo(4);
        assertThat(s.median()).isEqualTo(2.5);
        // mean 2.5, sd 1.29099, se 0.645497, t(3) = 3.182 -> 2.5 +- 2.05397
        assertThat(s.low()).isCloseTo(0.44603, within(1e-4));
        assertThat(s.high()).isCloseTo(4.55397, within(1e-4));
    }

    @Test
    void oneValueHasNoInterval() {
        Stats.Summary s = Stats.summarise(List.of(42.0));
        assertThat(s.median()).isEqualTo(42.0);
        assertThat(s.hasInterval()).isFalse();
        assertThat(Stats.summarise(List.of()).n()).isZero();
    }

    @Test
    void aClearDifferenceIsARatioWhoseIntervalExcludesOne() {
        // a: 200, 210, 190 (mean 200, sd 10); b: 100, 105, 95 (mean 100, sd 5)
        // relative variances: (10^2/3)/200^2 = 8.3333e-4, (5^2/3)/100^2 = 8.3333e-4; se = 0.040825
        // Welch df = (1.6667e-3)^2 / (2 * (8.3333e-4)^2 / 2) = 4 -> t = 2.776
        // interval: 2 * exp(-+2.776 * 0.040825) = 2 * exp(-+0.113330) = 1.78571 .. 2.24001
        Stats.Ratio r = Stats.ratio(List.of(200.0, 210.0, 190.0), List.of(100.0, 105.0, 95.0));
        assertThat(r.ratio()).isEqualTo(2.0);
        assertThat(r.low()).isCloseTo(1.78571, within(1e-4));
        assertThat(r.high()).isCloseTo(2.24001, within(1e-4));
        assertThat(r.withinNoise()).isFalse();
    }

    @Test
    void anOverlapIsWithinNoise() {
        Stats.Ratio r = Stats.ratio(List.of(100.0, 130.0, 85.0), List.of(95.0, 120.0, 100.0));
        assertThat(r.ratio()).isCloseTo(315.0 / 315.0, within(1e-9));
        assertThat(r.withinNoise()).isTrue();
        Stats.Ratio single = Stats.ratio(List.of(100.0), List.of(50.0));
        assertThat(single.ratio()).isEqualTo(2.0);
        assertThat(single.withinNoise()).as("no interval, no winner").isTrue();
    }

    @Test
    void tCriticalValuesAreTheTabulatedOnes() {
        assertThat(Stats.tCritical(2)).isEqualTo(4.303);
        assertThat(Stats.tCritical(4.9)).isEqualTo(2.776); // rounded down: wider, never narrower
        assertThat(Stats.tCritical(1000)).isEqualTo(1.960);
    }
}
