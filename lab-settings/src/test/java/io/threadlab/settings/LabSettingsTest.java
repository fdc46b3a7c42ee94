package io.threadlab.settings;

import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What this module gives every service: .env's values as a config source of low ordinal, which a service's
 * application.properties maps to its keys with an expression, and which the environment and system properties
 * override. Checked with SmallRye Config itself, the version the services run on, as Quarkus builds its config (the
 * default sources, read from the class path, where this module's classes directory stands for its jar).
 */
class LabSettingsTest {

    private static final Path ENV = Path.of("..", ".env");
    private static final String RESOURCE = "META-INF/microprofile-config.properties";

    private static Properties env() throws IOException {
        Properties env = new Properties();
        env.load(new StringReader(Files.readString(ENV)));
        return env;
    }

    @Test
    void theJarCarriesDotEnvAsItIsAsAMicroProfileConfigFile() throws IOException {
        URL resource = getClass().getClassLoader().getResource(RESOURCE);
        assertThat(resource).as("lab-settings' %s", RESOURCE).isNotNull();
        Properties copied = new Properties();
        try (InputStream in = resource.openStream()) {
            copied.load(in);
        }
        Properties env = env();
        assertThat(env).as(".env's settings").containsKeys("LAB_WORKER_POOL_MAX", "LAB_CONNECTION_POOL_SIZE",
                "LAB_DELAY_MS", "LAB_DB_POOL_SIZE");
        assertThat(copied).as("the copy of .env in the jar").isEqualTo(env);
        // .env's lines are properties as they stand: KEY=VALUE, nothing compose would read otherwise (quotes, export)
        for (String line : Files.readAllLines(ENV)) {
            if (!line.isBlank() && !line.startsWith("#")) {
                assertThat(line).as(".env line").matches("[A-Z][A-Z0-9_]*=[^\"'\\s]*");
            }
        }
    }

    @Test
    void aServiceMapsAKnobWithoutAFallbackAndTheEnvironmentOrASystemPropertyOverridesIt() throws IOException {
        String fromEnvFile = env().getProperty("LAB_WORKER_POOL_MAX");
        Map<String, String> application = Map.of("quarkus.thread-pool.max-threads", "${LAB_WORKER_POOL_MAX}");

        SmallRyeConfig plain = config(application, Map.of(), Map.of());
        assertThat(plain.getValue("quarkus.thread-pool.max-threads", String.class)).isEqualTo(fromEnvFile);
        List<String> sources = new ArrayList<>();
        plain.getConfigSources().forEach(s -> sources.add(s.getName() + " " + s.getOrdinal()));
        assertThat(sources).as("the config sources").anyMatch(s -> s.contains(RESOURCE) && s.endsWith(" 100"));

        // compose and Kubernetes set LAB_WORKER_POOL_MAX in the environment (ordinal 300) ...
        SmallRyeConfig environment = config(application, Map.of("LAB_WORKER_POOL_MAX", "150"), Map.of());
        assertThat(environment.getValue("quarkus.thread-pool.max-threads", String.class)).isEqualTo("150");
        // ... and the runner passes the key itself as a system property (400), over everything.
        SmallRyeConfig runner = config(application, Map.of("LAB_WORKER_POOL_MAX", "150"),
                Map.of("quarkus.thread-pool.max-threads", "120"));
        assertThat(runner.getValue("quarkus.thread-pool.max-threads", String.class)).isEqualTo("120");
    }

    /** The default sources (this module's file among them), application.properties' keys, and stand-ins above. */
    private static SmallRyeConfig config(Map<String, String> application, Map<String, String> environment,
                                         Map<String, String> system) {
        return new SmallRyeConfigBuilder().addDefaultSources().addDefaultInterceptors()
                .withSources(new PropertiesConfigSource(application, "application.properties", 250))
                .withSources(new PropertiesConfigSource(environment, "environment", 300))
                .withSources(new PropertiesConfigSource(system, "system properties", 400)).build();
    }
}
