package io.threadlab.experiment.load;

import io.threadlab.experiment.collect.WindowResult;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

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

    /** Serial's young collector ("Copy") at two causes, its full one ("MarkSweepCompact"), and the max series. */
    private static final String PAUSES = """
            jvm_gc_pause_seconds_count{action="end of minor GC",cause="Allocation Failure",gc="Copy"} 51.0
            jvm_gc_pause_seconds_sum{action="end of minor GC",cause="Allocation Failure",gc="Copy"} 12.428
            jvm_gc_pause_seconds_count{action="end of minor GC",cause="GCLocker Initiated GC",gc="Copy"} 2.0
            jvm_gc_pause_seconds_sum{action="end of minor GC",cause="GCLocker Initiated GC",gc="Copy"} 0.072
            jvm_gc_pause_seconds_count{action="end of major GC",cause="Metadata GC Threshold",gc="MarkSweepCompact"} 1.0
            jvm_gc_pause_seconds_sum{action="end of major GC",cause="Metadata GC Threshold",gc="MarkSweepCompact"} 0.216
            jvm_gc_pause_seconds_max{action="end of major GC",cause="Metadata GC Threshold",gc="MarkSweepCompact"} 0.9
            """;

    @Test
    void theCollectorsPausesAreSummedOverCausesYoungApartFromFull() {
        WindowResult.Gc gc = JvmGauges.gcPauses(PAUSES);
        assertThat(gc.minorCollections()).isEqualTo(53);
        assertThat(gc.minorPauseSeconds()).isCloseTo(12.5, within(1e-9));
        assertThat(gc.majorCollections()).isEqualTo(1);
        assertThat(gc.majorPauseSeconds()).isCloseTo(0.216, within(1e-9));
        assertThat(gc.promotedMb()).as("not published here: unknown, not zero").isNull();
    }

    @Test
    void whatTheYoungCollectionsPromotedIsReadInMegabytesAndDifferencedOverTheWindow() {
        String before = PAUSES + "jvm_gc_memory_promoted_bytes_total 2.5E8\n";
        String after = PAUSES.replace("} 51.0", "} 61.0") + "jvm_gc_memory_promoted_bytes_total 7.36E8\n";
        WindowResult.Gc window = JvmGauges.gcPauses(after).since(JvmGauges.gcPauses(before));
        assertThat(window.minorCollections()).isEqualTo(10);
        assertThat(window.promotedMb()).isCloseTo(486, within(1e-9));
        assertThat(window.promotedMbPerSecond(6)).isCloseTo(81, within(1e-9));
        assertThat(window.since(JvmGauges.gcPauses(PAUSES)).promotedMb()).as("one reading unknown").isNull();
    }

    /** Serial's three heap pools as a variant's Micrometer named them at 512 MB (far-heap-512m's, at 3,000 users). */
    private static final String POOLS = """
            jvm_memory_used_bytes{area="heap",id="Eden Space"} 2.050204E7
            jvm_memory_used_bytes{area="heap",id="Survivor Space"} 1.7891328E7
            jvm_memory_used_bytes{area="heap",id="Tenured Gen"} 2.68500712E8
            jvm_memory_used_bytes{area="nonheap",id="Metaspace"} 5.0E7
            jvm_memory_max_bytes{area="heap",id="Eden Space"} 1.43130624E8
            jvm_memory_max_bytes{area="heap",id="Survivor Space"} 1.7891328E7
            jvm_memory_max_bytes{area="heap",id="Tenured Gen"} 3.57957632E8
            """;

    @Test
    void theSurvivorSpaceIsReadAtTheWindowsEndNotDifferenced() {
        String survivor = "jvm_memory_used_bytes{area=\"heap\",id=\"Survivor Space\"} ";
        String before = PAUSES + POOLS.replace(survivor + "1.7891328E7", survivor + "4.0E6");
        WindowResult.Gc window = JvmGauges.gcPauses(PAUSES + POOLS).since(JvmGauges.gcPauses(before));
        assertThat(JvmGauges.gcPauses(before).survivorMb()).isCloseTo(4.0, within(1e-9));
        assertThat(window.survivorMb()).isCloseTo(17.891328, within(1e-9));
        assertThat(window.survivorMaxMb()).isCloseTo(17.891328, within(1e-9));
        // G1 names its pool "G1 Survivor Space" and gives it no maximum (-1): the size is unknown, not negative
        String g1 = PAUSES + """
                jvm_memory_used_bytes{area="heap",id="G1 Survivor Space"} 3.0E6
                jvm_memory_max_bytes{area="heap",id="G1 Survivor Space"} -1.0
                """;
        assertThat(JvmGauges.gcPauses(g1).survivorMb()).isCloseTo(3.0, within(1e-9));
        assertThat(JvmGauges.gcPauses(g1).survivorMaxMb()).isNull();
        assertThat(JvmGauges.gcPauses(PAUSES).survivorMb()).as("not published here: unknown").isNull();
    }

    @Test
    void aServiceThatPublishesNoPausesHasNoneRatherThanZero() {
        assertThat(JvmGauges.gcPauses(METRICS)).isNull();
        assertThat(JvmGauges.gcPauses("")).isNull();
    }
}
