package io.threadlab.experiment;

import io.threadlab.experiment.start.EngineTarget;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Whether k6's container shares a machine with the services, from where each engine is. */
class RigPlacementTest {

    private static EngineTarget load(String address, boolean here) {
        return new EngineTarget("tcp://" + address + ":2375", Map.of(), address, true, here, Map.of());
    }

    @Test
    void k6SharesTheServicesMachineOnlyWhereBothEnginesAreOnOneMachine() {
        assertThat(Rig.sameMachine("127.0.0.1", true, load("127.0.0.1", true))).as("both here").isTrue();
        assertThat(Rig.sameMachine("127.0.0.1", true, load("10.0.0.7", false))).as("services here").isFalse();
        assertThat(Rig.sameMachine("10.0.0.9", false, load("127.0.0.1", true))).as("load here").isFalse();
        assertThat(Rig.sameMachine("10.0.0.9", false, load("10.0.0.7", false))).as("two others").isFalse();
        assertThat(Rig.sameMachine("10.0.0.9", false, load("10.0.0.9", false))).as("one other").isTrue();
    }
}
