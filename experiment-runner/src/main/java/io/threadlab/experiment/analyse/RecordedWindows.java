package io.threadlab.experiment.analyse;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.threadlab.experiment.collect.Json;
import io.threadlab.experiment.collect.RunRecord;
import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.Downstream;
import io.threadlab.experiment.plan.WindowId;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the runner measured of each recorded window, beside its recording: results.json's row (found by its
 * jfr_file), the downstream delay and which downstream it was, and the run's database port. Rows are read as
 * format 3 writes them (grouped: window.jfr_file, at.delay_ms, cpu.cpu_ms_per_request, ...) and as formats 1 and 2
 * wrote them (flat). Every field may be missing (an older runner, a recording without its run), and then the analysis
 * says less, never something else.
 */
final class RecordedWindows {

    /**
     * The part of a results.json row the analysis reads; null where the row, or the field, is not there.
     *
     * @param downstream "http" or "db" (format 3's at.downstream; rows before the database have none)
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    record Row(@JsonProperty("jfr_file") String jfrFile,
               @JsonProperty("cpu_ms_per_request") Double cpuMsPerRequest,
               @JsonProperty("delay_ms") Integer delayMs,
               @JsonProperty("per_second") List<Double> perSecond,
               @JsonProperty("measured_at") String measuredAt,
               @JsonProperty("downstream") String downstream,
               @JsonProperty("fan_out") Integer fanOut,
               @JsonProperty("fan_out_mode") String fanOutMode,
               @JsonProperty("jvm_label") String jvmLabel,
               @JsonProperty("jvm") Integer jvm,
               @JsonProperty("users") Integer users,
               @JsonProperty("requests_per_second") Double requestsPerSecond,
               @JsonProperty("delay_served_mean_ms") Double delayServedMeanMs,
               @JsonProperty("pool_size") Integer poolSize) {

        static final Row NONE = new Row(null, null, null, null, null, null, null, null, null, null, null, null, null,
                null);

        /** The recorded JVM's log in {@code runDir} (logs/imperative-jvm1.log), or null where the row does not say. */
        Path serviceLog(Path runDir) {
            return jvmLabel == null || jvm == null ? null : runDir.resolve("logs").resolve(jvmLabel + "-jvm" + jvm
                    + ".log");
        }

        /** The window's downstream, or null where the row does not say (or says something unknown). */
        Downstream downstreamOrNull() {
            try {
                return downstream == null ? null : Downstream.parse(downstream);
            } catch (IllegalArgumentException e) {
                return null;
            }
        }
    }

    /**
     * Where format 3 keeps each field the analysis reads: the group of the window's result it sits in, by the name
     * the flat formats gave it.
     */
    private static final Map<String, String> GROUPED = Map.ofEntries(
            Map.entry("jfr_file", "window"),
            Map.entry("measured_at", "window"),
            Map.entry("cpu_ms_per_request", "cpu"),
            Map.entry("delay_ms", "at"),
            Map.entry("downstream", "at"),
            Map.entry("per_second", "load"),
            Map.entry("fan_out", "at"),
            Map.entry("fan_out_mode", "at"),
            Map.entry("jvm_label", "window"),
            Map.entry("jvm", "window"),
            Map.entry("users", "at"),
            Map.entry("requests_per_second", "load"),
            Map.entry("delay_served_mean_ms", "instruments"),
            Map.entry("pool_size", "at"));

    private final Map<String, Row> byRecording;
    private final Integer runDelayMs;
    private final Integer runDatabasePort;
    private final String jdk;

    private RecordedWindows(Map<String, Row> byRecording, Integer runDelayMs, Integer runDatabasePort, String jdk) {
        this.byRecording = byRecording;
        this.runDelayMs = runDelayMs;
        this.runDatabasePort = runDatabasePort;
        this.jdk = jdk;
    }

    /**
     * The rows of {@code runDir}/results.json, for a format-1 run its one delay from manifest.json, the database
     * port the run's services were given (its manifest's knob lab.db.url), and the JDK the run's JVMs ran
     * ({@link RunRecord#jdk()}).
     */
    static RecordedWindows read(Path runDir) {
        JsonNode manifest = tree(runDir.resolve("manifest.json"));
        return new RecordedWindows(rows(runDir.resolve("results.json")), legacyDelay(manifest),
                databasePort(manifest), jdk(runDir));
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

    /** The database port of the recording's run, or null where its manifest does not name one. */
    Integer databasePort() {
        return runDatabasePort;
    }

    private static Map<String, Row> rows(Path resultsJson) {
        Map<String, Row> rows = new LinkedHashMap<>();
        JsonNode root = tree(resultsJson);
        if (root == null) {
            // Without it the analysis still gives shares; only what the rows add is missing.
            return rows;
        }
        try {
            for (JsonNode node : root.has("windows") ? root.get("windows") : root) { // an array before JVM starts
                Row row = Json.MAPPER.treeToValue(flat(node), Row.class);
                if (row.jfrFile() != null) {
                    rows.put(Path.of(row.jfrFile()).getFileName().toString(), row);
                }
            }
        } catch (IOException e) {
            return Map.of();
        }
        return rows;
    }

    /** A format-3 row with the fields the analysis reads lifted out of their groups; a flat row as it is. */
    private static JsonNode flat(JsonNode row) {
        if (!row.path("window").isObject()) {
            return row;
        }
        ObjectNode flat = Json.MAPPER.createObjectNode();
        GROUPED.forEach((field, group) -> {
            JsonNode value = row.path(group).get(field);
            if (value != null) {
                flat.set(field, value);
            }
        });
        return flat;
    }

    /** Format 1 (no "format" in the manifest) had one delay for the whole run, among the variants' knobs. */
    private static Integer legacyDelay(JsonNode manifest) {
        if (manifest == null) {
            return null;
        }
        JsonNode delay = manifest.path("knobs").path("lab.delay.ms");
        return manifest.path("format").asInt(1) == 1 && delay.canConvertToInt() && delay.isNumber()
                ? delay.asInt() : null;
    }

    /** The port in the manifest's lab.db.url ("postgresql://127.0.0.1:5432/lab"), the one the services used. */
    private static Integer databasePort(JsonNode manifest) {
        String url = manifest == null ? "" : manifest.path("knobs").path("lab.db.url").asText("");
        Matcher port = DB_PORT.matcher(url);
        return port.find() ? Integer.valueOf(port.group(1)) : null;
    }

    private static final Pattern DB_PORT = Pattern.compile("^[a-z:]+//[^/:]+:(\\d+)");

    private static JsonNode tree(Path file) {
        if (!Files.isRegularFile(file)) {
            return null;
        }
        try {
            return Json.MAPPER.readTree(file.toFile());
        } catch (IOException e) {
            return null;
        }
    }
}
