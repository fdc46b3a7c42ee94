package io.threadlab.experiment;

import io.threadlab.experiment.analyse.ThreadKind;
import io.threadlab.experiment.plan.Downstream;
import io.threadlab.experiment.plan.Variant;
import io.threadlab.experiment.start.JavaCommand;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.xpath.XPathConstants;
import javax.xml.xpath.XPathFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IntSummaryStatistics;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * plan.Variant describes each variant once; the files that cannot read it (the aggregator pom.xml, the bash scripts,
 * the mistakes service) keep lists of their own, and these tests hold each list to Variant: a variant one of them
 * forgets fails with the file's and the variant's name. compose.yaml and monitoring/ are held to it in
 * {@link ComposeFileTest}, kubernetes/ in {@link KubernetesManifestsTest}, the variant modules themselves in
 * {@link VariantParityTest}.
 */
class VariantListsTest {

    private static final Path LAB = Path.of("..").toAbsolutePath().normalize();
    private static final String DELAY_SERVICE = "delay-service";
    private static final String MISTAKES_SERVICE = "mistakes-service";

    @Test
    void theAggregatorPomBuildsEveryVariantsModule() throws Exception {
        Document pom = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(LAB.resolve("pom.xml").toFile());
        List<String> modules = texts(pom, "/project/modules/module");
        List<String> anyProfile = new ArrayList<>(modules);
        anyProfile.addAll(texts(pom, "/project/profiles/profile/modules/module"));
        for (Variant variant : Variant.all()) {
            assertThat(anyProfile).as("pom.xml's <modules> list module %s of variant %s", variant.module(), variant)
                    .contains(variant.module());
        }
        // The models and the control are built everywhere, before the runner, whose miniature experiment runs them.
        for (Variant variant : Variant.services()) {
            assertThat(modules).as("pom.xml's <modules> (outside a profile) list module %s of variant %s",
                    variant.module(), variant).contains(variant.module());
            assertThat(modules.indexOf(variant.module())).as("pom.xml: module %s of variant %s comes before "
                    + "experiment-runner", variant.module(), variant).isLessThan(modules.indexOf("experiment-runner"));
        }
    }

    @Test
    void composeTestChecksEveryVariantOnItsPortAndThread() throws IOException {
        String file = "scripts/compose-test.sh";
        String script = Files.readString(LAB.resolve(file));
        // "module port thread-name-regex virtual"
        Map<String, String[]> entries = new LinkedHashMap<>();
        bashArray(script, "variants").forEach(e -> entries.put(e.split(" ")[0], e.split(" ")));
        List<String> services = bashArray(script, "services");
        List<String> ports = bashArray(script, "ports");
        List<String> targets = prometheusTargets(script);
        for (Variant variant : Variant.services()) {
            String[] entry = entries.get(variant.module());
            assertThat(entry).as("%s: variants=(...) has an entry for %s of variant %s", file, variant.module(),
                    variant).isNotNull();
            assertThat(entry[1]).as("%s: variants=(...)'s port of variant %s", file, variant)
                    .isEqualTo(String.valueOf(variant.port()));
            assertThat(entry[2].replace("[0-9]+", "*")).as("%s: variants=(...)'s thread of variant %s (%s)", file,
                    variant, variant.threads()).isEqualTo(ThreadKind.valueOf(variant.threads().name()).pattern());
            assertThat(entry[3]).as("%s: variants=(...)'s virtual flag of variant %s", file, variant)
                    .isEqualTo(String.valueOf(variant.threads() == Variant.Threads.VIRTUAL));
            assertThat(services).as("%s: services=(...) starts variant %s", file, variant).contains(variant.module());
            assertThat(ports).as("%s: ports=(...) checks variant %s's port is free", file, variant)
                    .contains(String.valueOf(variant.port()));
            assertThat(targets).as("%s: the Prometheus check's targets scrape variant %s", file, variant)
                    .contains(variant.module() + ":" + variant.port());
        }
        assertThat(entries.keySet()).as("%s: variants=(...) names only plan.Variant's variants", file)
                .containsExactlyInAnyOrderElementsOf(modules(Variant.services()));
        assertThat(services).as("%s: services=(...) is the delay service and the variants", file)
                .containsExactlyInAnyOrderElementsOf(Stream.concat(Stream.of(DELAY_SERVICE),
                        modules(Variant.services()).stream()).toList());
        assertThat(ports).as("%s: ports=(...)", file).contains(String.valueOf(JavaCommand.DELAY_PORT));
        assertThat(targets).as("%s: the Prometheus check's targets", file)
                .contains(DELAY_SERVICE + ":" + JavaCommand.DELAY_PORT);
    }

