package io.threadlab.experiment;

import com.fasterxml.jackson.databind.JsonNode;
import io.threadlab.experiment.collect.Json;
import io.threadlab.experiment.load.K6;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.withinPercentage;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The whole pipeline for real, in miniature: the packaged services (the three variants and the control), k6, cgroups
 * where this machine has them, the warm-up's boost, JFR. Seconds per variant, so no compiler finishes: this asserts
 * what a run must leave behind and record, not its numbers, and that it leaves nothing running.
 */
class MiniatureExperimentIT {

    private static final List<String> VARIANTS = List.of("imperative", "reactive", "virtual-thread", "imperative-rest");

    @TempDir
    Path output;

    /** A variant's calibration windows, as the model reads them: why it fitted no model, when a prediction is missing. */
    private static List<String> calibration(JsonNode rows, String variant) {
        return StreamSupport.stream(rows.spliterator(), false)
                .filter(r -> r.get("window").get("variant").asText().equals(variant)
                        && r.get("window").get("role").asText().equals("calibration"))
                .map(r -> String.format("%s: %d requests at %s req/s, mean %s ms, %s CPU-ms each; %s", r.get("window")
                        .get("id").asText(), r.get("load").get("requests").asLong(), r.get("load")
                        .get("requests_per_second"), r.get("load").get("mean_ms"), r.get("cpu")
                        .get("cpu_ms_per_request"), r.get("instruments")))
                .toList();
    }

