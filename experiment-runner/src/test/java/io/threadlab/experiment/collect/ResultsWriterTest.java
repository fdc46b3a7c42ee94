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

class ResultsWriterTest {

    @TempDir
    Path dir;

    private static WindowResult row(String scenario, int repetition, int jvm, String jfrFile) {
        return new WindowResult("reactive", scenario, repetition, jvm, 4321.5, 21.25, 40.0, 80.125, null, 0, 6.0,
                0.139, 250.0, 45, 3.5, 0, 12, 43_215, 10.0, jfrFile != null, 100, 0.49, true, 1.0, 10.6, jfrFile,
                "2026-01-01T10:00:00Z", 42.0, 0.0084, 3.5, 38.5, 120.25, 31.0, 6.0, true,
                Map.of("JIT compiler", Map.of("threads", 3, "cpu_seconds", 0.042)), List.of(4300.0, 4343.0), null);
    }

    @Test
    void windowsAndWarmUpsLandInResultsJsonAsOneObject() throws IOException {
        ResultsWriter writer = new ResultsWriter(dir);
        writer.add(row("closed-500", 1, 1, null));
        writer.warmUp(Map.of("jvm", "reactive-jvm1", "finished", true));
        writer.add(row("closed-500-jfr", 1, 2, "jfr/reactive-closed-500-jfr-1.jfr"));
        writer.timeToPeak(Map.of("jvm", "reactive-jvm3", "seconds_to_peak", 95));

        JsonNode json = Json.MAPPER.readTree(dir.resolve("results.json").toFile());
        assertThat(json.isObject()).isTrue();
        assertThat(json.fieldNames()).toIterable().containsExactly("windows", "warm_ups", "time_to_peak");
        assertThat(json.path("windows")).hasSize(2);
        JsonNode first = json.path("windows").get(0);
        assertThat(first.path("jvm").asInt()).isEqualTo(1);
        assertThat(json.path("windows").get(1).path("jvm").asInt()).isEqualTo(2);
        assertThat(first.path("started_at").asText()).isEqualTo("2026-01-01T10:00:00Z");
        assertThat(first.path("compiler_share").asDouble()).isEqualTo(0.0084);
        assertThat(first.path("compiler_wait_ms").asDouble()).isEqualTo(3.5);
        assertThat(first.path("heap_live_mb").asDouble()).isEqualTo(38.5);
        assertThat(first.path("heap_used_mb").asDouble()).isEqualTo(120.25);
        assertThat(first.path("live_threads").asDouble()).isEqualTo(31.0);
        assertThat(first.path("settle_seconds").asDouble()).isEqualTo(6.0);
        assertThat(first.path("settle_quiet").asBoolean()).isTrue();
        assertThat(first.path("thread_groups").path("JIT compiler").path("threads").asInt()).isEqualTo(3);
        assertThat(first.path("per_second")).hasSize(2);
        assertThat(json.path("warm_ups").get(0).path("jvm").asText()).isEqualTo("reactive-jvm1");
        assertThat(json.path("time_to_peak").get(0).path("seconds_to_peak").asInt()).isEqualTo(95);
    }

    @Test
    void resultsCsvHasTheNewHeaderAndOneLinePerWindow() throws IOException {
        ResultsWriter writer = new ResultsWriter(dir);
        writer.add(row("closed-500", 1, 1, null));
        writer.warmUp(Map.of("jvm", "reactive-jvm1"));
        writer.add(row("closed-500-jfr", 1, 2, "jfr/reactive-closed-500-jfr-1.jfr"));

        List<String> lines = Files.readAllLines(dir.resolve("results.csv"));
        assertThat(lines).hasSize(3); // a warm-up adds no line
        assertThat(lines.get(0)).isEqualTo("variant,scenario,repetition,jvm,requests_per_second,p50_ms,p90_ms,"
                + "p99_ms,max_ms,errors,cpu_seconds,cpu_ms_per_request,rss_mb,threads,k6_cpu_seconds,"
                + "dropped_iterations,throttled_periods,requests,window_seconds,detailed_recording,periods,cpu_cores,"
                + "confinement_held,delay_cpu_seconds,delay_served_mean_ms,jfr_file,started_at,compiler_cpu_ms,"
                + "compiler_share,compiler_wait_ms,heap_live_mb,heap_used_mb,live_threads,settle_seconds,"
                + "settle_quiet");
        // doubles with three decimals, a missing value (max_ms, jfr_file) empty
        assertThat(lines.get(1)).isEqualTo("reactive,closed-500,1,1,4321.500,21.250,40.000,80.125,,0,6.000,0.139,"
                + "250.000,45,3.500,0,12,43215,10.000,false,100,0.490,true,1.000,10.600,,2026-01-01T10:00:00Z,"
                + "42.000,0.008,3.500,38.500,120.250,31.000,6.000,true");
        assertThat(lines.get(2)).startsWith("reactive,closed-500-jfr,1,2,")
                .contains(",true,100,", ",jfr/reactive-closed-500-jfr-1.jfr,");
    }
}
