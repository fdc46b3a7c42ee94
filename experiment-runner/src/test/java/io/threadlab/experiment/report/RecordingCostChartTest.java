package io.threadlab.experiment.report;

import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.testing.Windows;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The recording's cost as a chart where one variant was not recorded at every point (fanout-4: the worker variant
 * runs no parallel fan-out at as many users as it has workers, so it has no twin there): XChart threw on series of
 * unequal categories and the report was not written.
 */
class RecordingCostChartTest {

    @TempDir
    Path dir;

    @Test
    void aPointOnlySomeVariantsWereRecordedAtIsLeftOutOfTheChartNotOfTheReport() throws IOException {
        // the variant with fewer points first: XChart takes the categories from the first series
        List<WindowResult> windows = List.of(
                Windows.closed("imperative", 100, 1500).build(),
                Windows.closed("imperative", 100, 1450).recorded().build(),
                Windows.closed("reactive", 100, 3000).build(),
                Windows.closed("reactive", 100, 2900).recorded().build(),
                Windows.closed("reactive", 500, 4000).build(),
                Windows.closed("reactive", 500, 3900).recorded().build());
        SmallRuns.write(dir, windows, List.of(), Map.of(), null);
        assertThat(new Ratios(Run.read(dir)).recordingCosts()).containsOnlyKeys("imperative", "reactive")
                .satisfies(costs -> assertThat(costs.get("reactive")).hasSize(2))
                .satisfies(costs -> assertThat(costs.get("imperative")).hasSize(1));

        Report.write(dir);

        assertThat(dir.resolve("charts/jfr-overhead.svg")).isNotEmptyFile();
        assertThat(Files.readString(dir.resolve("report.html"))).contains("id=\"chart-jfr-overhead\"");
    }
}
