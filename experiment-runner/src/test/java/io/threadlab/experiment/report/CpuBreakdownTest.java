package io.threadlab.experiment.report;

import io.threadlab.experiment.plan.Axis;

import io.threadlab.experiment.analyse.Layer;
import io.threadlab.experiment.collect.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** A results directory with known CPU per request and known layer shares, and the "where the CPU goes" made of it. */
class CpuBreakdownTest {

    private static final String HTTP = Layer.HTTP_SERVER.label();
    private static final String JSON = Layer.JSON.label();
    private static final String JVM = Layer.JVM_THREADS.label();

    @TempDir
    Path dir;

    @Test
    void eachRecordedWindowsCpuPerRequestIsSharedOutByItsLayers() throws IOException {
        Run run = write(
                List.of(jfrRow("imperative", 100, 1, 0.5), jfrRow("imperative", 100, 2, 0.7),
                        jfrRow("reactive", 500, 1, 0.2), jfrRow("reactive", 100, 1, 0.1),
                        Map.of("variant", "reactive", "scenario", "closed-100", "repetition", 1,
                                "cpu_ms_per_request", 9.0)), // a headline row: not a recording's
                List.of(recording("reactive", 500, 1, Map.of(HTTP, 0.5, JSON, 0.25, JVM, 0.25), null),
                        recording("imperative", 100, 2, Map.of(HTTP, 0.5, JSON, 0.5), null),
                        recording("imperative", 100, 1, Map.of(HTTP, 1.0), null),
                        recording("reactive", 100, 1, Map.of(HTTP, 1.0), null),
                        recording("virtual-thread", 100, 1, Map.of(JSON, 1.0), 0.3), // no row: the analysis' number
                        recording("virtual-thread", 500, 1, Map.of(JSON, 1.0), null))); // no number at all: left out

        List<CpuBreakdown.Bar> bars = CpuBreakdown.bars(run, Recorded.all(run));

        assertThat(bars).extracting(b -> b.variant() + " " + b.point().get(Axis.USERS)).containsExactly("imperative 100",
                "reactive 100", "reactive 500", "virtual-thread 100");
        CpuBreakdown.Bar imperative = bars.getFirst();
        // repetitions averaged: HTTP (0.5 x 1.0 + 0.7 x 0.5) / 2, JSON (0 + 0.7 x 0.5) / 2
        assertThat(imperative.cpuMsPerRequestByLayer().get(HTTP)).isCloseTo(0.425, within(1e-9));
        assertThat(imperative.cpuMsPerRequestByLayer().get(JSON)).isCloseTo(0.175, within(1e-9));
        assertThat(imperative.total()).isCloseTo(0.6, within(1e-9));
        CpuBreakdown.Bar reactive500 = bars.get(2);
        assertThat(reactive500.cpuMsPerRequestByLayer().get(JVM)).isCloseTo(0.05, within(1e-9));
        assertThat(reactive500.total()).isCloseTo(0.2, within(1e-9));
        assertThat(bars.get(3).total()).isCloseTo(0.3, within(1e-9));

        // a column per layer that spent anything, in the analysis' order
        CpuBreakdown.Table table = CpuBreakdown.table(run, bars);
        assertThat(table.layers()).containsExactly(HTTP, JSON, JVM);
        assertThat(table.rows()).contains(new CpuBreakdown.Row("imperative", "100", List.of("0.425", "0.175",
                "0.000"), "0.600"), new CpuBreakdown.Row("reactive", "500", List.of("0.100", "0.050", "0.050"),
                "0.200"));

        // XChart draws text as outlines: the layers show as their colours, and a layer that spent nothing not at all
        String svg = CpuBreakdown.svg(run, bars);
        assertThat(svg).startsWith("<svg").contains("fill:rgb(31,119,180)", "fill:rgb(214,39,40)",
                "fill:rgb(127,127,127)").doesNotContain("fill:rgb(148,103,189)");
    }

    @Test
    void aRunWithoutAnalysisHasNoBarsAndNoSection() throws IOException {
        Json.write(dir.resolve("results.json"), Map.of("windows", List.of(jfrRow("reactive", 100, 1, 0.1))));
        Json.write(dir.resolve("manifest.json"), Map.of("plan", Map.of("variants", List.of("reactive"))));
        Run run = Run.read(dir);
        List<CpuBreakdown.Bar> bars = CpuBreakdown.bars(run, Recorded.all(run));
        assertThat(bars).isEmpty();
        assertThat(CpuBreakdown.svg(run, bars)).startsWith("<svg");
        assertThat(Files.readString(Report.write(dir).markdown())).doesNotContain("## Where the CPU goes");
    }

    @Test
    void aMistakesRecordingCountsUnderTheMistakeNotUnderWhatItSpoils() throws IOException {
        // the analysis takes blocking-event-loop's recording for reactive (its event loops); the runner named it
        Map<String, Object> mistake = new LinkedHashMap<>(recording("blocking-event-loop", 100, 1,
                Map.of(HTTP, 1.0), null));
        mistake.put("variant", "reactive");
        mistake.put("label", "blocking-event-loop");
        Run run = write(List.of(jfrRow("reactive", 100, 1, 0.1), jfrRow("blocking-event-loop", 100, 1, 0.4)),
                List.of(recording("reactive", 100, 1, Map.of(HTTP, 1.0), null), mistake));

        List<CpuBreakdown.Bar> bars = CpuBreakdown.bars(run, Recorded.all(run));

        assertThat(bars).extracting(b -> b.variant() + " " + b.total()).containsExactly("reactive 0.1",
                "blocking-event-loop 0.4");
    }

    private Run write(List<Map<String, Object>> rows, List<Map<String, Object>> recordings) throws IOException {
        Json.write(dir.resolve("results.json"), Map.of("windows", rows));
        Json.write(dir.resolve("manifest.json"), Map.of("plan", Map.of("variants",
                List.of("imperative", "reactive", "virtual-thread"), "closed_model_vus", List.of(100, 500))));
        Json.write(dir.resolve("analysis.json"), Map.of("recordings", recordings, "failures", List.of()));
        return Run.read(dir);
    }

    private static Map<String, Object> jfrRow(String variant, int users, int rep, double cpuMsPerRequest) {
        return Map.of("variant", variant, "scenario", "closed-" + users + "-jfr", "repetition", rep,
                "cpu_ms_per_request", cpuMsPerRequest,
                "jfr_file", "jfr/" + variant + "-closed-" + users + "-jfr-" + rep + ".jfr");
    }

    /** A recording as analysis.json has it: every layer present, shares as given, the rest zero. */
    private static Map<String, Object> recording(String variant, int users, int rep, Map<String, Double> shares,
                                                 Double cpuMsPerRequest) {
        Map<String, Object> layers = new LinkedHashMap<>();
        for (Layer layer : Layer.values()) {
            layers.put(layer.label(), Map.of("samples", 10, "share", shares.getOrDefault(layer.label(), 0.0)));
        }
        Map<String, Object> cpu = new LinkedHashMap<>();
        cpu.put("cpu_ms_per_request", cpuMsPerRequest);
        cpu.put("layers", layers);
        Map<String, Object> recording = new LinkedHashMap<>();
        recording.put("variant", variant);
        recording.put("window", variant + "-closed-" + users + "-jfr-" + rep);
        recording.put("cpu_by_layer", cpu);
        return recording;
    }
}