    @Test
    void aMiniatureRunOfEveryVariantLeavesACompleteResultsDirectoryAndNothingRunning() throws IOException {
        assumeTrue(K6.obtainable(Path.of("../.tools")), "needs k6 on PATH, or Go to build it (go install go.k6.io/k6)");
        int exit = ExperimentCommand.execute("run", "--quick", "--variants", String.join(",", VARIANTS),
                "--levels", "20", "--window", "2", "--settle-max", "1", "--warmup-boost-max", "2",
                "--warmup-level-max", "4", "--open-rates", "100", "--open-step", "2", "--calibration-levels", "20,5",
                "--output", output.toString());
        // 0, or 1 when an analysis step reported a problem; the run itself must complete
        Path run;
        try (Stream<Path> runs = Files.list(output)) {
            List<Path> all = runs.toList();
            assertThat(all).hasSize(1);
            run = all.getFirst();
        }
        JsonNode manifest = Json.MAPPER.readTree(run.resolve("manifest.json").toFile());
        assertThat(manifest.get("completed").asBoolean()).as(manifest.path("failure").asText()).isTrue();
        assertThat(manifest.get("format").asInt()).isEqualTo(3);
        assertThat(manifest.get("warnings").toString()).doesNotContain("still in flight");
        assertThat(exit).isZero();
        assertThat(manifest.get("lab").get("quarkus_version").asText()).isEqualTo(System.getProperty("quarkus.version"));
        assertThat(manifest.get("jvm_flags").toString()).contains("-Xmx512m", "-XX:+UseSerialGC");
        String method = manifest.get("confinement").get("method").asText();
        assertThat(method).isIn("cgroup-v1", "cgroup-v2", "systemd-run", "none");
        assertThat(manifest.get("plan").get("schedule")).isNotEmpty();
        assertThat(manifest.get("schedule_as_run")).hasSameSizeAs(manifest.get("plan").get("schedule"));

        JsonNode results = Json.MAPPER.readTree(run.resolve("results.json").toFile());
        JsonNode warmUps = results.get("warm_ups");
        assertThat(warmUps).hasSize(VARIANTS.size());
        for (JsonNode warmUp : warmUps) {
            assertThat(warmUp.get("runtime_before").get("workerPoolMax").asInt()).isEqualTo(200);
            assertThat(warmUp.get("ergonomics_changed")).as(warmUp.get("jvm").asText()).isEmpty();
            assertThat(warmUp.get("samples")).isNotEmpty();
            // made in the background of its samples, and answered: the metrics path the windows read was exercised
            assertThat(warmUp.get("metrics_scrapes_answered").asInt()).as(warmUp.get("jvm").asText()).isPositive();
            if (!method.equals("none")) {
                assertThat(warmUp.get("runtime_before").get("availableProcessors").asInt())
                        .as(warmUp.get("jvm").asText() + " sees its quota").isEqualTo(1);
                assertThat(warmUp.get("boost_seconds").asDouble()).as("it was boosted").isPositive();
            }
            assertThat(run.resolve("jfr/compiler/" + warmUp.get("jvm").asText() + ".jfr")).isNotEmptyFile();
        }

        JsonNode rows = results.get("windows");
        // calibration at 20 and 5 users, closed-20 predicted from it, its recorded twin closed-20-jfr, open
        assertThat(rows).hasSize(VARIANTS.size() * 5);
        for (JsonNode row : rows) {
            JsonNode window = row.get("window");
            JsonNode load = row.get("load");
            assertThat(load.get("errors").asLong()).as(row.toString()).isZero();
            assertThat(load.get("error_causes")).as(row.toString()).isEmpty();
            assertThat(row.get("at").get("delay_ms").asInt()).isEqualTo(10);
            if (window.get("scenario").asText().startsWith("closed")) {
                // the window's own requests, from the load that settled it: users answered one by one, none aborted
                int users = row.get("at").get("users").asInt();
                assertThat(users).isIn(20, 5);
                assertThat(load.get("in_flight").asInt()).as(row.toString()).isBetween(0, users);
                assertThat(load.get("mean_ms").asDouble()).as(row.toString()).isPositive();
                assertThat(window.get("measured_at").asText()).isNotEmpty();
                // its per-second ticks are the window's own: one a second, on average its throughput (both the delay
                // service's count, no request failing), and k6's count of its answers agrees with that count
                JsonNode ticks = load.get("per_second");
                double ticked = 0;
                for (JsonNode tick : ticks) {
                    ticked += tick.asDouble();
                }
                assertThat(ticked / ticks.size()).as(row.toString())
                        .isCloseTo(load.get("requests_per_second").asDouble(), withinPercentage(15));
                assertThat(row.get("instruments").get("downstream_served").asDouble()).as(row.toString())
                        .isCloseTo(load.get("requests").asDouble(), withinPercentage(15));
                boolean predicted = !window.get("role").asText().equals("calibration")
                        && !window.get("detailed_recording").asBoolean();
                assertThat(row.has("prediction")).as("predicted before it was measured: %s\nits JVM's calibration: %s",
                        row, calibration(rows, window.get("variant").asText())).isEqualTo(predicted);
            }
            assertThat(load.get("requests").asLong()).as(row.toString()).isPositive();
            assertThat(row.get("cpu").get("cpu_seconds").asDouble()).as(row.toString()).isPositive();
            // the machine's own speed over the window: the runner's fixed piece of work, timed (null reads as 0)
            assertThat(row.get("instruments").get("yardstick_us").asDouble()).as(row.toString()).isPositive();
            assertThat(window.get("jvm").asInt()).isEqualTo(1);
            assertThat(load.get("per_second")).as(row.toString()).isNotEmpty();
            assertThat(row.get("thread_groups").has("JIT compiler")).as(row.toString()).isTrue();
            if (!method.equals("none")) {
                assertThat(row.get("cpu").get("confinement_held").asBoolean()).as(row.toString()).isTrue();
            }
            if (window.get("detailed_recording").asBoolean()) {
                assertThat(run.resolve(window.get("jfr_file").asText())).isNotEmptyFile();
            }
        }
        assertThat(Files.readAllLines(run.resolve("results.csv"))).hasSize(rows.size() + 1)
                .first().asString().startsWith("id,variant,jvm_label,jvm,repetition,scenario");
        assertThat(run.resolve("logs/delay-service.log")).isNotEmptyFile();

        // The real services show their threading signatures, and the report was written from the run.
        JsonNode analysis = Json.MAPPER.readTree(run.resolve("analysis.json").toFile());
        assertThat(analysis.get("failures")).isEmpty();
        assertThat(analysis.get("recordings")).hasSize(VARIANTS.size());
        for (JsonNode recording : analysis.get("recordings")) {
            assertThat(recording.get("unexpected")).as(recording.get("window").asText()).isEmpty();
            JsonNode groups = recording.get("groups");
            int workerReads = groups.path("worker").path("socket_reads_downstream").path("count").asInt();
            switch (recording.get("variant").asText()) {
                case "imperative" -> assertThat(workerReads).as("workers wait in socket reads").isPositive();
                case "reactive", "imperative-rest" -> assertThat(workerReads).as("no worker reads a socket").isZero();
                case "virtual-thread" -> {
                    assertThat(recording.get("virtual_threads_started").asInt()).isPositive();
                    assertThat(recording.get("virtual_threads_pinned").get("count").asInt()).isZero();
                }
                default -> throw new AssertionError("unknown variant in " + recording);
            }
        }
        for (String variant : VARIANTS) {
            assertThat(run.resolve("lanes-" + variant + ".svg")).isNotEmptyFile();
        }
        assertThat(run.resolve("report.html")).isNotEmptyFile();
        assertThat(Files.readString(run.resolve("report.md"))).contains("## Validity checks", "## Summary",
                "## Stack or threading model?", "## Warm-up");

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
