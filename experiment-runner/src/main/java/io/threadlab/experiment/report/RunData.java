package io.threadlab.experiment.report;

import com.fasterxml.jackson.databind.JsonNode;
import io.threadlab.experiment.collect.Json;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** What a results directory holds, read back for the report: rows, manifest, and the thread analysis if present. */
public record RunData(Path dir, JsonNode manifest, List<JsonNode> rows, List<JsonNode> warmUps,
                      List<JsonNode> timesToPeak, Optional<JsonNode> analysis) {

    public static RunData read(Path dir) throws IOException {
        Path results = dir.resolve("results.json");
        Path manifest = dir.resolve("manifest.json");
        if (!Files.isRegularFile(results) || !Files.isRegularFile(manifest)) {
            throw new IOException(dir + " is not a results directory (needs results.json and manifest.json)");
        }
        JsonNode root = Json.MAPPER.readTree(results.toFile());
        Path analysis = dir.resolve("analysis.json");
        return new RunData(dir, Json.MAPPER.readTree(manifest.toFile()), list(root.path("windows")),
                list(root.path("warm_ups")), list(root.path("time_to_peak")),
                Files.isRegularFile(analysis) ? Optional.of(Json.MAPPER.readTree(analysis.toFile())) : Optional.empty());
    }

    private static List<JsonNode> list(JsonNode array) {
        List<JsonNode> items = new ArrayList<>();
        array.forEach(items::add);
        return items;
    }

    /** Variants in the order the run names them. */
    public List<String> variants() {
        Set<String> names = new LinkedHashSet<>();
        manifest.path("plan").path("variants").forEach(v -> names.add(v.asText()));
        rows.forEach(r -> names.add(r.path("variant").asText()));
        return List.copyOf(names);
    }

    /** Closed-model user counts measured, in plan order. */
    public List<Integer> levels() {
        Set<Integer> levels = new LinkedHashSet<>();
        manifest.path("plan").path("closed_model_vus").forEach(v -> levels.add(v.asInt()));
        rows.stream().map(r -> r.path("scenario").asText()).filter(s -> s.matches("closed-\\d+"))
                .forEach(s -> levels.add(Integer.parseInt(s.substring("closed-".length()))));
        return List.copyOf(levels);
    }

    /** The headline rows of one cell: no detailed recording. */
    public List<JsonNode> cell(String variant, String scenario) {
        return rows.stream().filter(r -> r.path("variant").asText().equals(variant)
                && r.path("scenario").asText().equals(scenario)).toList();
    }

    public List<Double> values(String variant, String scenario, String column) {
        return cell(variant, scenario).stream().map(r -> r.path(column))
                .map(n -> n.isNumber() ? n.asDouble() : Double.NaN).toList();
    }

    public String manifestText(String... path) {
        JsonNode node = manifest;
        for (String p : path) {
            node = node.path(p);
        }
        return node.isMissingNode() || node.isNull() ? "unknown" : node.isTextual() ? node.asText() : node.toString();
    }
}
