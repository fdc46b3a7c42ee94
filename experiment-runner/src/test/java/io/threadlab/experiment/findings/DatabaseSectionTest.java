package io.threadlab.experiment.findings;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A database run's ratios as the page writes them, from published runs: not a finding where a compiler had not
 * finished when its JVM's warm-up gave up (database-jpa-3's imperative JVMs), as the run's own report says.
 */
class DatabaseSectionTest {

    private static final Path FINDINGS = Path.of("..", "findings").toAbsolutePath().normalize();

    @TempDir
    Path findings;

    private void publish(String name) throws IOException {
        Path dir = Files.createDirectories(findings.resolve(name));
        for (String file : List.of("manifest.json", "results.json", "analysis.json")) {
            Path from = FINDINGS.resolve(name).resolve(file);
            if (Files.exists(from)) {
                Files.copy(from, dir.resolve(file));
            }
        }
    }

    @Test
    void aRatioOfAJvmWhoseCompilerHadNotFinishedIsNotAFinding() throws IOException {
        publish("database-jpa-2");
        publish("database-jpa-3");
        List<DatabaseSection.Run> runs = DatabaseSection.of(PublishedRun.readAll(findings));
        assertThat(runs).hasSize(2);
        assertThat(runs.getFirst().run()).contains("database-jpa-2");
        assertThat(runs.getFirst().ratios()).isNotEmpty().allSatisfy(r -> assertThat(r.notAFinding()).isEmpty());
        // every ratio of this run is over the imperative JVMs, neither of whose compilers finished
        assertThat(runs.get(1).ratios()).isNotEmpty().allSatisfy(r -> assertThat(r.notAFinding())
                .startsWith("not a finding: a compiler had not finished"));
    }
}
