package io.threadlab.experiment.analyse;

import io.threadlab.experiment.plan.WindowId;
import io.threadlab.experiment.plan.Axis;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.threadlab.experiment.collect.Json;
import io.threadlab.experiment.collect.RunRecord;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the runner measured of each recorded window, beside its recording: results.json's row (found by its
 * jfr_file), and the downstream delay. Every field may be missing (an older runner, a recording without its run),
 * and then the analysis says less, never something else.
 */
final class RecordedWindows {

    /** The part of a results.json row the analysis reads; null where the row, or the field, is not there. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    record Row(@JsonProperty("jfr_file") String jfrFile,
               @JsonProperty("cpu_ms_per_request") Double cpuMsPerRequest,
               @JsonProperty("delay_ms") Integer delayMs,
               @JsonProperty("per_second") List<Double> perSecond,
               @JsonProperty("measured_at") String measuredAt) {

        static final Row NONE = new Row(null, null, null, null, null);
    }

    private final Map<String, Row> byRecording;
    private final Integer runDelayMs;
    private final String jdk;

    private RecordedWindows(Map<String, Row> byRecording, Integer runDelayMs, String jdk) {
        this.byRecording = byRecording;
        this.runDelayMs = runDelayMs;
        this.jdk = jdk;
    }

    /**
     * The rows of {@code runDir}/results.json, for a format-1 run its one delay from manifest.json, and the JDK the
     * run's JVMs ran ({@link RunRecord#jdk()}).
     */
    static RecordedWindows read(Path runDir) {
        return new RecordedWindows(rows(runDir.resolve("results.json")), legacyDelay(runDir.resolve("manifest.json")),
                jdk(runDir));
    }

    /** The Java version of the recorded JVMs, null where the run does not say (or there is no run). */
    String jdk() {
        return jdk;
    }

    private static String jdk(Path runDir) {
        try {
            return RunRecord.read(runDir).jdk().orElse(null);
        } catch (IOException | RuntimeException e) {
            return null; // a recording without its run, or a run this runner cannot read: the JDK is not known
        }
    }

    Row row(Path recording) {
        return byRecording.getOrDefault(recording.getFileName().toString(), Row.NONE);
    }

    /**
     * The downstream delay the recorded window was measured at: its row's delay_ms, else the delay in the runner's
     * name for it, else a format-1 run's one delay; null when none says.
     */
    Integer delayMs(Path recording, String window) {
        Integer fromRow = row(recording).delayMs();
        if (fromRow != null) {
            return fromRow;
        }
        return WindowId.parse(window).map(id -> id.at().get(Axis.DELAY_MS)).orElse(runDelayMs);
    }

    private static Map<String, Row> rows(Path resultsJson) {
        Map<String, Row> rows = new LinkedHashMap<>();
        if (!Files.isRegularFile(resultsJson)) {
            return rows;
        }
        try {
            JsonNode root = Json.MAPPER.readTree(resultsJson.toFile());
            for (JsonNode node : root.has("windows") ? root.get("windows") : root) { // an array before JVM starts
                Row row = Json.MAPPER.treeToValue(node.path("window").isObject() ? flat(node) : node, Row.class);
                if (row.jfrFile() != null) {
                    rows.put(Path.of(row.jfrFile()).getFileName().toString(), row);
                }
            }
        } catch (IOException e) {
            // Without it the analysis still gives shares; only what the rows add is missing.
            return Map.of();
        }
        return rows;
    }

    /**
     * A row of format 3, its fields in groups (window, at, load, cpu, ...), as one object: the fields this reads have
     * the same names in every format, only their place differs.
     */
    private static JsonNode flat(JsonNode grouped) {
        ObjectNode flat = Json.MAPPER.createObjectNode();
        grouped.properties().forEach(group -> {
            if (group.getValue() instanceof ObjectNode fields) {
                flat.setAll(fields);
            }
        });
        return flat;
    }

    /** Format 1 (no "format" in the manifest) had one delay for the whole run, among the variants' knobs. */
    private static Integer legacyDelay(Path manifestJson) {
        if (!Files.isRegularFile(manifestJson)) {
            return null;
        }
        try {
            JsonNode manifest = Json.MAPPER.readTree(manifestJson.toFile());
            JsonNode delay = manifest.path("knobs").path("lab.delay.ms");
            return manifest.path("format").asInt(1) == 1 && delay.canConvertToInt() && delay.isNumber()
                    ? delay.asInt() : null;
        } catch (IOException e) {
            return null;
        }
    }
}
