package io.threadlab.experiment.report;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class PrecisionTest {

    @Test
    void aheadInEveryPairOfThreeJvmStartsEachIsTheMostThreeCanSay() {
        Precision.Direction d = Precision.direction(List.of(6.1, 6.3, 6.2), List.of(4.0, 4.4, 4.2));
        assertThat(d.ahead()).isEqualTo(9);
        assertThat(d.pairs()).isEqualTo(9);
        // 2 of the C(6,3) = 20 assignments are as lopsided (all ahead, or all behind): p = 0.1
        assertThat(d.p()).isCloseTo(0.1, within(1e-12));
        assertThat(d.words("virtual-thread", "imperative"))
                .isEqualTo("virtual-thread ahead in 9 of 9 pairs of JVM starts (exact p = 0.100)");
    }

    @Test
    void aMixedSplitIsNotDecided() {
        Precision.Direction d = Precision.direction(List.of(5.0, 6.0), List.of(5.5, 5.8));
        assertThat(d.ahead()).isEqualTo(2); // 6.0 > 5.5, 6.0 > 5.8
        assertThat(d.p()).isEqualTo(1.0);
        assertThat(d.words("a", "b")).startsWith("a ahead in 2 of 4");
    }

    @Test
    void whatItWouldTakeNarrowsAsTOfBothSidesStartsOverTheirRoot() {
        // 1.10x with 95 % interval 0.90-1.34 from 2 JVM starts of each: the pooled spread between JVM means,
        // held, decides it later; k starts of each give t(2k - 2) * sd * sqrt(2 / k)
        Stats.Ratio ratio = new Stats.Ratio(1.10, 0.90, 1.344, 4, Stats.Method.POOLED);
        Precision.Need need = Precision.toDecide(ratio, 2, 0.10, 6, 40).orElseThrow();
        double spread = (Math.log(1.344) - Math.log(0.90)) / 2 / (Stats.tCritical(2) * Math.sqrt(2.0 / 2));
        int k = need.jvmStarts();
        double h = Stats.tCritical(2 * k - 2) * spread * Math.sqrt(2.0 / k);
        assertThat(h).isLessThan(Math.log(1.10));
        double hBefore = Stats.tCritical(2 * k - 4) * spread * Math.sqrt(2.0 / (k - 1));
        assertThat(hBefore >= Math.log(1.10) || Math.exp(hBefore) - 1 > 0.10).isTrue();
        assertThat(need.minutes()).isCloseTo((need.jvmStarts() - 2) * 6.0, within(1e-9));
        assertThat(need.words(2)).contains("more");
        // one JVM start: the spread between starts is unknown
        assertThat(Precision.toDecide(ratio, 1, 0.10, 6, 40)).isEmpty();
    }
}
