package io.threadlab.experiment.collect;

import com.fasterxml.jackson.databind.JsonNode;
import io.threadlab.experiment.testing.JsonTrees;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * results.json's warm-ups and times to peak are a file format: {@code --extend} and the report read the results of
 * earlier runs. round-trip/warm-ups holds today's format as the runner of a7c5449 wrote it (two warm-ups of a real
 * run, their samples cut to four, and a time to peak); the golden runs are older formats.
 */
class ResultsRoundTripTest {

    @Test
    void todaysWarmUpsAreWrittenBackByteForByte() throws IOException {
        Path file = Path.of("src/test/resources/round-trip/warm-ups/results.json");
        RunResults results = Json.MAPPER.readValue(file.toFile(), RunResults.class);
        assertThat(results.timeToPeak()).isNotEmpty();
        assertThat(Json.MAPPER.writeValueAsString(results)).isEqualTo(Files.readString(file));
    }

    @ParameterizedTest
    @ValueSource(strings = {"golden/run-d6f4758", "golden/run-4fa4b52-2x2", "predict/run-7be1ba9"})
    void olderWarmUpsAreReadWithoutLoss(String run) throws IOException {
        Path file = Path.of("src/test/resources", run, "results.json");
        JsonNode old = Json.MAPPER.readTree(file.toFile());
        JsonNode written = Json.MAPPER.readTree(Json.MAPPER.writeValueAsString(
                Json.MAPPER.readValue(file.toFile(), RunResults.class)));
        assertThat(old.get("warm_ups")).isNotEmpty();
        assertThat(JsonTrees.differencesBeyondNewFields(old.get("warm_ups"), written.get("warm_ups"))).isEmpty();
    }
}
