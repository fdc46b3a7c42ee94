package io.threadlab.experiment.record;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class RecordParsingTest {

    @Test
    void readsRssAndThreadsFromProcStatus() {
        ProcessStats stats = ProcessStats.parse("""
                Name:\tjava
                VmPeak:\t 3000000 kB
                VmRSS:\t  409600 kB
                Threads:\t223
                """);
        assertThat(stats.rssMb()).isEqualTo(400.0);
        assertThat(stats.threads()).isEqualTo(223);
        assertThat(ProcessStats.of(ProcessHandle.current().pid()).threads()).isPositive();
    }

    @Test
    void theDelayServicesMeanServedWaitComesFromTwoScrapes() {
        var before = DelayHeadroom.read("delay_served_seconds_count 100.0\ndelay_served_seconds_sum 1.05\n");
        var after = DelayHeadroom.read("""
                delay_served_seconds_bucket{le="0.01"} 10
                delay_served_seconds_count 300.0
                delay_served_seconds_sum 3.25
                """);
        assertThat(DelayHeadroom.meanServedMs(before, after)).isCloseTo(11.0, within(1e-9));
        assertThat(DelayHeadroom.meanServedMs(after, after)).isNaN();
    }
}
