package io.threadlab.experiment;

import com.fasterxml.jackson.databind.JsonNode;
import io.threadlab.experiment.collect.Json;
import org.yaml.snakeyaml.Yaml;

import io.threadlab.experiment.plan.Variant;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * compose.yaml as compose reads it, for the tests that hold it (and the files that must agree with it) to the one
 * .env: YAML merge keys applied, and {@code ${VAR}} and {@code ${VAR-default}} replaced from .env.
 */
final class ComposeFile {

    static final Path LAB = Path.of("..").toAbsolutePath().normalize();

    private static final Pattern VARIABLE = Pattern.compile("\\$\\{([A-Z0-9_]+)(?:-([^}]*))?}");

    private final JsonNode root;
    private final Map<String, String> env;

    private ComposeFile(JsonNode root, Map<String, String> env) {
        this.root = root;
        this.env = env;
    }

    static ComposeFile read() throws IOException {
        // SnakeYAML applies YAML merge keys (<<: *variant) as Compose does; a plain tree reader would not.
        return new ComposeFile(Json.MAPPER.valueToTree(new Yaml().load(Files.readString(LAB.resolve("compose.yaml")))),
                LabSettings.parse(Files.readString(LAB.resolve(".env"))));
    }

    JsonNode root() {
        return root;
    }

    /** .env's settings. */
    Map<String, String> env() {
        return env;
    }

    JsonNode service(String name) {
        return root.path("services").path(name);
    }

    /** ${VAR} and ${VAR-default} replaced from .env, as compose does. */
    String resolved(JsonNode value) {
        Matcher m = VARIABLE.matcher(value.asText());
        StringBuilder text = new StringBuilder();
        while (m.find()) {
            String replacement = env.containsKey(m.group(1)) ? env.get(m.group(1)) : m.group(2);
            assertThat(replacement).as("${" + m.group(1) + "} is defined in .env or has a default").isNotNull();
            m.appendReplacement(text, Matcher.quoteReplacement(replacement));
        }
        return m.appendTail(text).toString();
    }

    /** The service's environment as its container gets it: every value resolved, folded lines joined by one space. */
    Map<String, String> environment(String service) {
        Map<String, String> environment = new LinkedHashMap<>();
        service(service).path("environment").properties()
                .forEach(e -> environment.put(e.getKey(), resolved(e.getValue()).strip().replaceAll("\\s+", " ")));
        return environment;
    }

    /** A property that takes a setting of .env whole: {@code key=${LAB_...}}. */
    private static final Pattern FROM_ENV_FILE = Pattern.compile("([a-z][a-z0-9.\"-]*)=\\$\\{(LAB_[A-Z0-9_]+)}");

    /** The modules whose application.properties read .env's settings: the delay service, the variants, the mistakes. */
    static List<String> serviceModules() {
        List<String> modules = new ArrayList<>(List.of("delay-service"));
        Variant.services().forEach(v -> modules.add(v.module()));
        modules.add("mistakes-service");
        return modules;
    }

    /**
     * The one mapping of .env's knobs to the services' keys, as their application.properties write it: each key that
     * takes a setting of .env ({@code quarkus.thread-pool.max-threads=${LAB_WORKER_POOL_MAX}}), with that setting.
     */
    static Map<String, String> knobKeys() {
        Map<String, String> keys = new LinkedHashMap<>();
        for (String module : serviceModules()) {
            try {
                for (String line : Files.readAllLines(LAB.resolve(module).resolve(
                        "src/main/resources/application.properties"))) {
                    Matcher m = FROM_ENV_FILE.matcher(line.strip());
                    if (m.matches()) {
                        keys.put(m.group(1), m.group(2));
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return keys;
    }

    /** The environment variable that sets {@code key} (MicroProfile Config's mapping: QUARKUS_THREAD_POOL_MAX_THREADS). */
    static String variableOf(String key) {
        return key.replaceAll("[^A-Za-z0-9]", "_").toUpperCase(Locale.ROOT);
    }
}
