package io.threadlab.experiment.load;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class K6SummaryTest {

    @TempDir
    Path tmp;

    @Test
    void readsTheClosedModelSummaryWrittenByLibJs() throws IOException {
        Path file = Files.writeString(tmp.resolve("s.json"), """
                {"variant": "reactive", "scenario": "closed-100", "base_url": "http://127.0.0.1:8082",
                 "duration_seconds": 15.02, "requests": 57000, "requests_per_second": 3795.3,
                 "p50_ms": 18.5, "p90_ms": 40.1, "p99_ms": 81.0, "max_ms": 312.4,
                 "errors": 3, "dropped_iterations": 0, "max_vus": 100, "something_new": true}
                """);
        K6Summary summary = K6Summary.read(file);
        assertThat(summary.variant()).isEqualTo("reactive");
        assertThat(summary.requests()).isEqualTo(57000);
        assertThat(summary.requestsPerSecond()).isEqualTo(3795.3);
        assertThat(summary.p50Ms()).isEqualTo(18.5);
        assertThat(summary.p99Ms()).isEqualTo(81.0);
        assertThat(summary.errors()).isEqualTo(3);
        assertThat(summary.steps()).isNull();
    }

    @Test
    void readsOpenModelStepsAndMissingPercentilesAsNull() throws IOException {
        Path file = Files.writeString(tmp.resolve("o.json"), """
                {"variant": "imperative", "scenario": "open", "requests": 0, "requests_per_second": null,
                 "p50_ms": null, "p90_ms": null, "p99_ms": null, "max_ms": null, "errors": 0, "dropped_iterations": 12,
                 "steps": [{"offered_rate": 500, "requests": 4000, "achieved_rate": 500.0, "p50_ms": 12.0,
                            "p90_ms": 14.0, "p99_ms": 30.0, "max_ms": 55.0, "dropped_iterations": 0},
                           {"offered_rate": 2000, "requests": 6000, "achieved_rate": 750.0, "p50_ms": null,
                            "p90_ms": null, "p99_ms": null, "max_ms": null, "dropped_iterations": 12}]}
                """);
        K6Summary summary = K6Summary.read(file);
        assertThat(summary.p50Ms()).isNull();
        assertThat(summary.droppedIterations()).isEqualTo(12);
        assertThat(summary.steps()).hasSize(2);
        assertThat(summary.steps().get(1).offeredRate()).isEqualTo(2000);
        assertThat(summary.steps().get(1).achievedRate()).isEqualTo(750.0);
        assertThat(summary.steps().get(1).p99Ms()).isNull();
    }

    @Test
    void aMissingSummarySaysWhere() {
        assertThatThrownBy(() -> K6Summary.read(tmp.resolve("none.json"))).isInstanceOf(IOException.class)
                .hasMessageContaining("none.json");
    }
}