    /** Dev mode runs each module on its default port, so it is asked there, on a path one of its variants serves. */
    @Test
    void devModeCheckStartsEveryModuleOfEveryVariant() throws IOException {
        String file = "scripts/dev-mode-check.sh";
        Map<String, String[]> entries = new LinkedHashMap<>(); // module -> module, port, path
        bashArray(Files.readString(LAB.resolve(file)), "services").forEach(e -> entries.put(e.split(":")[0],
                e.split(":", 3)));
        for (Variant variant : Variant.all()) {
            String[] entry = entries.get(variant.module());
            assertThat(entry).as("%s: services=(...) starts module %s of variant %s", file, variant.module(), variant)
                    .isNotNull();
            assertThat(entry[1]).as("%s: the port of module %s (variant %s)", file, variant.module(), variant)
                    .isEqualTo(defaultPort(variant.module()));
            assertThat(entry[2]).as("%s: the path asked of module %s (variant %s)", file, variant.module(), variant)
                    .isIn(Variant.all().stream().filter(v -> v.module().equals(variant.module())).map(Variant::path)
                            .toList());
        }
        assertThat(entries.keySet()).as("%s: services=(...) is the delay service and every variant's module", file)
                .containsExactlyInAnyOrderElementsOf(Stream.concat(Stream.of(DELAY_SERVICE),
                        modules(Variant.all()).stream()).toList());
        assertThat(entries.get(DELAY_SERVICE)[1]).isEqualTo(String.valueOf(JavaCommand.DELAY_PORT));
    }

    /**
     * The runner starts each mistake in a JVM of its own on the variant's port, so every port is a variant's alone;
     * mistakes-service serves each of its variants' paths, and its application.properties states the gallery's ports.
     */
    @Test
    void everyMistakeHasAPortOfItsOwnAndMistakesServiceServesItsPath() throws IOException {
        Map<Integer, List<String>> byPort = Variant.all().stream().collect(Collectors.groupingBy(Variant::port,
                LinkedHashMap::new, Collectors.mapping(Variant::label, Collectors.toList())));
        byPort.forEach((port, labels) -> assertThat(labels).as("plan.Variant: variants on port %d", port).hasSize(1));
        assertThat(byPort).as("plan.Variant: no variant on the delay service's port")
                .doesNotContainKey(JavaCommand.DELAY_PORT);

        Set<String> served = servedPaths(LAB.resolve(MISTAKES_SERVICE).resolve("src/main/java"));
        List<Variant> mine = Variant.all().stream().filter(v -> v.module().equals(MISTAKES_SERVICE)).toList();
        assertThat(mine).as("plan.Variant's variants served by %s", MISTAKES_SERVICE).isNotEmpty();
        for (Variant variant : mine) {
            for (Downstream downstream : Downstream.values()) {
                if (variant.path(downstream) != null) {
                    assertThat(served).as("%s serves %s, the %s path of variant %s", MISTAKES_SERVICE,
                            variant.path(downstream), downstream.label(), variant).contains(variant.path(downstream));
                }
            }
            if (variant.fanOutPath() != null) {
                assertThat(served).as("%s serves %s, the fan-out path of variant %s", MISTAKES_SERVICE,
                        variant.fanOutPath(), variant).contains(variant.fanOutPath());
            }
            assertThat(Stream.concat(Stream.of(Downstream.values()).map(variant::path), Stream.of(variant.fanOutPath()))
                    .filter(p -> p != null)).as("variant %s has a path", variant).isNotEmpty();
        }

        String file = MISTAKES_SERVICE + "/src/main/resources/application.properties";
        Matcher range = Pattern.compile("port: (\\d+) to (\\d+)").matcher(Files.readString(LAB.resolve(file)));
        assertThat(range.find()).as("%s states the gallery's ports ('port: N to M')", file).isTrue();
        IntSummaryStatistics gallery = Variant.all().stream().filter(v -> !Variant.services().contains(v))
                .mapToInt(Variant::port).summaryStatistics();
        assertThat(range.group(1) + " to " + range.group(2)).as("%s: the gallery's ports, as plan.Variant has them",
                file).isEqualTo(gallery.getMin() + " to " + gallery.getMax());
        assertThat(mine.stream().map(v -> String.valueOf(v.port()))).as("%s: its default port is a variant's", file)
                .contains(defaultPort(MISTAKES_SERVICE));
        assertThat(Files.readString(LAB.resolve(MISTAKES_SERVICE + "/src/main/docker/Dockerfile.jvm")))
                .as("%s's Dockerfile.jvm exposes its default port", MISTAKES_SERVICE)
                .contains("EXPOSE " + defaultPort(MISTAKES_SERVICE) + "\n");
    }

