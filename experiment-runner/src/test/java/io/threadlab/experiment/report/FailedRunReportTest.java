package io.threadlab.experiment.report;

import io.threadlab.experiment.collect.ResultsWriter;
import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.testing.Windows;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A run whose every request failed (the downstream down: 502s) has no CPU per request to draw: its report is still
 * written, without that chart, and says the errors. XChart threw NoSuchElementException on a series of NaNs.
 */
class FailedRunReportTest {

    @Test
    void aRunWithoutOneServedRequestIsReportedWithoutItsCpuChart(@TempDir Path dir) throws IOException {
        try (InputStream in = getClass().getResourceAsStream("/golden/run-4fa4b52-2x2/manifest.json")) {
            Files.copy(in, dir.resolve("manifest.json"));
        }
        ResultsWriter results = new ResultsWriter(dir);
        List<WindowResult> failed = List.of("imperative", "reactive").stream().map(v -> Windows.closed(v, 50, 900)
                .cpuMs(Double.NaN).errors(9_000, Map.of("502", 9_000L)).build()).toList();
        failed.forEach(results::add);
        String report = Files.readString(Report.write(dir).markdown());
        assertThat(report).doesNotContain("cpu-per-request").contains("throughput-");
    }
}
