package io.threadlab.experiment.collect;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Recorded runs' manifests, read into {@link RunManifest} and written again as {@link Manifest} writes them, against
 * what this runner wrote from the same files before the manifest's records were grouped: byte for byte. A change
 * to the manifest's shape in Java keeps these; a change meant to alter manifest.json regenerates them (the actual
 * output of a failing run is left in {@code target/manifest-before-after/}).
 */
class ManifestBeforeAfterTest {

    @ParameterizedTest
    @ValueSource(strings = {"golden/run-d6f4758", "golden/run-4fa4b52-2x2", "golden/default-1", "golden/map-1",
            "golden/2026-11-28T18-19-26Z", "predict/run-7be1ba9"})
    void theManifestIsWrittenAsBefore(String run) throws IOException, URISyntaxException {
        URL url = getClass().getResource("/" + run);
        assertThat(url).as(run).isNotNull();
        RunManifest manifest = RunRecord.read(Path.of(url.toURI())).manifest();

        String written = Json.MAPPER.writeValueAsString(manifest);

        String name = run.replace('/', '-') + ".json";
        try (InputStream expected = getClass().getResourceAsStream("/manifest-before-after/" + name)) {
            String before = expected == null ? null : new String(expected.readAllBytes(), StandardCharsets.UTF_8);
            if (!written.equals(before)) {
                Path kept = Path.of("target", "manifest-before-after", name);
                Files.createDirectories(kept.getParent());
                Files.writeString(kept, written);
            }
            assertThat(written).as(run + "/manifest.json as written again (actual in target/manifest-before-after)")
                    .isEqualTo(before);
        }
    }
}
