package io.threadlab.experiment.predict;

import io.threadlab.experiment.testing.PublishedWindows;
import io.threadlab.experiment.testing.Windows;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * {@link MachineSpeed#ELASTICITY} is what the published runs measure ({@link MachineEvidence}): the constant must lie
 * within two standard errors of their fit, so a publication that moves the evidence away from it fails here until
 * the constant follows.
 */
class MachineElasticityTest {

    @Test
    void theConstantIsWhatThePublishedRunsMeasure() throws IOException {
        MachineEvidence evidence = MachineEvidence.of(PublishedWindows.read());
        assertThat(evidence.windows()).as("windows of one point at different machine speeds in findings/")
                .isGreaterThan(50);
        assertThat(evidence.holds(MachineSpeed.ELASTICITY)).as("published runs: %.2f ± %.2f over %d windows of %d"
                + " runs", evidence.elasticity(), evidence.standardError(), evidence.windows(), evidence.runs()).isTrue();
    }

    @Test
    void pointsMeasuredOnOneMachineSpeedSayNothing() {
        // the same point twice at one speed, and a point measured once: no spread of speeds, no fit, nothing held
        MachineEvidence none = MachineEvidence.of(Map.of("run", List.of(
                Windows.closed("reactive", 500, 6000).yardstick(1100).build(),
                Windows.closed("reactive", 500, 5800).yardstick(1100).build(),
                Windows.closed("reactive", 700, 6200).yardstick(1300).build())));
        assertThat(none.elasticity()).isNaN();
        assertThat(none.holds(MachineSpeed.ELASTICITY)).isFalse();
    }

    @Test
    void twoWindowsOfOnePointAtTwoSpeedsGiveTheirSlope() {
        // the piece 1.21x slower, the request 1.10x dearer: ln 1.10 / ln 1.21 = 0.5 exactly
        MachineEvidence one = MachineEvidence.of(Map.of("run", List.of(
                Windows.closed("reactive", 500, 6000).cpuMs(0.100).yardstick(1000).build(),
                Windows.closed("reactive", 500, 5500).cpuMs(0.110).yardstick(1210).build(),
                Windows.closed("imperative", 500, 3000).cpuMs(0.150).yardstick(1000).build(),
                Windows.closed("imperative", 500, 2700).cpuMs(0.165).yardstick(1210).build())));
        assertThat(one.elasticity()).isCloseTo(0.5, within(1e-9));
        assertThat(one.windows()).isEqualTo(4);
        assertThat(one.runs()).isEqualTo(1);
    }
}
