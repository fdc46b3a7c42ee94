package io.threadlab.experiment;

import io.threadlab.experiment.collect.Json;
import io.threadlab.experiment.collect.RunRecord;
import io.threadlab.experiment.report.Report;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code ./experiment report} on a results directory it cannot read: it fails, and says which file and which field,
 * in the words of the reader of the results ({@link RunRecord}), unchanged.
 */
class ReportCommandTest {

    @TempDir
    Path dir;

    @Test
    void aMissingFileIsNamed() throws IOException {
        Json.write(dir.resolve("results.json"), Map.of("windows", List.of()));
        assertRefusedNaming(dir.resolve("manifest.json") + " is missing");
    }

    @Test
    void aMalformedFieldIsNamedWithItsFile() throws IOException {
        Json.write(dir.resolve("manifest.json"), Map.of("plan", Map.of("variants", List.of("imperative"))));
        Json.write(dir.resolve("results.json"), Map.of("windows", List.of(Map.of("variant", "imperative",
                "scenario", "closed-100", "repetition", "three"))));
        assertRefusedNaming(dir.resolve("results.json") + ": field 'windows[0].repetition'");
    }

    @Test
    void aMalformedAnalysisIsNamedToo() throws IOException {
        Json.write(dir.resolve("manifest.json"), Map.of("plan", Map.of("variants", List.of("imperative"))));
        Json.write(dir.resolve("results.json"), Map.of("windows", List.of()));
        Files.writeString(dir.resolve("analysis.json"), "{\"recordings\": [{\"seconds\": \"long\"}]}");
        assertRefusedNaming(dir.resolve("analysis.json") + ": field 'recordings[0].seconds'");
    }

    /** The report and the command fail with the reader's own message, which names the file and the field. */
    private void assertRefusedNaming(String fileAndField) {
        assertThatThrownBy(() -> Report.write(dir)).isInstanceOf(IOException.class).hasMessageContaining(fileAndField);
        String message = readersMessage();
        PrintStream err = System.err;
        ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
        int exit;
        try {
            System.setErr(new PrintStream(errBytes, true, StandardCharsets.UTF_8));
            exit = ExperimentCommand.execute("report", dir.toString());
        } finally {
            System.setErr(err);
        }
        assertThat(exit).isEqualTo(1);
        assertThat(errBytes.toString(StandardCharsets.UTF_8)).isEqualTo("experiment report: " + message
                + System.lineSeparator());
        assertThat(dir.resolve("report.md")).doesNotExist();
    }

    private String readersMessage() {
        try {
            Report.write(dir);
            throw new AssertionError("the report was written");
        } catch (IOException e) {
            return e.getMessage();
        }
    }
}
