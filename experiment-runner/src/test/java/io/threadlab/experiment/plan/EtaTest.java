package io.threadlab.experiment.plan;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The time left, against a hand-made schedule whose steps take chosen times. */
class EtaTest {

    private static final long S = 1_000_000_000L;

    // Estimates: a warm-up at one level is 4 s + 35 s boost + (10 + 4) s = 53 s; a window 2 s + 10 s + 3 s = 15 s.
    private static final Jvm JVM = new Jvm(Variant.REACTIVE, 1, 8082);
    private static final Step WARM_UP = new Step.WarmUp(JVM, List.of(100), WarmUpPolicy.boosted(2, 150, 90, false));
    private static final Step WINDOW = new Step.Measure(new Window(JVM, Point.of(Axis.DELAY_MS, 10)
            .with(Axis.USERS, 100), new Window.Closed(2, 30, 10), false, 1));
    private static final Schedule SCHEDULE = new Schedule(List.of(WARM_UP, WARM_UP, WARM_UP, WINDOW, WINDOW));

    @Test
    void atFirstTheTimeLeftIsThePlansEstimate() {
        assertThat(WARM_UP.estimatedSeconds()).isEqualTo(53);
        assertThat(WINDOW.estimatedSeconds()).isEqualTo(15);
        Eta eta = new Eta(SCHEDULE);
        eta.begin(0, 0);
        assertThat(eta.secondsLeft(0)).isEqualTo(3 * 53 + 2 * 15);
        assertThat(eta.secondsLeft(10 * S)).isEqualTo(3 * 53 + 2 * 15 - 10);
    }

    @Test
    void afterAWarmUpTookTwiceItsEstimateTheRemainingWarmUpsCountTwiceAndWindowsDoNot() {
        Eta eta = new Eta(SCHEDULE);
        eta.begin(0, 0);
        eta.begin(1, 106 * S); // the first warm-up took 106 s, twice its 53
        assertThat(eta.secondsLeft(106 * S)).isEqualTo(2 * 106 + 2 * 15);
        // 6 s into the second warm-up: 100 s of it left, then 106 s and the two windows
        assertThat(eta.secondsLeft(112 * S)).isEqualTo(100 + 106 + 2 * 15);
    }

    @Test
    void eachKindIsScaledByItsOwnRecord() {
        Eta eta = new Eta(SCHEDULE);
        eta.begin(0, 0);
        eta.begin(1, 53 * S);
        eta.begin(2, 106 * S);
        eta.begin(3, 159 * S); // warm-ups on time
        eta.begin(4, 159 * S + 30 * S); // the first window took 30 s, twice its 15
        assertThat(eta.secondsLeft(189 * S)).isEqualTo(30);
    }

    @Test
    void aStepThatOverrunsItsEstimateStillCountsAtLeastOneSecond() {
        Eta eta = new Eta(SCHEDULE);
        eta.begin(0, 0);
        eta.begin(1, 106 * S);
        // 250 s into the second warm-up, far beyond its scaled 106 s: 1 s for it, then 106 s and the two windows
        assertThat(eta.secondsLeft(356 * S)).isEqualTo(1 + 106 + 2 * 15);
        eta.begin(2, 400 * S);
        eta.begin(3, 500 * S);
        eta.begin(4, 515 * S);
        // the last window, long overdue: never "nothing left" while a step still runs
        assertThat(eta.secondsLeft(2000 * S)).isEqualTo(1);
    }

    @Test
    void nothingIsLeftWhenEveryStepIsDone() {
        Eta eta = new Eta(SCHEDULE);
        eta.begin(0, 0);
        eta.begin(5, 300 * S);
        assertThat(eta.secondsLeft(300 * S)).isZero();
        assertThat(eta.secondsLeft(900 * S)).isZero();
    }
}
