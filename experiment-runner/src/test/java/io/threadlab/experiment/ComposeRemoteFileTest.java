package io.threadlab.experiment;

import com.fasterxml.jackson.databind.JsonNode;
import io.threadlab.experiment.collect.Json;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * compose.remote.yaml against compose.yaml: on another engine, every service the runner starts binds nothing of this
 * checkout (a bind mount there names the other machine's directory) and publishes each of compose.yaml's ports, the
 * same port, on LAB_PUBLISH_ADDRESS. A service or port added to compose.yaml and forgotten here fails by name.
 */
class ComposeRemoteFileTest {

    /** What the runner starts: the delay service, the variants, the database, and the one-shot they wait for. */
    private static final List<String> STARTED = List.of("jfr-dir", "delay-service", "imperative-service",
            "reactive-service", "virtual-thread-service", "imperative-rest-service", "database");

    @Test
    void everyBindMountIsResetAndEveryPortPublishedOnTheAddressGiven() throws IOException {
        JsonNode compose = ComposeFile.read().root().path("services");
        String text = Files.readString(ComposeFile.LAB.resolve("compose.remote.yaml"));
        // Compose's own tags, which SnakeYAML does not know: their places are checked on the text, the rest as YAML.
        JsonNode remote = Json.MAPPER.valueToTree(new Yaml().<Map<String, Object>>load(text
                .replace("!reset ", "").replace("!override ", ""))).path("services");
        for (String name : STARTED) {
            JsonNode service = compose.path(name);
            assertThat(service.isMissingNode()).as("compose.yaml has " + name).isFalse();
            String block = block(text, name);
            if (service.has("volumes")) {
                assertThat(block).as(name + "'s volumes").contains("volumes: !reset []");
            }
            if (service.has("ports")) {
                assertThat(block).as(name + "'s ports").contains("ports: !override [");
                for (int i = 0; i < service.path("ports").size(); i++) {
                    String pair = service.path("ports").get(i).asText().replaceFirst("^127\\.0\\.0\\.1:", "");
                    assertThat(remote.path(name).path("ports").get(i).asText()).as(name + "'s port")
                            .isEqualTo("${LAB_PUBLISH_ADDRESS:?}:" + pair);
                }
            }
        }
        assertThat(remote.path("jfr-dir").path("command").toString()).as("nothing to open without ./jfr")
                .isEqualTo("[\"true\"]");
    }

    /** The lines of one service in the text, up to the next service. */
    private static String block(String text, String name) {
        var m = Pattern.compile("(?ms)^  " + Pattern.quote(name) + ":\\n(.*?)(?=^  \\S|\\z)").matcher(text);
        assertThat(m.find()).as("compose.remote.yaml has " + name).isTrue();
        return m.group(1);
    }
}
