package io.threadlab.experiment.start;

import io.threadlab.experiment.plan.Database;
import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.Knobs;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

class ComposeEngineTest {

    @Test
    void theRunsKnobsReachEveryVariableComposeUses() throws IOException {
        Knobs knobs = new Knobs(new Knobs(0.75, "768m", "Parallel", 300, 900, 4000, 150, false).values()
                .with(Axis.K6_GOGC, 300).with(Axis.K6_MEMORY_LIMIT, "2GiB"), false, null);
        var env = ComposeEngine.environment(knobs, 20, null);
        assertThat(env).containsEntry("LAB_K6_GOGC", "300").containsEntry("LAB_K6_MEMORY_LIMIT", "2GiB");
        assertThat(env).containsEntry("LAB_CPUS", "0.75").containsEntry("LAB_HEAP", "768m")
                .containsEntry("LAB_GC", "Parallel").containsEntry("LAB_DELAY_MS", "20")
                .containsEntry("LAB_CONNECTION_POOL_SIZE", "300").containsEntry("LAB_CONNECT_TIMEOUT_MS", "900")
                .containsEntry("LAB_READ_TIMEOUT_MS", "4000").containsEntry("LAB_WORKER_POOL_MAX", "150")
                .containsEntry("LAB_RECORD_FROM_START", "");

        // Every variable compose.yaml interpolates is set by the run, except the memory limit, kept from .env.
        Matcher m = Pattern.compile("\\$\\{([A-Z0-9_]+)").matcher(Files.readString(Path.of("../compose.yaml")));
        Set<String> used = new TreeSet<>();
        while (m.find()) {
            used.add(m.group(1));
        }
        used.remove("LAB_MEMORY");
        Set<String> database = new TreeSet<>(used.stream().filter(v -> v.startsWith("LAB_DB_")).toList());
        assertThat(database).as("the database's variables").isNotEmpty();
        assertThat(env.keySet()).containsAll(used.stream().filter(v -> !database.contains(v)).toList())
                .doesNotContainAnyElementsOf(database);

        // A run with the database downstream sets the database's too.
        Knobs withPool = knobs.withDatabase(new Database(1.5, 150, "64MB", false), 12);
        var withDb = ComposeEngine.environment(withPool, 20, new Database(1.5, 150, "64MB", false));
        assertThat(withDb).containsEntry("LAB_DB_CPUS", "1.5").containsEntry("LAB_DB_MAX_CONNECTIONS", "150")
                .containsEntry("LAB_DB_SHARED_BUFFERS", "64MB").containsEntry("LAB_DB_FSYNC", "off")
                .containsEntry("LAB_DB_POOL_SIZE", "12");
        assertThat(withDb.keySet()).containsAll(used);
    }
}
