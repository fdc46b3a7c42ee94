package io.threadlab.experiment.findings;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The runs index says k6's collector as each run's manifest recorded it, and Go's default where it recorded none. */
class RunsIndexTest {

    private static final Path FINDINGS = Path.of("..", "findings").toAbsolutePath().normalize();

    @Test
    void k6sGogcIsTheManifestsAndGosDefaultBeforeTheKnob() throws IOException {
        List<RunsIndex.Row> rows = RunsIndex.of(PublishedRun.readAll(FINDINGS));
        assertThat(row(rows, "default-13").k6Gogc()).as("set by the run: linked to its manifest")
                .isEqualTo("[400](../findings/default-13/manifest.json)");
        assertThat(row(rows, "default-12").k6Gogc()).as("from before the knob").isEqualTo(RunsIndex.GO_DEFAULT);
    }

    private static RunsIndex.Row row(List<RunsIndex.Row> rows, String run) {
        return rows.stream().filter(r -> r.run().startsWith("[" + run + "]")).findFirst().orElseThrow();
    }
}
