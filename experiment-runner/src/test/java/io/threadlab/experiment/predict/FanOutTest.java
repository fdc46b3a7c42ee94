package io.threadlab.experiment.predict;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** A worker variant's parallel calls queueing for the pool their requests hold. */
class FanOutTest {

    private static final double HOLD = 0.054;

    /**
     * fanout-1's imperative JVM (200 workers, 100 users, 54 ms a hold) served 613 req/s at 4 parallel calls and 327 at
     * 8; every worker busy and the requests' own wait as long as their calls' gives these, not 200 ÷ ((1 + N) × hold).
     */
    @Test
    void whereRequestsAndCallsQueueForWorkersARequestsWorkerWaitsForItsCallsTurn() {
        FanOut four = new FanOut(4, true);
        assertThat(four.queueWaitSeconds(200, 100, HOLD)).isCloseTo(HOLD, within(1e-12)); // (500 - 200) ÷ (400 - 100)
        assertThat(four.workersCeiling(200, 100, HOLD)).isCloseTo(100 / (3 * HOLD), within(1e-9))
                .isLessThan(200 / (5 * HOLD));
        assertThat(new FanOut(8, true).workersCeiling(200, 100, HOLD)).isCloseTo(100 / (HOLD * (1 + 14.0 / 3)),
                within(1e-9));
    }

    @Test
    void whereEveryTaskHasAWorkerOrTheCallsRunInTurnNothingQueues() {
        FanOut four = new FanOut(4, true);
        assertThat(four.queueWaitSeconds(200, 40, HOLD)).isZero(); // 200 asked of 200
        assertThat(four.workersCeiling(200, 40, HOLD)).isCloseTo(200 / (5 * HOLD), within(1e-9));
        assertThat(four.workersNote(200, 40, HOLD)).isEmpty();
        FanOut inTurn = new FanOut(4, false);
        assertThat(inTurn.workersCeiling(200, 150, HOLD)).isCloseTo(200 / (4 * HOLD), within(1e-9));
        assertThat(inTurn.mayStall(200, 300)).isFalse();
    }

    @Test
    void atAsManyUsersAsWorkersThePoolMayStallAndTheForecastSaysItDoesNotModelIt() {
        FanOut four = new FanOut(4, true);
        assertThat(four.mayStall(200, 200)).isTrue();
        assertThat(four.queueWaitSeconds(200, 200, HOLD)).isZero();
        assertThat(four.workersNote(200, 200, HOLD)).hasValueSatisfying(n -> assertThat(n)
                .contains("the pool can stall"));
    }
}
