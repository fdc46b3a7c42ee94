package io.threadlab.experiment.predict;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * A pool's ceiling earns its error where a calibration level queued for the pool with CPU to spare: its throughput
 * over the pool's size and the hold time there. A level that did not queue for it, or whose CPU bound (or could
 * have), earns nothing; without any, a window's error.
 */
class SlotErrorsTest {

    private static final double QUOTA = 0.5;
    /** 3 ms above the delay where nothing queued: at 50 ms each request holds its connection 53 ms. */
    private static final double OVERHEAD_MS = 3;

    /** A level: {@code users} at {@code delayMs}, serving {@code rps} at {@code cpuMs} a request, using {@code cores}. */
    private static Level level(int users, int delayMs, double rps, double cpuMs, double cores) {
        return new Level(users, delayMs, 0, 0, rps, cpuMs, users / rps * 1000, 300, cores, 0, 0, Double.NaN);
    }

    @Test
    void aLevelQueuedForThePoolWithCpuToSpareEarnsItsMiss() {
        double ceiling = 20 / 0.053; // 377 req/s
        SlotErrors slots = SlotErrors.of(List.of(
                level(900, 50, 300, 0.8, 0.24),          // queued for the pool, CPU to spare: 20.5 % under
                level(400, 50, 370, 0.8, 0.30),          // queued too: 1.9 % under
                level(10, 10, 760, 0.6, 0.46),           // fewer users than the pool: nothing queued for it
                level(700, 10, 900, 0.5, 0.49),          // the CPU bound: 1,000 req/s allowed, under the pool's
                level(600, 50, 360, 0.3, 0.47)),         // the pool's ceiling lowest, but the JVM used its quota
                Map.of(Ceiling.DB_POOL, 20), OVERHEAD_MS, QUOTA, CollectorPauses.NONE);
        assertThat(slots.of(Ceiling.DB_POOL)).isCloseTo(1 - 300 / ceiling, within(1e-9));
        assertThat(slots.earnedAt()).containsEntry(Ceiling.DB_POOL, 2);
        assertThat(slots.of(Ceiling.WORKERS)).as("no level queued for workers").isEqualTo(CapacityModel.LEAST_ERROR);
    }

    @Test
    void aLevelThatAgreedWithThePoolKeepsAWindowsErrorAndTheSmallestPoolQueuedForIsTheOneJudged() {
        // 200 workers and 300 connections, 1,000 users at 100 ms: the workers bind (1,942 req/s at 103 ms)
        SlotErrors slots = SlotErrors.of(List.of(level(1000, 100, 1900, 0.1, 0.19)),
                Map.of(Ceiling.WORKERS, 200, Ceiling.CONNECTIONS, 300), OVERHEAD_MS, QUOTA, CollectorPauses.NONE);
        assertThat(slots.errors()).containsOnlyKeys(Ceiling.WORKERS);
        assertThat(slots.of(Ceiling.WORKERS)).as("2 % under: a window's error is the least")
                .isEqualTo(CapacityModel.LEAST_ERROR);
    }

    @Test
    void aLevelWhoseCpuCeilingLayBelowThePoolsEarnsNothingForThePool() {
        // 0.5 CPU at 2 ms a request allows 250 req/s, under the pool's 377: the pool cannot be read here, though the
        // JVM used less than its quota in the window
        SlotErrors slots = SlotErrors.of(List.of(level(900, 50, 150, 2, 0.3)), Map.of(Ceiling.DB_POOL, 20),
                OVERHEAD_MS, QUOTA, CollectorPauses.NONE);
        assertThat(slots.errors()).isEmpty();
        assertThat(slots.of(Ceiling.DB_POOL)).isEqualTo(CapacityModel.LEAST_ERROR);
    }

    @Test
    void theMissIsReadAgainstThePoolsCeilingLessThePausesAtTheLevelsUsers() {
        // 10 % of the time paused at 900 users and 341 req/s: the pool's 377 req/s held through the pauses allow 341
        double ceiling = 20 / 0.053;
        double perRequest = 0.10 / 341 / 900;
        CollectorPauses pauses = new CollectorPauses(perRequest, 1, 900, SurvivorSpace.NONE);
        SlotErrors slots = SlotErrors.of(List.of(level(900, 50, 341, 0.8, 0.27)), Map.of(Ceiling.DB_POOL, 20),
                OVERHEAD_MS, QUOTA, pauses);
        assertThat(pauses.slotCeiling(ceiling, 900)).isCloseTo(341, within(3.0));
        assertThat(slots.errors().get(Ceiling.DB_POOL)).as("within a percent once the pauses are taken out")
                .isLessThan(0.01);
        assertThat(SlotErrors.of(List.of(level(900, 50, 341, 0.8, 0.27)), Map.of(Ceiling.DB_POOL, 20), OVERHEAD_MS,
                QUOTA, CollectorPauses.NONE).errors().get(Ceiling.DB_POOL)).as("without them, 10 % under")
                .isCloseTo(1 - 341 / ceiling, within(1e-9));
    }
}
