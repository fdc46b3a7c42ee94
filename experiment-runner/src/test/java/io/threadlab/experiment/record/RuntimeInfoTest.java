package io.threadlab.experiment.record;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class RuntimeInfoTest {

    private static final Map<String, Object> AT_THE_QUOTA = Map.of("availableProcessors", 1, "eventLoops", 2,
            "workerPoolMax", 200, "carrierParallelism", 1, "maxHeapBytes", 536_870_912,
            "garbageCollectors", List.of("Copy", "MarkSweepCompact"), "uptimeMillis", 4_000,
            "jvmArguments", List.of("-Xmx512m"));

    @Test
    void listsExactlyTheErgonomicFactsThatChangedWithBeforeAndAfter() {
        Map<String, Object> after = new HashMap<>(AT_THE_QUOTA);
        after.put("availableProcessors", 2);
        after.put("carrierParallelism", 2);
        after.put("uptimeMillis", 95_000); // not an ergonomic fact: time passes
        assertThat(RuntimeInfo.ergonomicsChanged(AT_THE_QUOTA, after))
                .containsExactly("availableProcessors: 1 -> 2", "carrierParallelism: 1 -> 2");
    }

    @Test
    void nothingChangedWhenOnlyOtherFactsDiffer() {
        Map<String, Object> after = new HashMap<>(AT_THE_QUOTA);
        after.put("uptimeMillis", 95_000);
        after.put("jvmArguments", List.of("-Xmx512m", "-Dsomething"));
        assertThat(RuntimeInfo.ergonomicsChanged(AT_THE_QUOTA, after)).isEmpty();
    }

    @Test
    void theHeapsReportedMaximumIsNotJudgedForTheCollectorResizesItsSurvivorSpaces() {
        Map<String, Object> after = new HashMap<>(AT_THE_QUOTA);
        after.put("maxHeapBytes", 506_462_208);
        assertThat(RuntimeInfo.ergonomicsChanged(AT_THE_QUOTA, after)).isEmpty();
        after.put("eventLoops", 4);
        assertThat(RuntimeInfo.ergonomicsChanged(AT_THE_QUOTA, after)).containsExactly("eventLoops: 2 -> 4");
    }

    @Test
    void aFactThatDisappearedIsAChange() {
        Map<String, Object> after = new HashMap<>(AT_THE_QUOTA);
        after.remove("garbageCollectors");
        assertThat(RuntimeInfo.ergonomicsChanged(AT_THE_QUOTA, after))
                .containsExactly("garbageCollectors: [Copy, MarkSweepCompact] -> null");
    }
}
