package io.threadlab.database;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The lab's .env (which compose.yaml reads for the database container) says what {@code serve} does without flags:
 * one set of defaults, not two that drift.
 */
class EnvFileTest {

    @Test
    void theEnvFilesDatabaseSettingsAreTheDefaults() throws Exception {
        Map<String, String> env = new LinkedHashMap<>();
        Files.readAllLines(Path.of("../.env")).stream().map(String::trim)
                .filter(l -> !l.isEmpty() && !l.startsWith("#") && l.contains("="))
                .forEach(l -> env.put(l.substring(0, l.indexOf('=')), l.substring(l.indexOf('=') + 1)));
        PostgresSettings defaults = PostgresSettings.defaults();
        assertThat(env).containsEntry("LAB_DB_MAX_CONNECTIONS", String.valueOf(defaults.maxConnections()))
                .containsEntry("LAB_DB_SHARED_BUFFERS", defaults.sharedBuffers())
                .containsEntry("LAB_DB_FSYNC", defaults.fsync() ? "on" : "off")
                .containsKeys("LAB_DB_CPUS", "LAB_DB_POOL_SIZE");
        // Every service JVM of the default run (3 variants x 2 JVM starts) may fill its pool at once, with the
        // superusers' 3 reserved slots to spare.
        assertThat(6 * Integer.parseInt(env.get("LAB_DB_POOL_SIZE"))).isLessThanOrEqualTo(defaults.maxConnections() - 3);
    }
}
