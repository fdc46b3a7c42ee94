package io.threadlab.experiment.analyse;

import com.fasterxml.jackson.databind.JsonNode;
import io.threadlab.experiment.collect.Json;
import io.threadlab.experiment.testing.JsonTrees;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * analysis.json is a file format: the report reads the analyses of published runs, made by earlier runners. Its
 * records are read back and written out again unchanged, byte for byte in today's format, and analysis.md renders
 * from them as it did: round-trip/ holds what the runner of a7c5449 wrote and rendered from these files.
 * {@code current-analysis} has every part of today's format: HTTP and database windows, a stall with its frames, a
 * mistake, a failure and JMC's rules.
 */
class AnalysisFileRoundTripTest {

    private static final Path ROUND_TRIP = Path.of("src/test/resources/round-trip");
    private static final Path GOLDEN = Path.of("src/test/resources/golden");

    @Test
    void todaysAnalysisIsWrittenBackByteForByte() throws IOException {
        Path file = ROUND_TRIP.resolve("current-analysis/analysis.json");
        AnalysisFile analysis = Json.MAPPER.readValue(file.toFile(), AnalysisFile.class);
        assertThat(Json.MAPPER.writeValueAsString(analysis)).isEqualTo(Files.readString(file));
    }

    @Test
    void todaysAnalysisRendersTheMarkdownItDid() throws IOException {
        AnalysisFile analysis = Json.MAPPER.readValue(ROUND_TRIP.resolve("current-analysis/analysis.json").toFile(),
                AnalysisFile.class);
        assertThat(AnalysisMarkdown.render(analysis))
                .isEqualTo(Files.readString(ROUND_TRIP.resolve("current-analysis/analysis.md")));
    }

    /** Format 1 (d6f4758: no delay, no stalls) and the 2x2 run (no downstream, no database pool). */
    @ParameterizedTest
    @ValueSource(strings = {"run-d6f4758", "run-4fa4b52-2x2"})
    void olderAnalysesAreReadWithoutLossAndRenderAsThey(String run) throws IOException {
        Path file = GOLDEN.resolve(run).resolve("analysis.json");
        AnalysisFile analysis = Json.MAPPER.readValue(file.toFile(), AnalysisFile.class);
        JsonNode written = Json.MAPPER.readTree(Json.MAPPER.writeValueAsString(analysis));
        assertThat(JsonTrees.differencesBeyondNewFields(Json.MAPPER.readTree(file.toFile()), written)).isEmpty();
        assertThat(AnalysisMarkdown.render(analysis))
                .isEqualTo(Files.readString(ROUND_TRIP.resolve(run + ".analysis.md")));
    }
}
