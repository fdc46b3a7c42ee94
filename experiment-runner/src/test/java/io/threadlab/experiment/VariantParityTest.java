package io.threadlab.experiment;

import io.threadlab.experiment.plan.Variant;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The variant modules are copies on purpose (each runs alone), so that a diff of two of them shows only what the
 * threading model (or, against the control, the stack) changes. This keeps the shared files from drifting apart. The
 * variants are {@link Variant#services()}: a variant added there is held to the same files and settings here.
 */
class VariantParityTest {

    private static final Path LAB = Path.of("..").toAbsolutePath().normalize();
    private static final List<String> VARIANTS = Variant.services().stream().map(Variant::module).toList();
    /** The files that express the threading choice, and so may differ. */
    private static final List<String> THREADING_CHOICE = List.of("pom.xml", "ApiResource.java", "DelayClient.java",
            "application.properties", "ApiResourceTest.java", "NoPinningTest.java", "PinningRecorder.java",
            "Dockerfile.jvm");
    /** Files only one stack needs: present in every variant on Quarkus REST, absent on classic RESTEasy. */
    private static final List<String> QUARKUS_REST_ONLY = List.of("InlineClientTimer.java");
    private static final String STACK_SECTION = "# ---- The stack's own settings";

    /** Each variant's module runs as plan.Variant says: its own name and port (the runner and compose rely on both). */
    @Test
    void everyVariantIsAModuleOfItsOwnWithItsLabelAndPort() throws IOException {
        for (Variant variant : Variant.services()) {
            assertThat(LAB.resolve(variant.module())).as("the module %s of variant %s", variant.module(), variant)
                    .isDirectory();
            assertThat(properties(variant.module())).as("%s/src/main/resources/application.properties, variant %s",
                    variant.module(), variant).contains("lab.variant=" + variant.label(),
                    "quarkus.http.port=" + variant.port());
        }
    }

    @Test
    void everyFileOutsideTheThreadingChoiceIsIdenticalInEveryVariant() throws IOException {
        Set<Path> all = new TreeSet<>();
        for (String variant : VARIANTS) {
            all.addAll(sharedFiles(variant));
        }
        assertThat(all).as("shared files found").hasSizeGreaterThan(5);
        for (Path file : all) {
            List<String> holders = new ArrayList<>();
            for (String variant : VARIANTS) {
                if (Files.exists(LAB.resolve(variant).resolve(file))) {
                    holders.add(variant);
                }
            }
            List<String> expected = QUARKUS_REST_ONLY.contains(file.getFileName().toString())
                    ? onStack(Variant.Stack.QUARKUS_REST) : VARIANTS;
            assertThat(holders).as("variants holding " + file).isEqualTo(expected);
            for (String variant : holders) {
                assertThat(LAB.resolve(variant).resolve(file)).as(variant + "/" + file)
                        .hasSameTextualContentAs(LAB.resolve(holders.getFirst()).resolve(file));
            }
        }
    }

    @Test
    void theirConfigurationDiffersOnlyInNameAndPortAndTheStacksOwnSection() throws IOException {
        List<String> reference = shared(VARIANTS.getFirst());
        for (String variant : VARIANTS) {
            assertThat(shared(variant)).as(variant).isEqualTo(reference);
        }
        List<String> quarkusRest = onStack(Variant.Stack.QUARKUS_REST);
        assertThat(quarkusRest).as("variants on Quarkus REST").hasSizeGreaterThan(1);
        assertThat(stackSection(quarkusRest.getFirst())).as("the Quarkus REST stack's settings").isNotEmpty();
        for (Variant.Stack stack : Variant.Stack.values()) {
            List<String> on = onStack(stack);
            for (String variant : on) {
                assertThat(stackSection(variant)).as(variant + ": the " + stack + " stack's settings")
                        .isEqualTo(stackSection(on.getFirst()));
            }
        }
    }

    /** The mistakes service copies the variants' shared classes (each module runs alone); the copies must not drift. */
    @Test
    void theMistakesServicesCopiesOfTheSharedFilesAreTheVariantsOwn() throws IOException {
        List<Path> copied = sharedFiles("mistakes-service").stream()
                .filter(f -> Files.exists(LAB.resolve(Variant.REACTIVE.module()).resolve(f))).toList();
        assertThat(copied).as("files mistakes-service shares with the variants").hasSizeGreaterThan(5);
        for (Path file : copied) {
            assertThat(LAB.resolve("mistakes-service").resolve(file)).as("mistakes-service/" + file)
                    .hasSameTextualContentAs(LAB.resolve(Variant.REACTIVE.module()).resolve(file));
        }
    }

    /** The mistakes are measured against the variants, so they run with the same knobs on the same stack. */
    @Test
    void theMistakesServiceHasTheVariantsKnobsAndTheQuarkusRestStacksSettings() throws IOException {
        List<String> reference = shared(Variant.REACTIVE.module()).stream().filter(l -> !l.startsWith("#")).toList();
        assertThat(shared("mistakes-service").stream().filter(l -> !l.startsWith("#")).toList())
                .as("mistakes-service's settings before its stack section").isEqualTo(reference);
        List<String> stack = stackSection("mistakes-service");
        assertThat(stack).as("mistakes-service's stack section, then its own")
                .startsWith(stackSection(Variant.REACTIVE.module()).toArray(String[]::new));
    }

    /** The modules of the variants on {@code stack}. */
    private static List<String> onStack(Variant.Stack stack) {
        return Variant.services().stream().filter(v -> v.stack() == stack).map(Variant::module).toList();
    }

    private static List<Path> sharedFiles(String variant) throws IOException {
        Path root = LAB.resolve(variant);
        try (Stream<Path> files = Files.walk(root.resolve("src"))) {
            return files.filter(Files::isRegularFile)
                    .filter(f -> !THREADING_CHOICE.contains(f.getFileName().toString()))
                    .map(root::relativize).toList();
        }
    }

    private static List<String> properties(String variant) throws IOException {
        return Files.readAllLines(LAB.resolve(variant).resolve("src/main/resources/application.properties"));
    }

    private static List<String> shared(String variant) throws IOException {
        List<String> lines = properties(variant);
        int stack = lines.stream().filter(l -> l.startsWith(STACK_SECTION)).findFirst().map(lines::indexOf)
                .orElseThrow(() -> new AssertionError(variant + " has no '" + STACK_SECTION + "' section"));
        return lines.subList(0, stack).stream()
                .filter(l -> !l.startsWith("lab.variant=") && !l.startsWith("quarkus.http.port=")).toList();
    }

    private static List<String> stackSection(String variant) throws IOException {
        List<String> lines = properties(variant);
        return lines.subList(lines.indexOf(lines.stream().filter(l -> l.startsWith(STACK_SECTION)).findFirst()
                .orElseThrow()), lines.size());
    }
}
