package io.threadlab.experiment.collect;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ResultsWriterTest {

    @TempDir
    Path dir;

    static WindowResult row(String scenario, int repetition, int jvm, String jfrFile) {
        return new WindowResult("reactive", scenario, repetition, jvm, 4321.5, 21.25, 40.0, 80.125, null, 0, 6.0,
                0.139, 250.0, 45, 3.5, 0, 12, 43_215, 10.0, jfrFile != null, 100, 0.49, true, 1.0, 10.6, jfrFile,
                "2026-01-01T10:00:00Z", 42.0, 0.0084, 3.5, 38.5, 120.25, 31.0, 6.0, true,
                Map.of("JIT compiler", Map.of("threads", 3, "cpu_seconds", 0.042)), List.of(4300.0, 4343.0), null,
                115.7, Map.of("http_504", 2L), 500L, 500, 10, 0.5, 200, 1000, "2026-01-01T10:00:07Z", "reactive", "shared");
    }

    static WarmUpResult warmUp(String jvm, Double secondsToPeak) {
        return new WarmUpResult(jvm, "reactive", 1, "boosted", 0.5, 2, true, 40, 20, 3, secondsToPeak,
                List.of(new WarmUpResult.Level(500, 10, true, "finished", 0.01, 0.02, 4000)),
                List.of(new CompilerSample(2, 2, 500, 3900, 0, 0, 10, 1000, 5, 1)),
                Map.of("availableProcessors", 1), Map.of("availableProcessors", 1), List.of(), Map.of(), Map.of());
    }

    @Test
    void windowsAndWarmUpsLandInResultsJsonAndReadBackAsTheSameTypes() throws IOException {
        ResultsWriter writer = new ResultsWriter(dir);
        writer.add(row("closed-500", 1, 1, null));
        writer.warmUp(warmUp("reactive-jvm1", null));
        writer.add(row("closed-500-jfr", 1, 2, "jfr/reactive-10ms-closed-500-jfr-1.jfr"));
        writer.timeToPeak(warmUp("reactive-jvm3", 95.0));

        JsonNode json = Json.MAPPER.readTree(dir.resolve("results.json").toFile());
        assertThat(json.fieldNames()).toIterable().containsExactly("windows", "warm_ups", "time_to_peak");
        assertThat(json.path("windows").get(0).path("error_causes").path("http_504").asLong()).isEqualTo(2);

        Manifest manifest = new Manifest(dir);
        manifest.warn("something to say");
        manifest.finish("completed", null);
        RunRecord read = RunRecord.read(dir);
        assertThat(read.results().windows()).containsExactly(row("closed-500", 1, 1, null),
                row("closed-500-jfr", 1, 2, "jfr/reactive-10ms-closed-500-jfr-1.jfr"));
        assertThat(read.results().warmUps()).containsExactly(warmUp("reactive-jvm1", null));
        assertThat(read.results().timeToPeak().getFirst().secondsToPeak()).isEqualTo(95.0);
        assertThat(read.manifest().format()).isEqualTo(RunManifest.FORMAT);
        assertThat(read.manifest().completed()).isTrue();
        assertThat(read.manifest().warnings()).containsExactly("something to say");
    }

    @Test
    void resultsCsvHasOneLinePerWindowWithTheDelayAndTheFailuresByCause() throws IOException {
        ResultsWriter writer = new ResultsWriter(dir);
        writer.add(row("closed-500", 1, 1, null));
        writer.warmUp(warmUp("reactive-jvm1", null));
        writer.add(row("closed-500-jfr", 1, 2, "jfr/reactive-10ms-closed-500-jfr-1.jfr"));

        List<String> lines = Files.readAllLines(dir.resolve("results.csv"));
        assertThat(lines).hasSize(3); // a warm-up adds no line
        assertThat(lines.get(0)).isEqualTo(String.join(",", WindowResult.CSV_COLUMNS));
        assertThat(lines.get(0)).startsWith("variant,scenario,repetition,jvm,requests_per_second,p50_ms")
                .endsWith("mean_ms,in_flight,error_causes,users,delay_ms,cpu_quota,worker_max,pool_size,measured_at,jvm_label,load_cpus");
        // doubles with three decimals, a missing value (max_ms, jfr_file) empty
        assertThat(lines.get(1)).isEqualTo("reactive,closed-500,1,1,4321.500,21.250,40.000,80.125,,0,6.000,0.139,"
                + "250.000,45,3.500,0,12,43215,10.000,false,100,0.490,true,1.000,10.600,,2026-01-01T10:00:00Z,"
                + "42.000,0.008,3.500,38.500,120.250,31.000,6.000,true,115.700,500,http_504:2,500,10,0.500,200,1000,2026-01-01T10:00:07Z,reactive,shared");
        assertThat(lines.get(2)).startsWith("reactive,closed-500-jfr,1,2,")
                .contains(",jfr/reactive-10ms-closed-500-jfr-1.jfr,");
    }

    @Test
    void aMissingOrMalformedFileIsRefusedWithTheFileAndTheField() throws IOException {
        assertThatThrownBy(() -> RunRecord.read(dir)).hasMessageContaining("manifest.json is missing");
        new Manifest(dir);
        assertThatThrownBy(() -> RunRecord.read(dir)).hasMessageContaining("results.json is missing");
        Files.writeString(dir.resolve("results.json"), "{\"windows\": [{\"variant\": \"reactive\", "
                + "\"requests_per_second\": \"fast\"}]}");
        assertThatThrownBy(() -> RunRecord.read(dir)).hasMessageContaining("results.json")
                .hasMessageContaining("windows[0].requests_per_second");
        Files.writeString(dir.resolve("results.json"), "{\"windows\": [");
        assertThatThrownBy(() -> RunRecord.read(dir)).hasMessageContaining("results.json is not valid JSON");
        Files.writeString(dir.resolve("results.json"), "{}");
        Files.writeString(dir.resolve("manifest.json"), "{\"format\": 99}");
        assertThatThrownBy(() -> RunRecord.read(dir)).hasMessageContaining("results format 99")
                .hasMessageContaining("formats 1 to " + RunManifest.FORMAT);
    }
}
