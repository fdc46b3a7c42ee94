package io.threadlab.experiment;

import com.fasterxml.jackson.databind.JsonNode;
import io.threadlab.experiment.collect.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The whole pipeline for real, in miniature: the packaged services, k6, cgroups where this machine has them, JFR.
 * A few seconds per variant; it asserts what a run must leave behind, and that it leaves nothing running.
 */
class MiniatureExperimentIT {

    @TempDir
    Path output;

    @Test
    void aMiniatureRunOfAllThreeVariantsLeavesACompleteResultsDirectoryAndNothingRunning() throws IOException {
        int exit = ExperimentCommand.execute("run", "--levels", "20", "--window", "3", "--settle", "1", "--repetitions", "1",
                "--warmup-min", "2", "--warmup-max", "6", "--open-rates", "100", "--open-step", "2",
                "--output", output.toString());
        assertThat(exit).isZero();

        Path run;
        try (Stream<Path> runs = Files.list(output)) {
            List<Path> all = runs.toList();
            assertThat(all).hasSize(1);
            run = all.getFirst();
        }
        JsonNode manifest = Json.MAPPER.readTree(run.resolve("manifest.json").toFile());
        assertThat(manifest.get("completed").asBoolean()).isTrue();
        assertThat(manifest.get("lab").get("quarkus_version").asText()).isEqualTo(System.getProperty("quarkus.version"));
        assertThat(manifest.get("jvm_flags").toString()).contains("-Xmx512m", "-XX:+UseSerialGC");
        String method = manifest.get("confinement").get("method").asText();
        assertThat(method).isIn("cgroup-v1", "cgroup-v2", "systemd-run", "none");
        for (String variant : List.of("imperative", "reactive", "virtual-thread")) {
            JsonNode runtime = manifest.get("variants").get(variant).get("runtime");
            assertThat(runtime.get("workerPoolMax").asInt()).isEqualTo(200);
            if (!method.equals("none")) {
                assertThat(runtime.get("availableProcessors").asInt()).as(variant + " sees its quota").isEqualTo(1);
            }
        }

        JsonNode rows = Json.MAPPER.readTree(run.resolve("results.json").toFile());
        assertThat(rows).hasSize(9); // 3 variants x (closed-20, its recorded twin closed-20-jfr, open)
        for (JsonNode row : rows) {
            assertThat(row.get("errors").asLong()).as(row.toString()).isZero();
            assertThat(row.get("requests").asLong()).as(row.toString()).isPositive();
            assertThat(row.get("cpu_seconds").asDouble()).as(row.toString()).isPositive();
            if (!method.equals("none")) {
                assertThat(row.get("confinement_held").asBoolean()).as(row.toString()).isTrue();
            }
            if (row.get("detailed_recording").asBoolean()) {
                assertThat(run.resolve(row.get("jfr_file").asText())).isNotEmptyFile();
            }
        }
        assertThat(Files.readAllLines(run.resolve("results.csv"))).hasSize(10)
                .first().asString().startsWith("variant,scenario,repetition,requests_per_second,p50_ms,p90_ms,p99_ms");
        assertThat(run.resolve("logs/delay-service.log")).isNotEmptyFile();

        // The real services show their threading signatures, and the report was written from the run.
        JsonNode analysis = Json.MAPPER.readTree(run.resolve("analysis.json").toFile());
        assertThat(analysis.get("failures")).isEmpty();
        assertThat(analysis.get("recordings")).hasSize(3);
        for (JsonNode recording : analysis.get("recordings")) {
            assertThat(recording.get("unexpected")).as(recording.get("window").asText()).isEmpty();
            JsonNode groups = recording.get("groups");
            switch (recording.get("variant").asText()) {
                case "imperative" -> assertThat(groups.get("worker").get("socket_reads_downstream").get("count")
                        .asInt()).isPositive();
                case "reactive" -> assertThat(groups.get("event_loop").get("socket_reads_downstream").get("count")
                        .asInt()).isPositive();
                case "virtual-thread" -> {
                    assertThat(recording.get("virtual_threads_started").asInt()).isPositive();
                    assertThat(recording.get("virtual_threads_pinned").get("count").asInt()).isZero();
                }
                default -> throw new AssertionError("unknown variant in " + recording);
            }
        }
        for (String variant : List.of("imperative", "reactive", "virtual-thread")) {
            assertThat(run.resolve("lanes-" + variant + ".svg")).isNotEmptyFile();
        }
        assertThat(run.resolve("report.html")).isNotEmptyFile();
        assertThat(Files.readString(run.resolve("report.md"))).contains("## Validity checks", "## Summary");

        // Nothing left behind: no child process, no cgroup of this run.
        assertThat(ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).toList()).isEmpty();
        for (String mount : List.of("/sys/fs/cgroup/cpu", "/sys/fs/cgroup/cpuacct", "/sys/fs/cgroup")) {
            Path dir = Path.of(mount);
            if (Files.isDirectory(dir)) {
                try (Stream<Path> groups = Files.list(dir)) {
                    assertThat(groups.map(p -> p.getFileName().toString()))
                            .noneMatch(name -> name.startsWith("threadlab-" + run.getFileName()));
                }
            }
        }
    }
}
