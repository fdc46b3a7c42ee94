package io.threadlab.experiment;

import com.fasterxml.jackson.databind.JsonNode;
import io.threadlab.experiment.collect.Json;
import org.yaml.snakeyaml.Yaml;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
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

    private static final Pattern VARIABLE = Pattern.compile("\\$\\{([A-Z_]+)(?:-([^}]*))?}");

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
}
