package io.threadlab.experiment.findings;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A published run's kind is read from its plan: the default plan's points and its sampling make a default run. */
class KindTest {

    private static final Path DEFAULT_RUN = Path.of("..", "findings", "default-11").toAbsolutePath().normalize();

    @TempDir
    Path findings;

    /** default-11 again, its plan's window and JVM starts as given. */
    private Kind kind(int windowSeconds, int jvmStarts) throws IOException {
        Path dir = Files.createDirectories(findings.resolve("run-" + windowSeconds + "-" + jvmStarts));
        for (String file : List.of("manifest.json", "results.json")) {
            String text = Files.readString(DEFAULT_RUN.resolve(file));
            if (file.equals("manifest.json")) {
                text = text.replaceFirst("\"window_seconds\" : 6", "\"window_seconds\" : " + windowSeconds)
                        .replaceFirst("\"jvm_starts\" : 2", "\"jvm_starts\" : " + jvmStarts);
            }
            Files.writeString(dir.resolve(file), text);
        }
        return PublishedRun.readAll(findings).stream().filter(r -> r.name().equals(dir.getFileName().toString()))
                .findFirst().orElseThrow().kind();
    }

    @Test
    void theDefaultPlanIsADefaultRunAndAQuickRunOfTheSamePointsIsNot() throws IOException {
        assertThat(kind(6, 2)).isEqualTo(Kind.DEFAULT_RUN);
        assertThat(kind(6, 3)).as("more JVM starts, as precision on demand adds").isEqualTo(Kind.DEFAULT_RUN);
        assertThat(kind(4, 1)).as("run --quick: shorter windows, one JVM start").isEqualTo(Kind.OTHER_RUN);
        assertThat(kind(6, 1)).as("one JVM start: no interval over JVM starts").isEqualTo(Kind.OTHER_RUN);
    }
}
