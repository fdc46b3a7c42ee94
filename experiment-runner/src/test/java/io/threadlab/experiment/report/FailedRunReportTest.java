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

    /**
     * A point one variant was not measured at (the imperative variant's parallel fan-out at as many users as workers,
     * left out of its schedule): XChart drew its category bars by position and threw past the shorter series
     * (2026-11-26, a fan-out run's report). The CPU chart keeps the points every variant has.
     */
    @Test
    void aPointOneVariantLacksIsLeftOutOfTheCpuChartNotOfTheReport(@TempDir Path dir) throws IOException {
        try (InputStream in = getClass().getResourceAsStream("/golden/run-4fa4b52-2x2/manifest.json")) {
            Files.copy(in, dir.resolve("manifest.json"));
        }
        ResultsWriter results = new ResultsWriter(dir);
        results.add(Windows.closed("imperative", 50, 900).cpuMs(0.5).build());
        results.add(Windows.closed("reactive", 50, 2000).cpuMs(0.2).build());
        results.add(Windows.closed("reactive", 200, 2500).cpuMs(0.18).build());
        Report.Written written = Report.write(dir); // threw ArrayIndexOutOfBoundsException
        assertThat(Files.readString(written.html())).contains("<svg").doesNotContain("NaN");
        assertThat(Files.readString(written.markdown())).contains("cpu-per-request");
    }
}
