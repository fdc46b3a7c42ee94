package io.threadlab.experiment.collect;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Results format 1 (runners up to d6f4758): the same files and field names, without a format number, with the
 * downstream delay only among the variants' settings ({@code lab.delay.ms}) and without a plan mode. Reading it
 * fills those in, so that a report of an old run states the same facts as it did then.
 */
final class LegacyFormat {

    private LegacyFormat() {
    }

    static JsonNode manifest(ObjectNode manifest) {
        manifest.put("format", 1);
        JsonNode plan = manifest.path("plan");
        if (plan instanceof ObjectNode p) {
            if (!p.has("delays_ms")) {
                ArrayNode delays = p.putArray("delays_ms");
                delays.add(manifest.path("knobs").path("lab.delay.ms").asInt(10));
            }
            if (!p.has("mode")) {
                p.put("mode", "run");
            }
        }
        manifest.remove("variants"); // format 1 wrote an empty map here
        return manifest;
    }
}
