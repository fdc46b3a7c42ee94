package io.threadlab.experiment.predict;

import io.threadlab.experiment.collect.RunRecord;
import io.threadlab.experiment.collect.WindowResult;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link MachineSpeed#ELASTICITY} is what the published runs measure ({@link MachineEvidence}): the constant must lie
 * within two standard errors of their fit, so a publication that moves the evidence away from it fails here until
 * the constant follows.
 */
class MachineElasticityTest {

    private static final Path FINDINGS = Path.of("..", "findings").toAbsolutePath().normalize();

    @Test
    void theConstantIsWhatThePublishedRunsMeasure() throws IOException {
        Map<String, List<WindowResult>> runs = new LinkedHashMap<>();
        try (Stream<Path> dirs = Files.list(FINDINGS)) {
            for (Path run : dirs.filter(d -> Files.isRegularFile(d.resolve("results.json"))).sorted().toList()) {
                runs.put(run.getFileName().toString(), RunRecord.read(run).results().windows());
            }
        }
        MachineEvidence evidence = MachineEvidence.of(runs);
        assertThat(evidence.windows()).as("windows of one point at different machine speeds in findings/")
                .isGreaterThan(50);
        assertThat(evidence.holds(MachineSpeed.ELASTICITY)).as("published runs: %.2f ± %.2f over %d windows of %d"
                + " runs", evidence.elasticity(), evidence.standardError(), evidence.windows(), evidence.runs()).isTrue();
    }

    @Test
    void pointsMeasuredOnOneMachineSpeedSayNothing() {
        // no spread of speeds within a point: no fit, and so no constant it could hold
        assertThat(MachineEvidence.of(Map.of()).elasticity()).isNaN();
        assertThat(MachineEvidence.of(Map.of()).holds(MachineSpeed.ELASTICITY)).isFalse();
    }
}
