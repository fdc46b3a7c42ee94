package io.threadlab.experiment;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The variant modules are copies on purpose (each runs alone), so that a diff of two of them shows only what
 * the threading model changes. This keeps the shared files from drifting apart.
 */
class VariantParityTest {

    private static final Path LAB = Path.of("..").toAbsolutePath().normalize();
    private static final List<String> VARIANTS = List.of("imperative-service", "reactive-service",
            "virtual-thread-service", "imperative-rest-service");
    /** The files that express the threading choice, and so may differ. */
    private static final List<String> THREADING_CHOICE = List.of("pom.xml", "ApiResource.java", "DelayClient.java",
            "application.properties", "ApiResourceTest.java", "NoPinningTest.java", "PinningRecorder.java",
            "Dockerfile.jvm");

    @Test
    void everyFileOutsideTheThreadingChoiceIsIdenticalInEveryVariant() throws IOException {
        Path first = LAB.resolve(VARIANTS.getFirst());
        List<Path> shared;
        try (Stream<Path> files = Files.walk(first.resolve("src"))) {
            shared = files.filter(Files::isRegularFile)
                    .filter(f -> !THREADING_CHOICE.contains(f.getFileName().toString()))
                    .map(first::relativize).toList();
        }
        assertThat(shared).as("shared files found").hasSizeGreaterThan(5);
        for (String variant : VARIANTS.subList(1, VARIANTS.size())) {
            for (Path file : shared) {
                assertThat(LAB.resolve(variant).resolve(file)).as(variant + "/" + file)
                        .hasSameTextualContentAs(first.resolve(file));
            }
        }
    }

    @Test
    void theirConfigurationDiffersOnlyInNameAndPort() throws IOException {
        List<String> reference = normalised("imperative-service");
        for (String variant : VARIANTS) {
            assertThat(normalised(variant)).as(variant).isEqualTo(reference);
        }
    }

    private static List<String> normalised(String variant) throws IOException {
        return Files.readAllLines(LAB.resolve(variant).resolve("src/main/resources/application.properties")).stream()
                .filter(l -> !l.startsWith("lab.variant=") && !l.startsWith("quarkus.http.port=")).toList();
    }
}
