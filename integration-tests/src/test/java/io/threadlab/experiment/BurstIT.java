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
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A burst for real, in miniature: the packaged imperative variant, warmed up and calibrated briefly, then 400 requests
 * fired at once by k6/burst.js at 200 ms (two waves of the 200 workers), twice (the recorded twin). Asserts what a burst must record (its time to the last
 * answer, its prediction, the calls held at the delay service, k6's memory) and that it leaves nothing running; not
 * its numbers.
 */
class BurstIT {

    private static final int REQUESTS = 400;

    @TempDir
    Path output;

    @Test
    void aMiniatureBurstRecordsItsTimeItsPredictionAndItsQueueAndLeavesNothingRunning() throws IOException {
        assumeTrue(K6.obtainable(Path.of("../.tools")), "needs k6 on PATH, or Go to build it (go install go.k6.io/k6)");
        int exit = ExperimentCommand.execute("run", "--shape", "burst", "--quick", "--variants", "imperative",
                "--requests", String.valueOf(REQUESTS), "--delay-ms", "200", "--window", "2", "--settle-max", "1",
                "--warmup-boost-max", "2", "--warmup-level-max", "4", "--calibration-levels", "20,5",
                "--output", output.toString());
        Path run;
        try (Stream<Path> runs = Files.list(output)) {
            run = runs.toList().getFirst();
        }
        JsonNode manifest = Json.MAPPER.readTree(run.resolve("manifest.json").toFile());
        assertThat(manifest.get("completed").asBoolean()).as(manifest.path("failure").asText()).isTrue();
        assertThat(exit).isZero();
        assertThat(manifest.get("plan").get("burst").get("requests").get(0).asInt()).isEqualTo(REQUESTS);

        List<JsonNode> bursts = StreamSupport.stream(Json.MAPPER.readTree(run.resolve("results.json").toFile())
                .get("windows").spliterator(), false).filter(r -> r.has("burst")).toList();
        assertThat(bursts).extracting(r -> r.get("window").get("id").asText())
                .containsExactly("imperative-200ms-burst-400-1", "imperative-200ms-burst-400-jfr-1");
        for (JsonNode row : bursts) {
            JsonNode burst = row.get("burst");
            assertThat(row.get("load").get("requests").asLong()).as(row.toString()).isEqualTo(REQUESTS);
            assertThat(row.get("load").get("errors").asLong()).as(row.toString()).isZero();
            assertThat(burst.get("time_to_last_answer_ms").asDouble()).as(row.toString()).isPositive();
            assertThat(burst.get("late_senders").asLong()).as(row.toString()).isZero();
            assertThat(burst.get("preopen_failed").asLong()).as(row.toString()).isZero();
            // predicted before it fired: from the JVM's calibration, the CPU among its ceilings
            assertThat(burst.get("predicted_ms").asDouble()).as(row.toString()).isPositive();
            assertThat(burst.get("ceilings_ms").has("CPU")).as(row.toString()).isTrue();
            // the delay service held the variant's calls: at least one at once, at most every request
            assertThat(burst.get("peak_downstream_in_flight").asDouble()).as(row.toString()).isBetween(1.0,
                    (double) REQUESTS);
            assertThat(burst.get("samples")).as(row.toString()).isNotEmpty();
            assertThat(burst.get("k6_peak_rss_mb").asDouble()).as(row.toString()).isPositive();
            assertThat(row.get("at").get("burst_requests").asInt()).isEqualTo(REQUESTS);
        }
        assertThat(run.resolve("jfr/imperative-200ms-burst-400-jfr-1.jfr")).isNotEmptyFile();
        assertThat(Files.readString(run.resolve("report.md"))).contains("## The burst", "imperative (JFR)");
        assertThat(Files.readAllLines(run.resolve("results.csv")).getFirst()).contains("burst_requests",
                "time_to_last_answer_ms");

        assertThat(ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).toList()).isEmpty();
    }
}
