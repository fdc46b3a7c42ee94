package io.threadlab.experiment.load;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class JvmGaugesTest {

    private static final String METRICS = """
            # HELP jvm_memory_used_bytes The amount of used memory
            # TYPE jvm_memory_used_bytes gauge
            jvm_memory_used_bytes{area="heap",id="eden space"} 1.0E7
            jvm_memory_used_bytes{area="heap",id="tenured generation"} 3.0E7
            jvm_memory_used_bytes{area="nonheap",id="Metaspace"} 5.0E7
            # TYPE jvm_gc_live_data_size_bytes gauge
            jvm_gc_live_data_size_bytes 2.5E7
            # TYPE jvm_threads_live_threads gauge
            jvm_threads_live_threads 31.0
            jvm_threads_live_threads_total 99.0
            """;

    @Test
    void aGaugeIsTheSumOfItsSeriesAndNothingThatOnlyStartsLikeIt() {
        assertThat(JvmGauges.value(METRICS, "jvm_threads_live_threads")).isEqualTo(31.0);
        assertThat(JvmGauges.value(METRICS, "jvm_gc_live_data_size_bytes")).isEqualTo(2.5e7);
        assertThat(JvmGauges.value(METRICS, "jvm_memory_used_bytes")).isEqualTo(9.0e7);
    }

    @Test
    void heapUsedCountsTheHeapPoolsOnly() {
        assertThat(JvmGauges.heapUsed(METRICS)).isEqualTo(4.0e7);
    }

    @Test
    void aGaugeTheServiceDoesNotPublishIsNull() {
        assertThat(JvmGauges.value(METRICS, "jvm_buffer_count_buffers")).isNull();
        assertThat(JvmGauges.heapUsed("jvm_threads_live_threads 31.0\n")).isNull();
    }
}
