package io.threadlab.experiment.predict;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.Point;
import io.threadlab.experiment.testing.CalibratedRunFixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Iterator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * A window of another run is another JVM start: its forecast's CPU error takes in how far the calibrating run's own
 * starts differed at the same point, at one machine speed.
 */
class JvmStartsTest {

    /** Every measured window of reactive costs 0.060 CPU-ms on JVM start 1 and {@code second} on start 2. */
    private static Path run(Path dir, double second, double secondUs) {
        return CalibratedRunFixture.calibrated(dir, results -> results.withArray("windows").forEach(w -> {
            JsonNode window = w.get("window");
            if (!window.get("variant").asText().equals("reactive") || "calibration".equals(window.get("role")
                    .asText())) {
                return;
            }
            boolean first = window.get("jvm").asInt() == 1;
            ObjectNode cpu = (ObjectNode) w.get("cpu");
            cpu.put("cpu_ms_per_request", first ? 0.060 : second);
            ((ObjectNode) w.get("instruments")).put("yardstick_us", first ? 1000.0 : secondUs);
        }));
    }

    @Test
    void theWidestLogRatioBetweenStartsAtOnePointAndOneMachineSpeed(@TempDir Path a, @TempDir Path b)
            throws CannotPredict {
        JvmStarts same = CalibratedRun.read(run(a, 0.072, 1000)).starts("reactive");
        assertThat(same.points()).as("100 and 500 users, each measured by both starts").isEqualTo(2);
        assertThat(same.spread()).isCloseTo(Math.log(1.2), within(1e-9));
        // start 2 on a machine 10 % slower: part of its dearer requests is the machine's, not the JVM's
        JvmStarts slower = CalibratedRun.read(run(b, 0.072, 1100)).starts("reactive");
        assertThat(slower.spread()).isCloseTo(Math.log(1.2) - MachineSpeed.ELASTICITY * Math.log(1.1),
                within(1e-9));
    }

    @Test
    void anotherRunsWindowWhereTheCpuBindsStatesTheStartsSpreadToo(@TempDir Path dir) throws CannotPredict {
        CalibratedRun run = CalibratedRun.read(run(dir, 0.072, 1000));
        Point at = run.calibrated("reactive").windows().getFirst().at().with(Axis.USERS, 500);
        Forecast own = run.forecast("reactive", at).orElseThrow();
        Forecast other = run.forAnotherRun("reactive", at, null).orElseThrow();
        assertThat(own.binding()).isEqualTo(Ceiling.CPU);
        assertThat(other.rps()).as("the prediction itself stays").isEqualTo(own.rps());
        assertThat(other.expectedError()).isCloseTo(Math.hypot(own.expectedError(), Math.log(1.2)), within(1e-9));
        assertThat(other.interval().low()).isLessThan(own.interval().low());
        assertThat(other.notes()).anyMatch(n -> n.startsWith("another JVM start than the calibrated one: the run's own"
                + " starts of this variant differed by up to 20 %"));
    }

    @Test
    void aRunWithOneStartAPointEarnsNothing(@TempDir Path dir) throws CannotPredict {
        Path one = CalibratedRunFixture.calibrated(dir, results -> {
            Iterator<JsonNode> windows = results.withArray("windows").elements();
            while (windows.hasNext()) {
                JsonNode w = windows.next().get("window");
                if (w.get("variant").asText().equals("reactive") && w.get("jvm").asInt() > 1) {
                    windows.remove();
                }
            }
        });
        CalibratedRun run = CalibratedRun.read(one);
        assertThat(run.starts("reactive").points()).isZero();
        Point at = run.calibrated("reactive").windows().getFirst().at().with(Axis.USERS, 500);
        assertThat(run.forAnotherRun("reactive", at, null).orElseThrow())
                .isEqualTo(run.forecast("reactive", at).orElseThrow());
    }

    @Test
    void whereASlotBindsFarBelowTheCpuItsErrorStays(@TempDir Path dir) throws CannotPredict {
        CalibratedRun run = CalibratedRun.read(run(dir, 0.072, 1000));
        // 100 users at 300 ms: the users' ceiling (about 330 req/s), the CPU's far above
        Point at = run.calibrated("reactive").windows().getFirst().at().with(Axis.USERS, 100)
                .with(Axis.DELAY_MS, 300);
        Forecast own = run.forecast("reactive", at).orElseThrow();
        Forecast other = run.forAnotherRun("reactive", at, null).orElseThrow();
        assertThat(own.binding()).isEqualTo(Ceiling.USERS);
        assertThat(other.expectedError()).isEqualTo(own.expectedError());
        assertThat(other.notes()).anyMatch(n -> n.contains("differed by up to 20 %") && !n.contains("takes in"));
    }
}
