package io.threadlab.experiment.record;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class RecordParsingTest {

    @Test
    void theDelayServicesMeanServedWaitComesFromTwoScrapes() {
        var before = DelayHeadroom.read("delay_served_seconds_count 100.0\ndelay_served_seconds_sum 1.05\n", 0);
        var after = DelayHeadroom.read("""
                delay_served_seconds_bucket{le="0.01"} 10
                delay_served_seconds_count 300.0
                delay_served_seconds_sum 3.25
                """, 1_000_000_000L);
        assertThat(DelayHeadroom.meanServedMs(before, after)).isCloseTo(11.0, within(1e-9));
        assertThat(DelayHeadroom.meanServedMs(after, after)).isNaN();
        assertThat(after.count()).isEqualTo(300.0);
        assertThat(after.nanos()).as("when the scrape was answered").isEqualTo(1_000_000_000L);
    }
}
