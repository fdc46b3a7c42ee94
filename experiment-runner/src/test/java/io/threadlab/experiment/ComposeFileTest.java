package io.threadlab.experiment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.threadlab.experiment.collect.Json;
import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.Knobs;
import io.threadlab.experiment.plan.Variant;
import io.threadlab.experiment.start.JavaCommand;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.yaml.snakeyaml.Yaml;
import picocli.CommandLine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The container path's invariants, checked on the files themselves (no Docker engine needed): the delay service and
 * every variant of {@link Variant#services()}, the same quota, memory, flags and knobs for every variant from the one
 * .env the runner reads too, parallel Dockerfiles, JFR recorded into a directory the containers may write,
 * healthchecks, the load and monitoring profiles (every variant scraped and on the dashboard), and base images that
 * scripts/prepare-base-images.sh can stand in for. Where Docker with the compose plugin is installed, compose itself
 * also validates the file. scripts/compose-test.sh runs it all for real.
 */
class ComposeFileTest {

    private static final Path LAB = ComposeFile.LAB;
    /** The variants are plan.Variant's, so that a variant compose.yaml or monitoring/ forgets fails here, by name. */
    private static final List<Variant> VARIANTS = Variant.services();
    /** Every service built from a Dockerfile of its own, by module: the delay service and the variants. */
    private static final Map<String, Integer> PORTS = ports();

    private final ComposeFile composeFile = ComposeFile.read();
    private final JsonNode compose = composeFile.root();
    private final Map<String, String> env = composeFile.env();

    ComposeFileTest() throws IOException {
    }

    private static Map<String, Integer> ports() {
        Map<String, Integer> ports = new LinkedHashMap<>();
        ports.put("delay-service", JavaCommand.DELAY_PORT);
        VARIANTS.forEach(v -> ports.put(v.module(), v.port()));
        return ports;
    }

    private JsonNode service(String name) {
        return composeFile.service(name);
    }

    private String resolved(JsonNode value) {
        return composeFile.resolved(value);
    }

    /** The variant's service, named after its module; a variant compose.yaml lacks fails here with its name. */
    private JsonNode service(Variant variant) {
        JsonNode service = service(variant.module());
        assertThat(service.isMissingNode()).as("compose.yaml has no service %s for variant %s", variant.module(),
                variant.label()).isFalse();
        return service;
    }

    @Test
    void theDelayServiceAndEveryVariantAreThereOnTheirLocalPortsWithTheirOwnDockerfiles() throws IOException {
        for (Map.Entry<String, Integer> s : PORTS.entrySet()) {
            JsonNode service = service(s.getKey());
            assertThat(service.isMissingNode()).as("compose.yaml has a service %s", s.getKey()).isFalse();
            assertThat(service.path("ports").path(0).asText()).as("compose.yaml: %s's port", s.getKey())
                    .isEqualTo("127.0.0.1:" + s.getValue() + ":" + s.getValue());
            assertThat(service.path("build").path("context").asText()).isEqualTo(".");
            String dockerfile = service.path("build").path("dockerfile").asText();
            assertThat(dockerfile).isEqualTo(s.getKey() + "/src/main/docker/Dockerfile.jvm");
            String text = Files.readString(LAB.resolve(dockerfile));
            assertThat(text.lines().filter(l -> l.startsWith("FROM "))).as("multi-stage: build, then run").hasSize(2)
                    .last().asString().contains("-jdk"); // a JDK, so jcmd is there for JFR
            assertThat(text).contains("USER lab", "ENTRYPOINT [\"java\", \"-jar\"", "EXPOSE " + s.getValue())
                    .contains("useradd --uid 1000"); // the uid that writes into ./jfr (see jfr-dir)
            assertThat(Files.readString(LAB.resolve(s.getKey() + "/src/main/resources/application.properties")))
                    .contains("quarkus.http.port=" + s.getValue());
        }
        assertThat(Files.readString(LAB.resolve(".dockerignore"))).contains("**/target/", "results/");
    }

    /** ... and no variant plan.Variant does not know: what the runner cannot measure, compose should not run. */
    @Test
    void composeRunsExactlyTheVariantsOfPlanVariant() {
        List<String> variantServices = new ArrayList<>();
        compose.path("services").properties().forEach(s -> {
            if (s.getValue().path("cpus").asText().equals("${LAB_CPUS}")) { // the x-variant anchor's quota: a variant
                variantServices.add(s.getKey());
            }
        });
        assertThat(variantServices).as("compose.yaml's services at the variants' quota")
                .containsExactlyInAnyOrderElementsOf(VARIANTS.stream().map(Variant::module).toList());
    }

    @Test
    void theDockerfilesDifferOnlyInTheServicesNameAndPort() throws IOException {
        String reference = null;
        for (Map.Entry<String, Integer> s : PORTS.entrySet()) {
            String text = Files.readString(LAB.resolve(s.getKey() + "/src/main/docker/Dockerfile.jvm"))
                    .replace(s.getKey(), "<service>").replace(String.valueOf(s.getValue()), "<port>");
            if (reference == null) {
                reference = text;
            }
            assertThat(text).as(s.getKey() + "'s Dockerfile.jvm, name and port aside").isEqualTo(reference);
        }
        // The classic builder (engines without buildx) builds them too: no BuildKit-only instructions.
        assertThat(reference).doesNotContain("--mount=", "# syntax=", "<<EOF");
        // The dependency layer comes before the sources, so that a source change downloads nothing: the build after
        // them runs offline.
        assertThat(reference.indexOf("RUN mvn")).isPositive().isLessThan(reference.indexOf("COPY <service>/src"));
        assertThat(reference.substring(reference.indexOf("COPY <service>/src"))).contains("RUN mvn -B -q -o ");
    }

    @Test
    void theVariantsMayWriteTheirRecordingsIntoTheHostsJfrDirectory() {
        JsonNode init = service("jfr-dir");
        assertThat(init.isMissingNode()).as("the one-shot that opens ./jfr to uid 1000").isFalse();
        assertThat(init.path("user").asText()).isEqualTo("root");
        assertThat(init.path("volumes").toString()).contains("./jfr:/recordings");
        assertThat(init.path("command").toString()).contains("chgrp 1000 /recordings", "chmod g+rwx /recordings");
        assertThat(init.path("ports").isMissingNode()).isTrue();
        // No image of its own: it runs on the variants' runtime base, present wherever they were built.
        assertThat(init.path("image").asText()).isEqualTo(runtimeBase());
        for (Variant variant : VARIANTS) {
            assertThat(service(variant).path("depends_on").path("jfr-dir").path("condition").asText())
                    .as("compose.yaml: %s waits for jfr-dir", variant.module())
                    .isEqualTo("service_completed_successfully");
        }
    }

    @Test
    void everyBaseImageIsOneThatThePrepareScriptCanStandInForWithoutARegistry() throws IOException {
        String script = Files.readString(LAB.resolve("scripts/prepare-base-images.sh"));
        List<String> images = new ArrayList<>();
        for (String name : PORTS.keySet()) {
            Files.readString(LAB.resolve(name + "/src/main/docker/Dockerfile.jvm")).lines()
                    .filter(l -> l.startsWith("FROM ")).map(l -> l.split("\\s+")[1]).forEach(images::add);
        }
        for (String name : List.of("jfr-dir", "k6", "prometheus")) {
            images.add(service(name).path("image").asText());
        }
        for (String image : images) {
            assertThat(script).as("scripts/prepare-base-images.sh makes " + image).contains("=" + image + "\n");
        }
        // Grafana has no stand-in; the script and the README say what to use instead.
        assertThat(script).contains(service("grafana").path("image").asText());
        assertThat(Files.isExecutable(LAB.resolve("scripts/prepare-base-images.sh"))).isTrue();
        assertThat(Files.isExecutable(LAB.resolve("scripts/compose-test.sh"))).isTrue();
    }

    private String runtimeBase() {
        try {
            return Files.readString(LAB.resolve("imperative-service/src/main/docker/Dockerfile.jvm")).lines()
                    .filter(l -> l.startsWith("FROM ")).reduce((a, b) -> b).orElseThrow().split("\\s+")[1];
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void everyVariantGetsTheSameQuotaMemoryFlagsAndKnobsFromTheOneEnvFile() {
        List<String> flags = new ArrayList<>();
        List<String> knobNames = new ArrayList<>();
        compose.path("x-knobs").fieldNames().forEachRemaining(knobNames::add);
        assertThat(knobNames).as("compose.yaml's x-knobs").contains("DELAY_URL", "LAB_WORKER_POOL_MAX");
        for (Variant variant : VARIANTS) {
            JsonNode service = service(variant);
            assertThat(resolved(service.path("cpus"))).isEqualTo(env.get("LAB_CPUS")).isEqualTo("0.5");
            assertThat(resolved(service.path("mem_limit"))).isEqualTo(env.get("LAB_MEMORY"));
            String options = resolved(service.path("environment").path("JDK_JAVA_OPTIONS"));
            flags.add(options.replaceAll("filename=/recordings/[a-z-]+\\.jfr", "filename=<own>"));
            JsonNode environment = service.path("environment");
            List<String> names = new ArrayList<>();
            environment.fieldNames().forEachRemaining(names::add);
            assertThat(names).as("compose.yaml: variant %s's environment has every knob of x-knobs", variant.label())
                    .containsAll(knobNames);
            assertThat(resolved(environment.path("LAB_CONNECTION_POOL_SIZE")))
                    .isEqualTo(env.get("LAB_CONNECTION_POOL_SIZE"));
            assertThat(resolved(environment.path("LAB_WORKER_POOL_MAX"))).isEqualTo(env.get("LAB_WORKER_POOL_MAX"));
            assertThat(environment.has("LAB_DELAY_MS"))
                    .as("compose.yaml: variant %s sets no wait (LAB_DELAY_MS): the delay service decides it", variant)
                    .isFalse();
            assertThat(environment.path("DELAY_URL").asText()).isEqualTo("http://delay-service:8090");
            // The lab's PostgreSQL, the database service, which a variant does not wait for: it starts without it.
            assertThat(environment.path("DB_URL").asText()).isEqualTo("postgresql://database:5432/lab");
            assertThat(resolved(environment.path("LAB_DB_POOL_SIZE"))).isEqualTo(env.get("LAB_DB_POOL_SIZE"));
            assertThat(service(variant).path("depends_on").has("database"))
                    .as("compose.yaml: variant %s does not wait for the database", variant).isFalse();
        }
        assertThat(flags).as("identical JVM flags apart from the recording's file name").containsOnly(flags.getFirst());

        // ... and they are the runner's defaults: one source of truth, not two copies.
        RunCommand run = new RunCommand();
        new CommandLine(run).parseArgs();
        Knobs knobs = run.plan().knobs();
        for (String flag : knobs.jvmFlags()) {
            assertThat(flags.getFirst()).contains(flag);
        }
        assertThat(knobs.cpuQuota()).isEqualTo(Double.parseDouble(env.get("LAB_CPUS")));
        assertThat(knobs.connectionPoolSize()).isEqualTo(Integer.parseInt(env.get("LAB_CONNECTION_POOL_SIZE")));
    }

    /**
     * Each variant reads the two database knobs compose passes, under these names: the pool from .env (on its class
     * path, lab-settings, or in its environment), with no default of its own.
     */
    @Test
    void theVariantsReadTheDatabaseKnobsComposeGivesThem() throws IOException {
        assertThat(env).containsKey("LAB_DB_POOL_SIZE");
        for (Variant variant : VARIANTS) {
            List<String> properties = Files.readAllLines(
                    LAB.resolve(variant.module()).resolve("src/main/resources/application.properties"));
            assertThat(properties).as("%s's application.properties", variant.module())
                    .contains("lab.db.url=${DB_URL:postgresql://127.0.0.1:5432/lab}",
                            "lab.db.pool-size=${LAB_DB_POOL_SIZE}");
        }
    }

    /**
     * .env is the one source of the knobs' values: no service's application.properties, and no service of
     * compose.yaml, writes one out again, not even at .env's value. The services map each knob from .env's setting
     * (lab-settings puts the file on their class path) with no fallback; compose passes each setting under its own
     * name, as the variable of that name. {@link #everyOneSourceCheckRejectsAValueWrittenOutAgain} feeds the checks
     * copies altered to break them, one way each.
     */
    @Test
    void noServiceAndNoComposeServiceWritesAValueOfTheOneEnvFile() throws IOException {
        assertThat(OneSource.problems(OneSource.properties(), compose, env)).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("valuesWrittenOutAgain")
    void everyOneSourceCheckRejectsAValueWrittenOutAgain(String alteration, String module, String from, String to,
                                                         String expected) throws IOException {
        Map<String, String> properties = OneSource.properties();
        JsonNode altered = compose;
        if (module.equals("compose.yaml")) {
            String text = Files.readString(LAB.resolve("compose.yaml"));
            assertThat(text).contains(from);
            altered = Json.MAPPER.valueToTree(new Yaml().load(text.replace(from, to)));
        } else {
            assertThat(properties.get(module)).as(module).contains(from);
            properties.put(module, properties.get(module).replace(from, to));
        }
        assertThat(OneSource.problems(properties, altered, env)).as("the checks with %s", alteration)
                .anySatisfy(problem -> assertThat(problem).contains(expected));
    }

    static Stream<Arguments> valuesWrittenOutAgain() {
        return Stream.of(
                Arguments.of("a variant's worker maximum written out", "reactive-service",
                        "quarkus.thread-pool.max-threads=${LAB_WORKER_POOL_MAX}", "quarkus.thread-pool.max-threads=200",
                        "reactive-service: quarkus.thread-pool.max-threads=200"),
                Arguments.of("a fallback again", "imperative-service", "lab.db.pool-size=${LAB_DB_POOL_SIZE}",
                        "lab.db.pool-size=${LAB_DB_POOL_SIZE:20}", "a fallback of its own"),
                Arguments.of("the delay written out", "delay-service", "lab.delay.default-ms=${LAB_DELAY_MS}",
                        "lab.delay.default-ms=10", "delay-service: lab.delay.default-ms=10"),
                Arguments.of("the mistakes' pool written out", "mistakes-service",
                        "quarkus.rest-client.delay.connection-pool-size=${LAB_CONNECTION_POOL_SIZE}",
                        "quarkus.rest-client.delay.connection-pool-size=1000", "mistakes-service: quarkus.rest-client"),
                Arguments.of("a setting .env lacks", "virtual-thread-service",
                        "quarkus.thread-pool.max-threads=${LAB_WORKER_POOL_MAX}",
                        "quarkus.thread-pool.max-threads=${LAB_WORKERS}", "${LAB_WORKERS}, which .env lacks"),
                Arguments.of("compose writing a knob's key out", "compose.yaml",
                        "  LAB_WORKER_POOL_MAX: ${LAB_WORKER_POOL_MAX}\n",
                        "  LAB_WORKER_POOL_MAX: ${LAB_WORKER_POOL_MAX}\n  QUARKUS_THREAD_POOL_MAX_THREADS: \"200\"\n",
                        "QUARKUS_THREAD_POOL_MAX_THREADS"),
                Arguments.of("compose writing a setting of .env out", "compose.yaml",
                        "  LAB_WORKER_POOL_MAX: ${LAB_WORKER_POOL_MAX}\n", "  LAB_WORKER_POOL_MAX: \"200\"\n",
                        "LAB_WORKER_POOL_MAX: 200"),
                Arguments.of("compose writing the delay out", "compose.yaml", "LAB_DELAY_MS: ${LAB_DELAY_MS}",
                        "LAB_DELAY_MS: 10", "delay-service: LAB_DELAY_MS: 10"),
                Arguments.of("compose writing the heap out", "compose.yaml",
                        "-Xms${LAB_HEAP} -Xmx${LAB_HEAP} -XX:+Use${LAB_GC}GC\n        ${LAB_RECORD_FROM_START--XX:StartFlightRecording=settings=/lab/threads.jfc,filename=/recordings/reactive-service.jfr",
                        "-Xms512m -Xmx512m -XX:+UseSerialGC\n        ${LAB_RECORD_FROM_START--XX:StartFlightRecording=settings=/lab/threads.jfc,filename=/recordings/reactive-service.jfr",
                        "reactive-service: JDK_JAVA_OPTIONS"));
    }

    /** The checks of {@link #noServiceAndNoComposeServiceWritesAValueOfTheOneEnvFile}, on texts that may be altered. */
    static final class OneSource {

        /** A reference to a setting of .env, and one with a fallback of its own. */
        private static final Pattern SETTING = Pattern.compile("\\$\\{(LAB_[A-Z0-9_]+)(:[^}]*)?}");

        /** Each service module's application.properties, by module. */
        static Map<String, String> properties() throws IOException {
            Map<String, String> properties = new LinkedHashMap<>();
            for (String module : ComposeFile.serviceModules()) {
                properties.put(module, Files.readString(LAB.resolve(module)
                        .resolve("src/main/resources/application.properties")));
            }
            return properties;
        }

        static List<String> problems(Map<String, String> properties, JsonNode compose, Map<String, String> env)
                throws IOException {
            List<String> problems = new ArrayList<>();
            // The keys that take a knob: plan.Axis' Quarkus keys, each from its .env setting, and the delay service's.
            Map<String, String> knobs = new LinkedHashMap<>();
            for (Axis<?> axis : Axis.all()) {
                if (axis.envKey() != null && axis.effect().quarkusProperty() != null) {
                    knobs.put(axis.effect().quarkusProperty(), axis.envKey());
                }
            }
            assertThat(knobs).as("plan.Axis' knobs set as Quarkus keys").isNotEmpty();
            Map<String, String> mapped = new LinkedHashMap<>(); // key -> setting, over every module
            properties.forEach((module, text) -> {
                Map<String, String> expected = new LinkedHashMap<>();
                if (module.equals("delay-service")) {
                    expected.put("lab.delay.default-ms", Axis.DELAY_MS.envKey());
                } else {
                    expected.putAll(knobs);
                }
                Map<String, String> values = new LinkedHashMap<>();
                for (String line : text.lines().map(String::strip).toList()) {
                    if (line.isEmpty() || line.startsWith("#") || !line.contains("=")) {
                        continue;
                    }
                    String key = line.substring(0, line.indexOf('='));
                    String value = line.substring(line.indexOf('=') + 1);
                    values.put(key, value);
                    Matcher setting = SETTING.matcher(value);
                    while (setting.find()) {
                        if (setting.group(2) != null) {
                            problems.add(module + ": " + line + " gives .env's " + setting.group(1)
                                    + " a fallback of its own: .env's value is the default, from lab-settings");
                        }
                        if (!env.containsKey(setting.group(1))) {
                            problems.add(module + ": " + line + " reads ${" + setting.group(1) + "}, which .env lacks");
                        }
                        if (value.equals("${" + setting.group(1) + "}")) {
                            mapped.put(key, setting.group(1));
                        }
                    }
                }
                expected.forEach((key, setting) -> {
                    String value = values.get(key);
                    if (!("${" + setting + "}").equals(value)) {
                        problems.add(module + ": " + key + "=" + value + ", where the value is .env's: " + key
                                + "=${" + setting + "}");
                    }
                });
            });
            for (String module : properties.keySet()) {
                if (!Files.readString(LAB.resolve(module).resolve("pom.xml")).contains(
                        "<artifactId>lab-settings</artifactId>")) {
                    problems.add(module + "/pom.xml: no dependency on lab-settings, which puts .env on the class path");
                }
            }
            // compose.yaml: .env's settings under their own names, from the variable of that name; no key the
            // services map from a setting (that mapping is theirs alone); the JVM's heap and collector from .env.
            Map<String, String> mappedVariables = new LinkedHashMap<>();
            mapped.forEach((key, setting) -> {
                if (!ComposeFile.variableOf(key).equals(setting)) { // lab.db.pool-size's variable is the setting's own
                    mappedVariables.put(ComposeFile.variableOf(key), setting);
                }
            });
            List<String> services = new ArrayList<>(List.of("delay-service"));
            VARIANTS.forEach(v -> services.add(v.module()));
            for (String service : services) {
                JsonNode definition = compose.path("services").path(service);
                definition.path("environment").properties().forEach(e -> {
                    String name = e.getKey();
                    String raw = e.getValue().asText();
                    if (env.containsKey(name) && !raw.equals("${" + name + "}")) {
                        problems.add("compose.yaml: " + service + ": " + name + ": " + raw + ", not ${" + name
                                + "}: .env's value, written out or renamed");
                    }
                    if (mappedVariables.containsKey(name)) {
                        problems.add("compose.yaml: " + service + ": " + name + ": " + raw + " sets a key the service"
                                + " maps from .env's " + mappedVariables.get(name) + " itself: pass "
                                + mappedVariables.get(name) + " instead");
                    }
                });
                String options = definition.path("environment").path("JDK_JAVA_OPTIONS").asText();
                if (!options.contains("-Xms${LAB_HEAP} -Xmx${LAB_HEAP} -XX:+Use${LAB_GC}GC")) {
                    problems.add("compose.yaml: " + service + ": JDK_JAVA_OPTIONS " + options
                            + " takes the heap and the collector from elsewhere than .env's LAB_HEAP and LAB_GC");
                }
            }
            return problems;
        }
    }

    /** The wait is the delay service's own default (every variant sends the same GET /delay), set from .env. */
    @Test
    void theDelayServiceWaitsTheDelayFromTheOneEnvFile() throws IOException {
        JsonNode environment = service("delay-service").path("environment");
        assertThat(environment.path("LAB_DELAY_MS").asText()).isEqualTo("${LAB_DELAY_MS}");
        assertThat(resolved(environment.path("LAB_DELAY_MS"))).isEqualTo(env.get("LAB_DELAY_MS"));
        // ... the setting the key the delay service reads maps (and, where compose passes nothing, the jar's .env) ...
        assertThat(Files.readAllLines(LAB.resolve("delay-service/src/main/resources/application.properties")))
                .contains("lab.delay.default-ms=${LAB_DELAY_MS}");
        // ... and the runner's default, which its compose engine passes as LAB_DELAY_MS.
        RunCommand run = new RunCommand();
        new CommandLine(run).parseArgs();
        assertThat(run.plan().delays()).containsExactly(Integer.parseInt(env.get("LAB_DELAY_MS")));
    }

    @Test
    void eachVariantRecordsWithTheLabsJfcAndDumpsOnExitIntoTheHostsJfrDirectory() {
        for (Variant variant : VARIANTS) {
            JsonNode service = service(variant);
            assertThat(resolved(service.path("environment").path("JDK_JAVA_OPTIONS")))
                    .contains("-XX:StartFlightRecording=settings=/lab/threads.jfc,filename=/recordings/"
                            + variant.module() + ".jfr,dumponexit=true");
            // ... which the runner's compose engine switches off, recording its windows one by one instead
            assertThat(service.path("environment").path("JDK_JAVA_OPTIONS").asText())
                    .contains("${LAB_RECORD_FROM_START-");
            List<String> volumes = new ArrayList<>();
            service.path("volumes").forEach(v -> volumes.add(v.asText()));
            assertThat(volumes).contains("./jfr/threads.jfc:/lab/threads.jfc:ro", "./jfr:/recordings");
        }
    }

    @Test
    void variantsStartOnlyOnceTheDelayServiceIsHealthy() {
        for (String name : PORTS.keySet()) {
            JsonNode check = service(name).path("healthcheck").path("test");
            assertThat(check.toString()).as("compose.yaml: %s's healthcheck", name)
                    .contains("/dev/tcp/127.0.0.1/" + PORTS.get(name), "/q/health/ready");
        }
        for (Variant variant : VARIANTS) {
            assertThat(service(variant).path("depends_on").path("delay-service").path("condition").asText())
                    .as("compose.yaml: %s waits for the delay service", variant.module()).isEqualTo("service_healthy");
        }
    }

    /** The lab's PostgreSQL: on demand, on loopback, its own quota and settings from .env, built like the services. */
    @Test
    void theDatabaseIsAProfileWithItsOwnQuotaAndTheSettingsOfTheOneEnvFile() throws IOException {
        JsonNode database = service("database");
        assertThat(database.isMissingNode()).as("compose.yaml has a service database").isFalse();
        assertThat(database.path("profiles").toString()).contains("database");
        assertThat(database.path("ports").path(0).asText()).isEqualTo("127.0.0.1:5432:5432");
        assertThat(database.path("cpus").asText()).isEqualTo("${LAB_DB_CPUS}");
        assertThat(resolved(database.path("cpus"))).isEqualTo(env.get("LAB_DB_CPUS"));
        List<String> command = new ArrayList<>();
        database.path("command").forEach(c -> command.add(c.asText()));
        assertThat(command).startsWith("serve").contains("--listen=0.0.0.0",
                "--max-connections=${LAB_DB_MAX_CONNECTIONS}", "--shared-buffers=${LAB_DB_SHARED_BUFFERS}",
                "--fsync=${LAB_DB_FSYNC}");
        command.forEach(c -> resolved(new TextNode(c))); // each ${KEY} is in .env
        assertThat(env).containsKey("LAB_DB_POOL_SIZE");
        assertThat(database.path("healthcheck").path("test").toString()).contains("/dev/tcp/127.0.0.1/5432");

        String dockerfile = database.path("build").path("dockerfile").asText();
        assertThat(dockerfile).isEqualTo("lab-database/src/main/docker/Dockerfile.jvm");
        String text = Files.readString(LAB.resolve(dockerfile));
        String script = Files.readString(LAB.resolve("scripts/prepare-base-images.sh"));
        assertThat(text.lines().filter(l -> l.startsWith("FROM ")).map(l -> l.split("\\s+")[1]))
                .as("the services' base images, which the prepare script makes").hasSize(2)
                .allSatisfy(image -> assertThat(script).contains("=" + image + "\n"))
                .last().isEqualTo(runtimeBase());
        assertThat(text).contains("USER lab", "useradd --uid 1000", "ENTRYPOINT [\"java\", \"-jar\"", "EXPOSE 5432");
    }

    @Test
    void loadAndMonitoringAreProfilesWithTheirFilesInTheRepo() throws IOException {
        JsonNode k6 = service("k6");
        assertThat(k6.path("profiles").toString()).contains("load");
        assertThat(k6.path("image").asText()).startsWith("grafana/k6:");
        assertThat(k6.path("volumes").toString()).contains("./k6:/scripts:ro");
        assertThat(service("prometheus").path("profiles").toString()).contains("monitoring");
        assertThat(service("grafana").path("profiles").toString()).contains("monitoring");

        JsonNode prometheus = Json.MAPPER.valueToTree(new Yaml().load(
                Files.readString(LAB.resolve("monitoring/prometheus.yml"))));
        Map<String, String> targets = new LinkedHashMap<>(); // target -> its variant label
        prometheus.path("scrape_configs").forEach(job -> {
            assertThat(job.path("metrics_path").asText()).isEqualTo("/q/metrics");
            job.path("static_configs").forEach(c -> c.path("targets").forEach(
                    t -> targets.put(t.asText(), c.path("labels").path("variant").asText())));
        });
        assertThat(targets).as("monitoring/prometheus.yml scrapes the delay service")
                .containsKey("delay-service:" + JavaCommand.DELAY_PORT);
        for (Variant variant : VARIANTS) {
            assertThat(targets).as("monitoring/prometheus.yml scrapes variant %s as target %s:%d, labelled "
                    + "variant: %s", variant.label(), variant.module(), variant.port(), variant.label())
                    .containsEntry(variant.module() + ":" + variant.port(), variant.label());
        }

        JsonNode dashboard = Json.MAPPER.readTree(LAB.resolve("monitoring/grafana/dashboards/thread-lab.json").toFile());
        List<String> exprs = new ArrayList<>();
        dashboard.path("panels").forEach(p -> p.path("targets").forEach(t -> exprs.add(t.path("expr").asText())));
        assertThat(String.join("\n", exprs)).contains("http_server_requests_seconds_count",
                "http_server_requests_seconds_bucket", "jvm_threads_live_threads", "worker_pool_active",
                "process_cpu_usage");
        assertThat(Files.readString(LAB.resolve("monitoring/grafana/provisioning/datasources/prometheus.yml")))
                .contains("url: http://prometheus:9090");
        // The dashboard picks the variants as every target but the delay service, so a new one needs no edit there;
        // a query that picks variants by name must pick every one. Every selector on the variant label is judged,
        // and there must be some: a dashboard whose queries lost their selectors would otherwise pass on none.
        Matcher picked = Pattern.compile("variant\\s*(=~|!~|!=|=)\\s*\"([^\"]*)\"")
                .matcher(String.join("\n", exprs));
        List<String> selectors = new ArrayList<>();
        while (picked.find()) {
            String selector = "variant" + picked.group(1) + "\"" + picked.group(2) + "\"";
            selectors.add(selector);
            switch (picked.group(1)) {
                case "!=" -> assertThat(picked.group(2)).as("monitoring/grafana/dashboards/thread-lab.json: %s leaves"
                        + " out a target other than the delay service", selector).isEqualTo("delay-service");
                case "=~" -> {
                    List<String> names = List.of(picked.group(2).split("\\|"));
                    for (Variant variant : VARIANTS) {
                        assertThat(names).as("monitoring/grafana/dashboards/thread-lab.json: %s picks variant %s",
                                selector, variant.label()).contains(variant.label());
                    }
                }
                case "!~" -> {
                    for (Variant variant : VARIANTS) {
                        assertThat(variant.label()).as("monitoring/grafana/dashboards/thread-lab.json: %s leaves out"
                                + " variant %s", selector, variant.label()).doesNotMatch(picked.group(2));
                    }
                }
                default -> throw new AssertionError("monitoring/grafana/dashboards/thread-lab.json: " + selector
                        + " picks one variant by name; pick every target but the delay service instead");
            }
        }
        assertThat(selectors).as("the dashboard's queries select the variants by their label").isNotEmpty();
    }

    @Test
    void dockerComposeAcceptsTheFileWhereItIsInstalled() throws Exception {
        Process probe;
        try {
            probe = new ProcessBuilder("docker", "compose", "version").redirectErrorStream(true).start();
        } catch (IOException e) {
            Assumptions.abort("docker compose config -q needs the docker CLI, which this machine lacks");
            return;
        }
        probe.getInputStream().readAllBytes();
        Assumptions.assumeTrue(probe.waitFor(30, TimeUnit.SECONDS) && probe.exitValue() == 0,
                "docker compose config -q needs the compose plugin, which the docker CLI here lacks");
        Process config = new ProcessBuilder("docker", "compose", "config", "-q").directory(LAB.toFile())
                .redirectErrorStream(true).start();
        String out = new String(config.getInputStream().readAllBytes());
        assertThat(config.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(config.exitValue()).as(out).isZero();
    }
}
