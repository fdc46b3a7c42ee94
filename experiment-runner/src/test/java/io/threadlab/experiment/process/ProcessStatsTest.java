package io.threadlab.experiment.process;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ProcessStatsTest {

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
}
