package io.threadlab.experiment.predict;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.Point;
import io.threadlab.experiment.testing.CalibratedRunFixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The machine's term of the capacity model: the calibration taken to its median speed, a forecast to another's. */
class MachineSpeedTest {

    private static Level level(double cpuMs, double yardstickUs) {
        return new Level(300, 10, 200, 80, 6000, cpuMs, 40, 330, 0.5, Double.NaN, Double.NaN, yardstickUs);
    }

    @Test
    void eachLevelIsTakenToTheCalibrationsMedianSpeed() {
        List<Level> levels = List.of(level(0.080, 1000), level(0.090, 1100), level(0.120, 1500));
        MachineSpeed machine = MachineSpeed.of(levels);
        assertThat(machine.calibratedUs()).isEqualTo(1100);
        assertThat(machine.atCalibration(levels.get(1)).cpuMs()).as("the median's own level").isEqualTo(0.090);
        assertThat(machine.atCalibration(levels.get(2)).cpuMs()).as("a level on a machine 1.36× slower")
                .isCloseTo(0.120 * Math.pow(1100 / 1500.0, MachineSpeed.ELASTICITY), within(1e-12)).isLessThan(0.105);
        assertThat(machine.atCalibration(level(0.1, Double.NaN)).cpuMs()).as("a level not timed").isEqualTo(0.1);
    }

    @Test
    void aForecastForASlowerMachineCostsARequestMoreAndSaysSo() {
        MachineSpeed calibrated = MachineSpeed.of(List.of(level(0.08, 1073), level(0.09, 1073)));
        MachineSpeed slower = calibrated.forMachine(1298.0);
        assertThat(slower.factor()).isCloseTo(Math.pow(1298 / 1073.0, 0.57), within(1e-12)).isCloseTo(1.115,
                within(0.001));
        assertThat(slower.note()).hasValueSatisfying(n -> assertThat(n).startsWith("the machine slower than in the"
                + " calibration (its fixed piece of work 1,298 CPU-µs against 1,073): a request's CPU taken as 1.11×"));
        assertThat(calibrated.forMachine(null).factor()).as("no speed given: the calibration's").isEqualTo(1);
        assertThat(calibrated.forMachine(null).note()).isEmpty();
        assertThat(MachineSpeed.of(List.of(level(0.08, Double.NaN))).forMachine(1298.0).factor())
                .as("a calibration not timed is not scaled").isEqualTo(1);
    }

    @Test
    void theModelsCpuCeilingFollowsTheMachine(@TempDir Path dir) throws CannotPredict {
        // a recorded calibration, every window timed at 1,100 µs: a CPU-bound point for a machine 1.2× slower
        CalibratedRun run = CalibratedRun.read(CalibratedRunFixture.calibrated(dir, results -> results.withArray(
                "windows").forEach(w -> ((ObjectNode) w.get("instruments")).put("yardstick_us", 1100.0))));
        Point at = run.calibrated("reactive").windows().getFirst().at().with(Axis.USERS, 500);
        Forecast same = run.forecast("reactive", at).orElseThrow();
        assertThat(same.binding()).isEqualTo(Ceiling.CPU);
        Forecast slower = run.forecast("reactive", at, 1320.0).orElseThrow();
        // each request dearer by 1.2^0.57; fewer served leave a few more waiting, which the curve makes a little cheaper
        assertThat(slower.ceilings().get(Ceiling.CPU) / same.ceilings().get(Ceiling.CPU))
                .isCloseTo(Math.pow(1.2, -MachineSpeed.ELASTICITY), within(0.005));
        assertThat(slower.machineUs()).isEqualTo(1320.0);
        assertThat(slower.notes()).anyMatch(n -> n.startsWith("the machine slower than in the calibration"));
        assertThat(run.forecast("reactive", at, 1100.0).orElseThrow().rps()).as("the calibration's own speed")
                .isEqualTo(same.rps());
    }
}
