package io.threadlab.experiment.collect;

import com.fasterxml.jackson.databind.JsonNode;
import io.threadlab.experiment.testing.Windows;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ResultsWriterTest {

    @TempDir
    Path dir;

    static WindowResult row(boolean recorded, int repetition, int jvm) {
        Windows w = Windows.closed("reactive", 500, 4321.5).repetition(repetition).jvm(jvm).cpuMs(0.139)
                .cpuCores(0.49).latency(21.25, 40.0, 80.125, 200).meanMs(115.7).errors(2, Map.of("http_504", 2L))
                .perSecond(List.of(4300.0, 4343.0)).startedAt(Instant.parse("2026-01-01T10:00:00Z"));
        return (recorded ? w.recorded() : w).build();
    }

    static WarmUpResult warmUp(String jvm, Double secondsToPeak) {
        return new WarmUpResult(jvm, "reactive", 1, "boosted", 0.5, 2, true, 40, 20, 3, secondsToPeak,
                List.of(new WarmUpResult.Level(500, 10, true, "finished", 0.01, 0.02, 4000).again()),
                List.of(new CompilerSample(2, 2, 500, 3900, 0, 0, 10, 1000, 5, 1)),
                new WarmUpResult.Ergonomics(Map.of("availableProcessors", 1), Map.of("availableProcessors", 1),
                        List.of(), Map.of(), Map.of()), 60);
    }

    @Test
    void windowsAndWarmUpsLandInResultsJsonAndReadBackAsTheSameTypes() throws IOException {
        ResultsWriter writer = new ResultsWriter(dir);
        writer.add(row(false, 1, 1));
        writer.warmUp(warmUp("reactive-jvm1", null));
        writer.add(row(true, 1, 2));
        writer.timeToPeak(warmUp("reactive-jvm3", 95.0));

        JsonNode json = Json.MAPPER.readTree(dir.resolve("results.json").toFile());
        assertThat(json.fieldNames()).toIterable().containsExactly("windows", "warm_ups", "time_to_peak");
        JsonNode first = json.path("windows").get(0);
        assertThat(first.fieldNames()).toIterable().containsExactly("window", "at", "load", "cpu", "memory",
                "instruments", "compiler", "gc", "thread_groups");
        assertThat(first.path("load").path("error_causes").path("http_504").asLong()).isEqualTo(2);
        assertThat(first.path("at").path("delay_ms").asInt()).isEqualTo(10);
        assertThat(json.path("warm_ups").get(0).path("levels").get(0).path("boosted_again").asBoolean()).isTrue();

        Manifest manifest = new Manifest(dir);
        manifest.warn("something to say");
        manifest.finish("completed", null);
        RunRecord read = RunRecord.read(dir);
        assertThat(read.results().windows()).containsExactly(row(false, 1, 1), row(true, 1, 2));
        assertThat(read.results().warmUps()).containsExactly(warmUp("reactive-jvm1", null));
        assertThat(read.results().timeToPeak().getFirst().secondsToPeak()).isEqualTo(95.0);
        assertThat(read.manifest().format()).isEqualTo(RunManifest.FORMAT);
        assertThat(read.manifest().completed()).isTrue();
        assertThat(read.manifest().warnings()).containsExactly("something to say");
    }

    @Test
    void resultsCsvHasOneLinePerWindowEveryFieldOfTheRowDeclaredOnce() throws IOException {
        ResultsWriter writer = new ResultsWriter(dir);
        writer.add(row(false, 1, 1));
        writer.warmUp(warmUp("reactive-jvm1", null));
        writer.add(row(true, 1, 2));

        List<String> lines = Files.readAllLines(dir.resolve("results.csv"));
        assertThat(lines).hasSize(3); // a warm-up adds no line
        List<String> header = List.of(lines.get(0).split(","));
        assertThat(header).startsWith("id", "variant", "jvm_label", "jvm", "repetition", "scenario",
                "detailed_recording", "role", "jfr_file", "started_at", "measured_at", "load_cpus", "cpu_quota",
                "worker_max", "pool_size", "db_pool_size", "db_cpu_quota", "downstream", "delay_ms", "fan_out",
                "fan_out_mode", "db_access", "users", "burst_requests", "requests",
                "window_seconds",
                "requests_per_second");
        assertThat(header).doesNotHaveDuplicates().contains("cpu_ms_per_request", "k6_cpu_seconds", "error_causes",
                "compiler_share", "predicted_rps", "time_to_last_answer_ms", "predicted_binding")
                .doesNotContain("per_second", "steps", "thread_groups", "samples");
        List<String> first = List.of(lines.get(1).split(",", -1));
        assertThat(first).hasSameSizeAs(header);
        // doubles with three decimals, a missing value (jfr_file, the prediction) empty
        assertThat(first.get(header.indexOf("id"))).isEqualTo("reactive-10ms-closed-500-1");
        assertThat(first.get(header.indexOf("requests_per_second"))).isEqualTo("4321.500");
        assertThat(first.get(header.indexOf("p99_ms"))).isEqualTo("80.125");
        assertThat(first.get(header.indexOf("jfr_file"))).isEmpty();
        assertThat(first.get(header.indexOf("error_causes"))).isEqualTo("http_504:2");
        assertThat(first.get(header.indexOf("predicted_rps"))).isEmpty();
        assertThat(lines.get(2)).contains(",closed-500-jfr,").contains(",jfr/reactive-10ms-closed-500-jfr-1.jfr,");
    }

    @Test
    void aMissingOrMalformedFileIsRefusedWithTheFileAndTheField() throws IOException {
        assertThatThrownBy(() -> RunRecord.read(dir)).hasMessageContaining("manifest.json is missing");
        new Manifest(dir);
        assertThatThrownBy(() -> RunRecord.read(dir)).hasMessageContaining("results.json is missing");
        Files.writeString(dir.resolve("results.json"), "{\"windows\": [{\"window\": {\"variant\": \"reactive\"},"
                + " \"load\": {\"requests_per_second\": \"fast\"}}]}");
        assertThatThrownBy(() -> RunRecord.read(dir)).hasMessageContaining("results.json")
                .hasMessageContaining("windows[0].load.requests_per_second");
        Files.writeString(dir.resolve("results.json"), "{\"windows\": [");
        assertThatThrownBy(() -> RunRecord.read(dir)).hasMessageContaining("results.json is not valid JSON");
        Files.writeString(dir.resolve("results.json"), "{}");
        Files.writeString(dir.resolve("manifest.json"), "{\"format\": 99}");
        assertThatThrownBy(() -> RunRecord.read(dir)).hasMessageContaining("results format 99")
                .hasMessageContaining("formats 1 to " + RunManifest.FORMAT);
    }
}
