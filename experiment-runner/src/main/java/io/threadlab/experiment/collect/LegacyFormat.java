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

    /**
     * Format 1's windows did not say their delay, users or the JVM's knobs: every window of such a run had the run's
     * own, from the manifest.
     */
    static JsonNode results(ObjectNode results, JsonNode manifest) {
        JsonNode knobs = manifest.path("knobs");
        for (JsonNode row : results.path("windows")) {
            if (row instanceof ObjectNode w) {
                putIfAbsent(w, "delay_ms", knobs.path("lab.delay.ms").asInt(10));
                putIfAbsent(w, "cpu_quota", manifest.path("confinement").path("variant_cpu_quota").asDouble(0.5));
                putIfAbsent(w, "worker_max", knobs.path("quarkus.thread-pool.max-threads").asInt(200));
                putIfAbsent(w, "pool_size", knobs.path("quarkus.rest-client.delay.connection-pool-size").asInt(1000));
                String scenario = w.path("scenario").asText();
                if (!w.hasNonNull("users") && scenario.matches("closed-\\d+(-jfr)?")) {
                    w.put("users", Integer.parseInt(scenario.replaceAll("\\D+", "")));
                }
            }
        }
        return results;
    }

    private static void putIfAbsent(ObjectNode row, String field, Number value) {
        if (row.hasNonNull(field)) {
            return;
        }
        if (value instanceof Integer i) {
            row.put(field, i);
        } else {
            row.put(field, value.doubleValue());
        }
    }
}
