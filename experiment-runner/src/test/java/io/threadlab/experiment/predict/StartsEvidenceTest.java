package io.threadlab.experiment.predict;

import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.testing.Windows;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Each window read off another JVM start's window at the same point, at one machine speed. */
class StartsEvidenceTest {

    @Test
    void eachWindowIsReadOffEveryOtherStartsWindowAtItsPointBothWays() {
        // 500 users: start 2 is 10 % dearer at one speed (within 15 % both ways); 100 users: start 2 is 20 % dearer,
        // but on a piece 1.3x slower, which explains 1.3^0.57 = 1.16 of it (1.03 left: within); virtual threads at
        // 500: start 2 is 30 % dearer (outside both ways)
        List<WindowResult> run = List.of(
                Windows.closed("reactive", 500, 3000).jvm(1).cpuMs(0.100).yardstick(1000).build(),
                Windows.closed("reactive", 500, 3000).jvm(2).cpuMs(0.110).yardstick(1000).build(),
                Windows.closed("reactive", 100, 3000).jvm(1).cpuMs(0.100).yardstick(1000).build(),
                Windows.closed("reactive", 100, 3000).jvm(2).cpuMs(0.120).yardstick(1300).build(),
                Windows.closed("virtual-thread", 500, 3000).jvm(1).cpuMs(0.100).yardstick(1000).build(),
                Windows.closed("virtual-thread", 500, 3000).jvm(2).cpuMs(0.130).yardstick(1000).build(),
                // one start's second repetition, a calibration window, a recorded twin: none is another start's
                Windows.closed("reactive", 500, 3000).jvm(1).repetition(2).cpuMs(0.300).yardstick(1000).build(),
                Windows.closed("reactive", 700, 3000).jvm(1).calibration().cpuMs(0.300).yardstick(1000).build(),
                Windows.closed("reactive", 500, 3000).jvm(2).recorded().cpuMs(0.300).yardstick(1000).build());
        StartsEvidence evidence = StartsEvidence.of(Map.of("run", run));
        // reactive 500: 3 windows of starts 1 (two) and 2 (one): 2 x 1 readings each way = 4; 100: 2; vt: 2
        assertThat(evidence.readings()).isEqualTo(8);
        // the repetition at 0.300 is 2.7x start 2's: its two readings fall outside, with the virtual threads' two
        assertThat(evidence.within()).isEqualTo(4);
        assertThat(evidence.share()).isEqualTo(0.5);
        assertThat(evidence.runs()).isEqualTo(1);
    }

    @Test
    void aPointOfOneJvmStartIsNoReading() {
        StartsEvidence none = StartsEvidence.of(Map.of("run", List.of(
                Windows.closed("reactive", 500, 3000).jvm(1).cpuMs(0.100).yardstick(1000).build(),
                Windows.closed("reactive", 500, 3000).jvm(1).repetition(2).cpuMs(0.110).yardstick(1000).build())));
        assertThat(none.readings()).isZero();
        assertThat(none.share()).isNaN();
    }
}
