package io.threadlab.experiment.collect;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.Point;

import java.lang.reflect.RecordComponent;

/**
 * Results directories of earlier runners, read as today's: format 1 (runners up to d6f4758: no format number, the
 * downstream delay only among the variants' settings, no plan mode, windows without their delay, users or knobs) and
 * format 2 (runners up to 4fa4b52: every window one flat object). Reading them fills in what they did not say from
 * what they did, so that a report of an old run states the same facts as it did then.
 */
final class LegacyFormat {

    /**
     * What format 1 left unsaid had the values of its only configuration: one delay of 10 ms, 0.5 CPU, 200 workers, a
     * pool of 1,000 (the manifest's knobs, where it has them, win).
     */
    private static final int FORMAT_1_DELAY_MS = 10;
    private static final double FORMAT_1_CPU_QUOTA = 0.5;
    private static final int FORMAT_1_WORKER_MAX = 200;
    private static final int FORMAT_1_POOL_SIZE = 1000;

    private static final PropertyNamingStrategies.SnakeCaseStrategy SNAKE = new PropertyNamingStrategies
            .SnakeCaseStrategy();

    private LegacyFormat() {
    }

    static JsonNode manifest(ObjectNode manifest) {
        manifest.put("format", 1);
        JsonNode plan = manifest.path("plan");
        if (plan instanceof ObjectNode p) {
            if (!p.has("delays_ms")) {
                ArrayNode delays = p.putArray("delays_ms");
                delays.add(manifest.path("knobs").path("lab.delay.ms").asInt(FORMAT_1_DELAY_MS));
            }
            if (!p.has("mode")) {
                p.put("mode", "run");
            }
        }
        manifest.remove("variants"); // format 1 wrote an empty map here
        return manifest;
    }

    /** Every window of a format 1 or 2 run as a format 3 window: its fields grouped as {@link WindowResult}'s. */
    static JsonNode results(ObjectNode results, JsonNode manifest, int format) {
        for (JsonNode row : results.path("windows")) {
            if (row instanceof ObjectNode w && !w.path("window").isObject()) {
                fillFromManifest(w, manifest);
                group(w);
            }
        }
        return results;
    }

    /**
     * Format 1's windows did not say their delay, users or the JVM's knobs (and a format 2 window may lack one): every
     * window of such a run had the run's own, from the manifest.
     */
    private static void fillFromManifest(ObjectNode w, JsonNode manifest) {
        JsonNode knobs = manifest.path("knobs");
        putIfAbsent(w, "delay_ms", knobs.path("lab.delay.ms").asInt(FORMAT_1_DELAY_MS));
        putIfAbsent(w, "cpu_quota", manifest.path("confinement").path("variant_cpu_quota")
                .asDouble(FORMAT_1_CPU_QUOTA));
        putIfAbsent(w, "worker_max", knobs.path("quarkus.thread-pool.max-threads").asInt(FORMAT_1_WORKER_MAX));
        putIfAbsent(w, "pool_size", knobs.path("quarkus.rest-client.delay.connection-pool-size")
                .asInt(FORMAT_1_POOL_SIZE));
        String scenario = w.path("scenario").asText();
        if (!w.hasNonNull("users") && scenario.matches("closed-\\d+(-jfr)?")) {
            w.put("users", Integer.parseInt(scenario.replaceAll("\\D+", "")));
        }
    }

    /** A flat window's fields moved into the groups that declare them; the point's axes into {@code at}. */
    private static void group(ObjectNode w) {
        ObjectNode flat = w.deepCopy();
        w.removeAll();
        for (RecordComponent group : WindowResult.class.getRecordComponents()) {
            String groupName = SNAKE.translate(group.getName());
            if (group.getType() == Point.class) {
                ObjectNode at = w.putObject(groupName);
                Axis.dimensions().forEach(a -> move(flat, a.name(), at));
            } else if (group.getType().isRecord()) {
                ObjectNode fields = w.putObject(groupName);
                for (RecordComponent field : group.getType().getRecordComponents()) {
                    move(flat, SNAKE.translate(field.getName()), fields);
                }
                if (group.getType() == WindowResult.Prediction.class
                        || group.getType() == WindowResult.BurstFigures.class) {
                    w.remove(groupName); // no earlier runner made one
                }
            } else {
                move(flat, groupName, w);
            }
        }
        ObjectNode identity = (ObjectNode) w.get("window");
        identity.put("role", "measured");
        String jfr = identity.path("jfr_file").asText("");
        identity.put("id", !jfr.isEmpty() ? jfr.replaceAll("^.*/|\\.jfr$", "")
                : identity.path("jvm_label").asText(identity.path("variant").asText()) + "-"
                + w.path("at").path("delay_ms").asText() + "ms-" + identity.path("scenario").asText() + "-"
                + identity.path("repetition").asText());
    }

    private static void move(ObjectNode from, String field, ObjectNode to) {
        if (from.has(field) && !from.get(field).isNull()) {
            to.set(field, from.get(field));
        }
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
