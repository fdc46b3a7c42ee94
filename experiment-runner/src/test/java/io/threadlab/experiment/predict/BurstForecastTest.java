package io.threadlab.experiment.predict;

import io.threadlab.experiment.plan.Variant;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** A burst's time to its last answer: the requests over what the binding ceiling allows per second. */
class BurstForecastTest {

    @Test
    void withoutACalibrationThePoolsSetTheTimeInWavesOfTheirSize() {
        // seed 004's theoretical best: 10,000 ÷ 200 workers × 50 ms
        BurstForecast workers = BurstForecast.of(Optional.empty(), 10_000, 50, Variant.Threads.WORKER, 200, 1000);
        assertThat(workers.predictedMs()).isEqualTo(2500.0);
        assertThat(workers.binding()).isEqualTo("workers");
        assertThat(workers.ceilingsMs()).containsEntry("connections", 500.0);
        assertThat(workers.slots(200, 1000)).isEqualTo(200);
        assertThat(workers.describe()).isEqualTo("2,500 ms (workers; connections 500 ms)");
        // a partial wave is a whole one: 10,001 requests take 51 waves
        assertThat(BurstForecast.of(Optional.empty(), 10_001, 50, Variant.Threads.WORKER, 200, 1000).predictedMs())
                .isEqualTo(2550.0);
        BurstForecast eventLoop = BurstForecast.of(Optional.empty(), 10_000, 1000, Variant.Threads.EVENT_LOOP, 200,
                1000);
        assertThat(eventLoop.predictedMs()).isEqualTo(10_000.0);
        assertThat(eventLoop.binding()).isEqualTo("connections");
        assertThat(eventLoop.ceilingsMs()).doesNotContainKey("workers");
    }

    @Test
    void withNoWaitAndNoCalibrationNothingIsPredicted() {
        BurstForecast none = BurstForecast.of(Optional.empty(), 10_000, 0, Variant.Threads.VIRTUAL, 200, 1000);
        assertThat(none.predictedMs()).isNull();
        assertThat(none.binding()).startsWith("not predicted");
        assertThat(none.slots(200, 1000)).isNull();
    }

    @Test
    void aCalibratedJvmsCeilingsAreTheCapacityModelsAtAsManyUsersAsRequests() {
        Forecast closed = new Forecast("reactive-jvm1", 7000, Ceiling.CPU, 1.4, Map.of(Ceiling.CPU, 7000.0,
                Ceiling.CONNECTIONS, 10_000.0, Ceiling.USERS, 1_000_000.0), 11, null, 0.08, true, 0.1, List.of(),
                0.05, Double.NaN, 0, null);
        BurstForecast burst = BurstForecast.of(Optional.of(closed), 10_000, 0, Variant.Threads.EVENT_LOOP, 200,
                1000);
        assertThat(burst.binding()).isEqualTo("CPU");
        assertThat(burst.predictedMs()).isCloseTo(10_000 / 7000.0 * 1000, within(1e-9));
        assertThat(burst.ceilingsMs()).containsEntry("connections", 1000.0).doesNotContainKey("users");
        assertThat(burst.expectedError()).isEqualTo(0.08);
        assertThat(burst.slots(200, 1000)).as("the CPU counts no pool").isNull();
    }
}
