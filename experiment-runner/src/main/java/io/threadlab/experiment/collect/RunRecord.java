package io.threadlab.experiment.collect;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * A results directory read back through the types that wrote it: the manifest and the results. Anything missing or
 * malformed is refused with the file and the field at fault; a directory written by an earlier runner (no format in
 * its manifest) is read as format 1 through {@link LegacyFormat}, one written by a later runner is refused with the
 * format it needs.
 */
public record RunRecord(Path dir, RunManifest manifest, RunResults results) {

    static final ObjectMapper READER = Json.MAPPER.copy()
            .configure(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES, false);

    public static RunRecord read(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            throw new IOException(dir + " is not a directory");
        }
        JsonNode manifestTree = tree(dir.resolve("manifest.json"));
        JsonNode resultsTree = tree(dir.resolve("results.json"));
        int format = manifestTree.path("format").asInt(1);
        if (format > RunManifest.FORMAT) {
            throw new IOException(dir.resolve("manifest.json") + ": results format " + format + " was written by a"
                    + " newer runner; this one reads formats 1 to " + RunManifest.FORMAT + " (update the lab)");
        }
        if (format == 1) {
            manifestTree = LegacyFormat.manifest((ObjectNode) manifestTree);
        }
        if (format < RunManifest.FORMAT) {
            resultsTree = LegacyFormat.results((ObjectNode) resultsTree, manifestTree, format);
        }
        return new RunRecord(dir, bind(dir.resolve("manifest.json"), manifestTree, RunManifest.class),
                bind(dir.resolve("results.json"), resultsTree, RunResults.class, format < RunManifest.FORMAT));
    }

    /**
     * The Java version the measured JVMs ran, as the run recorded it: what each JVM reported of itself before its
     * warm-up (/lab/runtime's javaVersion), where they all agree; else, for JVMs the local engine started with the
     * runner's own JDK, the runner's version. Empty where nothing says (a container runs its image's JDK) and where
     * the JVMs disagree (no one JDK is the run's).
     */
    public Optional<String> jdk() {
        Set<String> reported = new TreeSet<>();
        Stream.concat(results.warmUps().stream(), results.timeToPeak().stream()).map(w -> w.before("javaVersion"))
                .filter(Objects::nonNull).map(String::valueOf).forEach(reported::add);
        if (!reported.isEmpty()) {
            return reported.size() == 1 ? Optional.of(reported.iterator().next()) : Optional.empty();
        }
        RunManifest.Lab lab = manifest.lab();
        RunManifest.Confinement confinement = manifest.confinement();
        return lab != null && lab.runnerJavaVersion() != null && confinement != null
                && "local".equals(confinement.engine()) ? Optional.of(lab.runnerJavaVersion()) : Optional.empty();
    }

    /** The thread analysis (analysis.json) as a tree for {@code T}, when the directory has one. */
    public <T> Optional<T> optional(String file, Class<T> type) throws IOException {
        Path path = dir.resolve(file);
        return Files.isRegularFile(path) ? Optional.of(bind(path, tree(path), type)) : Optional.empty();
    }

    private static JsonNode tree(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            throw new IOException(file + " is missing: not a results directory of ./experiment run");
        }
        try {
            JsonNode node = READER.readTree(file.toFile());
            if (node == null || !node.isObject()) {
                throw new IOException(file + " is not a JSON object");
            }
            return node;
        } catch (JsonProcessingException e) {
            throw new IOException(file + " is not valid JSON (line " + e.getLocation().getLineNr() + "): "
                    + e.getOriginalMessage(), e);
        }
    }

    static <T> T bind(Path file, JsonNode tree, Class<T> type) throws IOException {
        return bind(file, tree, type, false);
    }

    /** @param regrouped the tree is an earlier format's, its windows' fields grouped since: name them as the file does */
    private static <T> T bind(Path file, JsonNode tree, Class<T> type, boolean regrouped) throws IOException {
        try {
            return READER.treeToValue(tree, type);
        } catch (JsonMappingException e) {
            String field = e.getPath().stream().map(r -> r.getFieldName() != null ? r.getFieldName()
                    : "[" + r.getIndex() + "]").reduce((a, b) -> b.startsWith("[") ? a + b : a + "." + b).orElse("?");
            if (regrouped) {
                field = field.replaceFirst("^(windows\\[\\d+])\\.[a-z_]+\\.", "$1.");
            }
            throw new IOException(file + ": field '" + field + "' " + e.getOriginalMessage(), e);
        }
    }
}