    private static List<String> modules(List<Variant> variants) {
        return variants.stream().map(Variant::module).distinct().toList();
    }

    private static List<String> texts(Document document, String xpath) throws Exception {
        NodeList nodes = (NodeList) XPathFactory.newInstance().newXPath().evaluate(xpath, document,
                XPathConstants.NODESET);
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < nodes.getLength(); i++) {
            texts.add(nodes.item(i).getTextContent().trim());
        }
        return texts;
    }

    /** The words of a bash array {@code name=(...)} at the start of a line; a quoted entry is one word. */
    private static List<String> bashArray(String script, String name) {
        Matcher array = Pattern.compile("(?m)^" + name + "=\\(([^)]*)\\)").matcher(script);
        assertThat(array.find()).as("the script assigns %s=(...)", name).isTrue();
        List<String> words = new ArrayList<>();
        Matcher word = Pattern.compile("\"([^\"]*)\"|(\\S+)").matcher(array.group(1));
        while (word.find()) {
            words.add(word.group(1) != null ? word.group(1) : word.group(2));
        }
        return words;
    }

    /** compose-test.sh's {@code for target in a b \ c; do}: the targets it asks Prometheus about. */
    private static List<String> prometheusTargets(String script) {
        Matcher loop = Pattern.compile("for target in ([^;]*);").matcher(script);
        assertThat(loop.find()).as("scripts/compose-test.sh asks Prometheus 'for target in ...; do'").isTrue();
        return Stream.of(loop.group(1).split("\\s+")).filter(w -> !w.isEmpty() && !w.equals("\\")).toList();
    }

    private static String defaultPort(String module) throws IOException {
        return Files.readAllLines(LAB.resolve(module).resolve("src/main/resources/application.properties")).stream()
                .filter(l -> l.startsWith("quarkus.http.port=")).map(l -> l.substring(l.indexOf('=') + 1).trim())
                .findFirst().orElseThrow(() -> new AssertionError(module + " sets no quarkus.http.port"));
    }

    /** The paths the JAX-RS resources under {@code sources} serve: each class's @Path, alone and with its methods'. */
    private static Set<String> servedPaths(Path sources) throws IOException {
        Pattern path = Pattern.compile("@Path\\(\"([^\"]*)\"\\)");
        Set<String> served = new HashSet<>();
        try (Stream<Path> files = Files.walk(sources)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                Matcher m = path.matcher(Files.readString(file));
                if (m.find()) {
                    String root = m.group(1);
                    served.add(root);
                    while (m.find()) {
                        served.add(root + m.group(1));
                    }
                }
            }
        }
        return served;
    }
}
