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
 *
 * <p>The threading model also decides the database client of {@code GET /api/articles}: the event loop cannot wait
 * for JDBC, so the reactive variant reads the lab's database with the reactive PostgreSQL client, and the variants
 * whose threads may block (workers, virtual threads) with JDBC through Agroal. Its files and settings are the same in
 * every variant on one client; the query, the rows' mapping, the JSON and the errors are the same in all.
 *
 * <p>So does the fan-out of {@code GET /api/fanout}: each model forks its calls the way its users would
 * (FanoutResource), and runs short of threads or connections in its own way (FanoutLimitsTest); the request's rules,
 * its JSON and the test of its contract are the same in every variant.
 */
class VariantParityTest {

    private static final Path LAB = Path.of("..").toAbsolutePath().normalize();
    private static final List<String> VARIANTS = Variant.services().stream().map(Variant::module).toList();
    /** The files that express the threading choice, and so may differ. */
    private static final List<String> THREADING_CHOICE = List.of("pom.xml", "ApiResource.java", "DelayClient.java",
            "application.properties", "ApiResourceTest.java", "NoPinningTest.java", "PinningRecorder.java",
            "Dockerfile.jvm", "ArticleResource.java", "ArticleResourceTest.java", "NoPinningInJdbcTest.java",
            "FanoutResource.java", "FanoutLimitsTest.java");
    /**
     * Files only one stack needs: present in every variant on Quarkus REST, absent on classic RESTEasy (a build on
     * Quarkus 3.27's timer, src/platform-3.27, and the settings that register it).
     */
    private static final List<String> QUARKUS_REST_ONLY = List.of("InlineClientTimer.java",
            "microprofile-config.properties");
    /** The database client's files: in every variant, the same in the variants on one client. */
    private static final List<String> DATABASE_CLIENT = List.of("ArticleRepository.java");
    /** Files only the reactive client needs (Quarkus 3.27 has no key for its pool's acquisition timeout). */
    private static final List<String> REACTIVE_CLIENT_ONLY = List.of("PoolAcquisitionTimeout.java");
    private static final String STACK_SECTION = "# ---- The stack's own settings";
    private static final String CLIENT_SECTION = "# ---- The database client's own settings";
    /** lab-database's page query, which every module that reads the database copies byte for byte. */
    private static final Path PAGE_QUERY =
            Path.of("lab-database/src/main/resources/io/threadlab/database/article-page.sql");
    private static final Path PAGE_QUERY_COPY = Path.of("src/main/resources/article-page.sql");
    private static final String MISTAKES_SERVICE = "mistakes-service";

    /** The database client each variant's threading model calls for. */
    private enum Client {
        /** JDBC through Agroal: the calling thread waits, which workers and virtual threads may. */
        JDBC,
        /** The reactive PostgreSQL client: the event loop must not wait. */
        REACTIVE;

