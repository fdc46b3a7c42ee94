package io.threadlab.experiment.report;

import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.FanOutMode;
import io.threadlab.experiment.testing.Windows;
import io.threadlab.experiment.collect.ResultsWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The report's fan-out section, from windows of chosen numbers: only where the run varied the calls. */
class FanOutTableTest {

    private static final WindowResult.Prediction WORKERS = new WindowResult.Prediction(30, "WORKERS", 2, 330.0, null,
            0.05, false, "t", "imperative-jvm1", Map.of(), null, null, null, null);

    /** At 100 ms and 10 users: each variant's req/s and CPU per request at 1, 4 and 16 calls in parallel. */
    static List<WindowResult> parallel(double reactiveAt1) {
        return List.of(
                window("imperative", 1, 99, 0.10, 110, null), window("imperative", 4, 80, 0.44, 130, null),
                window("imperative", 16, 30, 1.70, 400, WORKERS),
                window("reactive", 1, reactiveAt1, 0.08, 105, null), window("reactive", 4, 92, 0.40, 115, null),
                window("reactive", 16, 60, 1.28, 160, null),
                window("virtual-thread", 1, 101, 0.09, 106, null), window("virtual-thread", 4, 95, 0.36, 118, null),
                window("virtual-thread", 16, 40, 1.44, 220, null));
    }

    private static WindowResult window(String variant, int calls, double rps, double cpuMs, double p99,
                                       WindowResult.Prediction prediction) {
        return Windows.closed(variant, 10, rps).delay(100).fanOut(calls, FanOutMode.PARALLEL).cpuMs(cpuMs).p99(p99)
                .prediction(prediction).build();
    }

    private static Cell cell(WindowResult w) {
        Map<Metric, Stats.Summary> metrics = new EnumMap<>(Metric.class);
        for (Metric m : Metric.values()) {
            metrics.put(m, Stats.summarise(List.of(new Stats.Observation(m.of(w), w.jvm()))));
        }
        return new Cell(w.variant(), w.at().only(Axis.Scope.WINDOW), metrics, List.of());
    }

    private static FanOutTable.Table section(List<WindowResult> windows) {
        return FanOutTable.of(c -> windows.stream().filter(w -> w.variant().equals(c.variant())
                && w.at().only(Axis.Scope.WINDOW).equals(c.point())).toList(), windows.stream()
                .map(FanOutTableTest::cell).toList(), "imperative");
    }

    @Test
    void eachVariantAtEachNumberOfCallsWithItsRatioP99CpuPerCallAndDecidingCeiling() {
        FanOutTable.Table table = section(parallel(90));
        assertThat(table.rows()).hasSize(9);
        assertThat(table.rows()).extracting(FanOutTable.Row::calls).containsExactly(1, 1, 1, 4, 4, 4, 16, 16, 16);
        FanOutTable.Row reactive16 = table.rows().stream().filter(r -> r.variant().equals("reactive")
                && r.calls() == 16).findFirst().orElseThrow();
        assertThat(reactive16.mode()).isEqualTo("parallel");
        assertThat(reactive16.delay()).isEqualTo("100");
        assertThat(reactive16.users()).isEqualTo("10");
        assertThat(reactive16.throughput()).isEqualTo("60");
        assertThat(reactive16.ratio()).isEqualTo("2.00×"); // 60 / 30
        assertThat(reactive16.p99()).isEqualTo("160.0");
        assertThat(reactive16.cpuPerCall()).isEqualTo("0.080"); // 1.28 / 16
        assertThat(reactive16.ceiling()).isEqualTo("not predicted");
        FanOutTable.Row imperative16 = table.rows().stream().filter(r -> r.variant().equals("imperative")
                && r.calls() == 16).findFirst().orElseThrow();
        assertThat(imperative16.ceiling()).isEqualTo("workers");
        assertThat(imperative16.ratio()).isEqualTo("1.00×");
        // reactive: 0.91x at one call, 1.15x at four: a clear lag, then a clear lead; virtual threads tie at one
        // call (1.02x) and lead at four, which is no crossover
        assertThat(table.crossovers()).containsExactly(
                "100 ms, 10 users, parallel: reactive overtakes imperative between 1 and 4 calls (0.91× → 1.15×)");
    }

    @Test
    void noCrossoverIsSaidWhereTheDataShowsNone() {
        // reactive 1.01x at one call, a tie, then ahead: no crossover; nor a tie on both sides (0.99x, 1.04x)
        assertThat(section(parallel(100)).crossovers()).isEmpty();
        List<WindowResult> ties = parallel(98).stream().map(w -> w.variant().equals("imperative")
                && w.at().has(Axis.FAN_OUT) && w.at().get(Axis.FAN_OUT) == 4
                ? window("imperative", 4, 88.5, 0.44, 130, null) : w).toList();
        assertThat(section(ties).crossovers()).isEmpty();
    }

    @Test
    void aRunThatDidNotVaryTheCallsHasNoSection() {
        List<WindowResult> oneCall = parallel(90).stream().filter(w -> !w.at().has(Axis.FAN_OUT)).toList();
        assertThat(section(oneCall)).isNull();
    }

    /** The report's markdown from a run of these windows (the golden 2x2 run's manifest beside them). */
    private static String rendered(Path dir, List<WindowResult> windows) throws IOException {
        try (InputStream in = FanOutTableTest.class.getResourceAsStream("/golden/run-4fa4b52-2x2/manifest.json")) {
            Files.copy(in, dir.resolve("manifest.json"));
        }
        ResultsWriter results = new ResultsWriter(dir);
        windows.forEach(results::add);
        return Files.readString(Report.write(dir).markdown());
    }

    @Test
    void theReportHasTheSectionOnlyWhereTheCallsVaried(@TempDir Path varied, @TempDir Path oneCall)
            throws IOException {
        String report = rendered(varied, parallel(90));
        assertThat(report).contains("## Fan-out")
                .contains("| parallel | 100 | 10 | 16 | reactive | 60 | 2.00× | 160.0 | 0.080 | not predicted |")
                .contains("- 100 ms, 10 users, parallel: reactive overtakes imperative between 1 and 4 calls"
                        + " (0.91× → 1.15×)");
        assertThat(rendered(oneCall, parallel(90).stream().filter(w -> !w.at().has(Axis.FAN_OUT)).toList()))
                .doesNotContain("## Fan-out");
    }

    @Test
    void withoutACrossoverTheReportSaysNone(@TempDir Path dir) throws IOException {
        assertThat(rendered(dir, parallel(100))).contains("## Fan-out").doesNotContain("overtakes")
                .contains("No variant goes from a clear lag behind the imperative variant to a clear lead, or back,"
                        + " between the numbers of calls measured (a lead under 5 % is a tie).");
    }
}
