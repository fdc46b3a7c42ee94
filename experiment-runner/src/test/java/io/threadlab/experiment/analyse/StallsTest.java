package io.threadlab.experiment.analyse;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Stalls found in per-second series measured by the lab. */
class StallsTest {

    @Test
    void aShortDropIsAStall() {
        assertThat(Stalls.find(List.of(2000.0, 2100.0, 10.0, 1900.0, 2000.0), 100)).singleElement()
                .satisfies(s -> {
                    assertThat(s.firstSecond()).isEqualTo(2);
                    assertThat(s.seconds()).isEqualTo(1);
                    assertThat(s.steadyRate()).isEqualTo(2000.0);
                });
    }

    @Test
    void aStallThatFillsMostOfTheWindowIsFoundAgainstTheBestSeconds() {
        // imperative-10ms-closed-500-jfr-7 of results/2026-11-23T16-41-12Z: its median (63) lies inside the stall
        List<Double> perSecond = List.of(3680.8, 3532.2, 74.9, 18.0, 10.0, 76.0, 14.0, 0.0, 125.1, 51.0);
        assertThat(Stalls.find(perSecond, 500)).singleElement().satisfies(s -> {
            assertThat(s.firstSecond()).isEqualTo(2);
            assertThat(s.seconds()).isEqualTo(8);
            assertThat(s.steadyRate()).isEqualTo(3680.8 / 2);
        });
    }

    @Test
    void aSteadyWindowsWorstSecondIsNoStall() {
        // the most uneven imperative window of the same run that did not stall
        List<Double> perSecond = List.of(2558.7, 5349.2, 5727.8, 5158.9, 4734.2, 5424.0, 5173.7, 5357.5, 4348.0, 4460.0);
        assertThat(Stalls.find(perSecond, 500)).isEmpty();
        assertThat(Stalls.steadyRate(perSecond)).as("the median, not half the best").isEqualTo((5158.9 + 5173.7) / 2);
    }

    @Test
    void secondsK6CountedLateAreNoStall() {
        // k6 starved of CPU at 3,000 users: 3 seconds at 0, then all their requests in one
        List<Double> late = List.of(13_000.0, 0.0, 0.0, 0.0, 52_000.0, 13_000.0);
        assertThat(Stalls.find(late, 3000)).isEmpty();
        assertThat(Stalls.countedInTime(late, 3000)).containsExactly(13_000.0, 13_000.0, 13_000.0, 13_000.0,
                13_000.0, 13_000.0);
        // the same seconds where the users are not known (the open model): a stall, as before
        assertThat(Stalls.find(late, null)).isNotEmpty();
    }

    @Test
    void aStallsReleaseIsStillAStall() {
        // 500 users held 2 s, then answered on top of the steady 5,000 req/s: all they can add, so a real stall
        List<Double> released = List.of(5000.0, 5000.0, 0.0, 0.0, 5500.0, 5000.0);
        assertThat(Stalls.find(released, 500)).singleElement().satisfies(s -> {
            assertThat(s.firstSecond()).isEqualTo(2);
            assertThat(s.seconds()).isEqualTo(2);
        });
        assertThat(Stalls.countedInTime(released, 500)).isEqualTo(released);
    }
}
