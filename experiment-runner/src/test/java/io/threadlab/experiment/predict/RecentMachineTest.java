package io.threadlab.experiment.predict;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The speed a forecast is made for: the median of the last five windows timed. */
class RecentMachineTest {

    @Test
    void nothingTimedYetIsTheCalibrationsSpeed() {
        RecentMachine machine = new RecentMachine();
        assertThat(machine.speed()).isNull();
        machine.measured(null);
        assertThat(machine.speed()).as("a window not timed is not counted").isNull();
    }

    @Test
    void oneSlowWindowAmongFiveDoesNotMoveIt() {
        RecentMachine machine = new RecentMachine();
        for (double us : new double[] {1100, 1120, 1800, 1090, 1110}) {
            machine.measured(us);
        }
        assertThat(machine.speed()).isEqualTo(1110);
    }

    @Test
    void aMachineSlowerForLongerThanTheLastFiveIsTheOneItIsFor() {
        RecentMachine machine = new RecentMachine();
        for (double us : new double[] {1000, 1000, 1000, 1300, 1310, 1290, 1305, 1295}) {
            machine.measured(us);
        }
        assertThat(machine.speed()).as("the first three have left").isEqualTo(1300);
        machine.measured(1200.0);
        assertThat(machine.speed()).as("five kept, the oldest gone").isEqualTo(1295);
    }
}
