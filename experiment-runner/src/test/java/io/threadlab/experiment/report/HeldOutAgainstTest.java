package io.threadlab.experiment.report;

import io.threadlab.experiment.collect.RunRecord;
import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.Downstream;
import io.threadlab.experiment.plan.Point;
import io.threadlab.experiment.predict.CalibratedRun;
import io.threadlab.experiment.report.landscape.Outcome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Another run predicted from a calibration: for the machine speed of the windows before each, where both ran on one
 * processor; at the calibration's own speed, and saying so, where they ran on two (published database-jdbc-4 and
 * database-heldout-pool20, both on Intel Xeon; the second's manifest told it ran on AMD EPYC).
 */
class HeldOutAgainstTest {

    private static final Path FINDINGS = Path.of("..", "findings").toAbsolutePath().normalize();
    private static final Point DATABASE = Point.of(Axis.DOWNSTREAM, Downstream.DB);

    @Test
    void onOneProcessorEachWindowIsPredictedForTheMachineBeforeIt() throws Exception {
        CalibratedRun from = CalibratedRun.read(FINDINGS.resolve("database-jdbc-4"), DATABASE);
        HeldOutAgainst held = HeldOutAgainst.of(from, RunRecord.read(FINDINGS.resolve("database-heldout-pool20")));
        assertThat(from.processor()).isEqualTo("Intel(R) Xeon(R) Processor");
        assertThat(held.processors()).isEmpty();
        assertThat(held.describe()).doesNotContain("Another processor");
        assertThat(held.outcomes()).isNotEmpty()
                .anyMatch(o -> o.prediction().orElseThrow().predictedMachineUs() != null);
    }

    @Test
    void onAnotherProcessorEachWindowIsPredictedAtTheCalibrationsSpeedAndTheTableSaysSo(@TempDir Path other)
            throws Exception {
        Path run = FINDINGS.resolve("database-heldout-pool20");
        for (String file : List.of("results.json", "manifest.json")) {
            String text = Files.readString(run.resolve(file));
            Files.writeString(other.resolve(file), file.equals("manifest.json") ? text.replace(
                    "\"cpu_model\" : \"Intel(R) Xeon(R) Processor\"", "\"cpu_model\" : \"AMD EPYC\"") : text);
        }
        CalibratedRun from = CalibratedRun.read(FINDINGS.resolve("database-jdbc-4"), DATABASE);
        HeldOutAgainst held = HeldOutAgainst.of(from, RunRecord.read(other));
        assertThat(held.processors()).hasValue("calibrated on Intel(R) Xeon(R) Processor, measured on AMD EPYC");
        assertThat(held.describe()).startsWith("Another processor: calibrated on Intel(R) Xeon(R) Processor,"
                + " measured on AMD EPYC.");
        List<Outcome> outcomes = held.outcomes();
        assertThat(outcomes).isNotEmpty()
                .allMatch(o -> o.prediction().orElseThrow().predictedMachineUs() == null);
    }
}
