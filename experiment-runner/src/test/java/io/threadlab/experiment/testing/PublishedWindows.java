package io.threadlab.experiment.testing;

import io.threadlab.experiment.collect.RunRecord;
import io.threadlab.experiment.collect.WindowResult;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/** Every published run's windows (findings/), by its name: what the tests of the model's evidence read. */
public final class PublishedWindows {

    private static final Path FINDINGS = Path.of("..", "findings").toAbsolutePath().normalize();

    private PublishedWindows() {
    }

    public static Map<String, List<WindowResult>> read() throws IOException {
        Map<String, List<WindowResult>> runs = new LinkedHashMap<>();
        try (Stream<Path> dirs = Files.list(FINDINGS)) {
            for (Path run : dirs.filter(d -> Files.isRegularFile(d.resolve("results.json"))).sorted().toList()) {
                runs.put(run.getFileName().toString(), RunRecord.read(run).results().windows());
            }
        }
        return runs;
    }
}