        static Client of(Variant variant) {
            return variant.threads() == Variant.Threads.EVENT_LOOP ? REACTIVE : JDBC;
        }
    }

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
            String name = file.getFileName().toString();
            List<String> expected = QUARKUS_REST_ONLY.contains(name) ? onStack(Variant.Stack.QUARKUS_REST)
                    : REACTIVE_CLIENT_ONLY.contains(name) ? onClient(Client.REACTIVE) : VARIANTS;
            assertThat(holders).as("variants holding " + file).isEqualTo(expected);
            List<List<String>> alike = DATABASE_CLIENT.contains(name)
                    ? List.of(onClient(Client.JDBC), onClient(Client.REACTIVE)) : List.of(holders);
            for (List<String> group : alike) {
                for (String variant : group) {
                    assertThat(LAB.resolve(variant).resolve(file)).as(variant + "/" + file)
                            .hasSameTextualContentAs(LAB.resolve(group.getFirst()).resolve(file));
                }
            }
        }
    }

    /** The services send lab-database's query as it is: each module's copy is the file itself, byte for byte. */
    @Test
    void everyCopyOfThePageQueryIsLabDatabasesOwn() throws IOException {
        byte[] original = Files.readAllBytes(LAB.resolve(PAGE_QUERY));
        List<String> modules = new ArrayList<>(VARIANTS);
        modules.add(MISTAKES_SERVICE);
        for (String module : modules) {
            assertThat(Files.readAllBytes(LAB.resolve(module).resolve(PAGE_QUERY_COPY)))
                    .as(module + "/" + PAGE_QUERY_COPY + " against " + PAGE_QUERY).isEqualTo(original);
        }
    }

    @Test
    void theirConfigurationDiffersOnlyInNameAndPortAndTheStacksAndDatabaseClientsOwnSections() throws IOException {
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
        for (Client client : Client.values()) {
            List<String> on = onClient(client);
            assertThat(on).as("variants on the " + client + " database client").isNotEmpty();
            assertThat(clientSection(on.getFirst())).as(on.getFirst() + ": the " + client + " client's settings")
                    .isNotEmpty();
            for (String variant : on) {
                assertThat(clientSection(variant)).as(variant + ": the " + client + " client's settings")
                        .isEqualTo(clientSection(on.getFirst()));
            }
        }
    }

    /**
     * The mistakes service copies the variants' shared classes (each module runs alone); the copies must not drift.
     * Its database client is JDBC (its mistake is JDBC on the event loop), so it copies the JDBC variants' files.
     */
    @Test
    void theMistakesServicesCopiesOfTheSharedFilesAreTheVariantsOwn() throws IOException {
        List<Path> copied = sharedFiles(MISTAKES_SERVICE).stream()
                .filter(f -> Files.exists(LAB.resolve(Variant.REACTIVE.module()).resolve(f))).toList();
        assertThat(copied).as("files mistakes-service shares with the variants").hasSizeGreaterThan(5);
        String jdbcOnQuarkusRest = jdbcOnQuarkusRest();
        for (Path file : copied) {
            String original = DATABASE_CLIENT.contains(file.getFileName().toString()) ? jdbcOnQuarkusRest
                    : Variant.REACTIVE.module();
            assertThat(LAB.resolve(MISTAKES_SERVICE).resolve(file))
                    .as("mistakes-service/" + file + " against " + original)
                    .hasSameTextualContentAs(LAB.resolve(original).resolve(file));
        }
    }

    /** The mistakes are measured against the variants, so they run with the same knobs on the same stack. */
    @Test
    void theMistakesServiceHasTheVariantsKnobsAndTheQuarkusRestStacksSettings() throws IOException {
        List<String> reference = shared(Variant.REACTIVE.module()).stream().filter(l -> !l.startsWith("#")).toList();
        assertThat(shared("mistakes-service").stream().filter(l -> !l.startsWith("#")).toList())
                .as("mistakes-service's settings before its stack section").isEqualTo(reference);
        assertThat(stackSection(MISTAKES_SERVICE)).as("mistakes-service's stack section")
                .isEqualTo(stackSection(Variant.REACTIVE.module()));
        assertThat(clientSection(MISTAKES_SERVICE)).as("mistakes-service's database client section, the JDBC one")
                .isEqualTo(clientSection(jdbcOnQuarkusRest()));
    }

    /** The modules of the variants on {@code stack}. */
    private static List<String> onStack(Variant.Stack stack) {
        return Variant.services().stream().filter(v -> v.stack() == stack).map(Variant::module).toList();
    }

    /** The modules of the variants on the database client {@code client}. */
    private static List<String> onClient(Client client) {
        return Variant.services().stream().filter(v -> Client.of(v) == client).map(Variant::module).toList();
    }

    /** A variant on the mistakes service's stack and database client, whose files it copies. */
    private static String jdbcOnQuarkusRest() {
        return Variant.services().stream()
                .filter(v -> v.stack() == Variant.Stack.QUARKUS_REST && Client.of(v) == Client.JDBC)
                .map(Variant::module).findFirst().orElseThrow();
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

    /** From the stack's section to the database client's. */
    private static List<String> stackSection(String variant) throws IOException {
        return section(variant, STACK_SECTION);
    }

    /** From the database client's section to the next section (the mistakes service's own) or the end. */
    private static List<String> clientSection(String variant) throws IOException {
        return section(variant, CLIENT_SECTION);
    }

    private static List<String> section(String variant, String header) throws IOException {
        List<String> lines = properties(variant);
        int start = lines.stream().filter(l -> l.startsWith(header)).findFirst().map(lines::indexOf)
                .orElseThrow(() -> new AssertionError(variant + " has no '" + header + "' section"));
        int end = start + 1;
        while (end < lines.size() && !lines.get(end).startsWith("# ---- ")) {
            end++;
        }
        while (lines.get(end - 1).isBlank()) { // the blank line before the next section
            end--;
        }
        return lines.subList(start, end);
    }
}
