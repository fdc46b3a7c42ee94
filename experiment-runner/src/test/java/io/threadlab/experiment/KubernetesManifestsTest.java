package io.threadlab.experiment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.threadlab.experiment.collect.Json;
import io.threadlab.experiment.plan.Variant;
import io.threadlab.experiment.start.JavaCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.yaml.snakeyaml.Yaml;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * kubernetes/ as a cluster would take it, checked on the files alone (no cluster ran them here; docs/kubernetes.md
 * keeps what was checked apart from what was run): every document a Kubernetes object of a known kind with the fields
 * a cluster needs; every variant of {@link Variant#services()} a Deployment and a Service on its port; the variants'
 * quota, memory, JVM flags and knobs identical, and those compose.yaml gives them from .env; the delay service as
 * compose.yaml runs it; one k6 Job per variant, running a script of k6/ against that variant's Service. The checks are
 * also fed manifests altered to break them, one way each, and must reject every one: a check that cannot fail proves
 * nothing.
 */
class KubernetesManifestsTest {

    private static final Path LAB = ComposeFile.LAB;
    private static final String NAMESPACE = "quarkus-thread-lab";
    private static final String DELAY_SERVICE = "delay-service";
    private static final String COMPONENT = "app.kubernetes.io/component";
    /** The kinds kubernetes/ holds, with the API version of each. */
    private static final Map<String, String> API_VERSIONS = Map.of("Namespace", "v1", "Service", "v1",
            "Deployment", "apps/v1", "Job", "batch/v1");
    /**
     * Fields of the API's PodSpec and Container, the common ones (add one here when a manifest needs it): the API
     * server refuses a misspelt field, and a misspelt probe or limit would otherwise pass every other check unseen.
     */
    private static final Set<String> POD_FIELDS = Set.of("affinity", "automountServiceAccountToken", "containers",
            "dnsPolicy", "enableServiceLinks", "imagePullSecrets", "initContainers", "nodeSelector",
            "priorityClassName", "restartPolicy", "runtimeClassName", "securityContext", "serviceAccountName",
            "terminationGracePeriodSeconds", "tolerations", "topologySpreadConstraints", "volumes");
    private static final Set<String> CONTAINER_FIELDS = Set.of("args", "command", "env", "envFrom", "image",
            "imagePullPolicy", "lifecycle", "livenessProbe", "name", "ports", "readinessProbe", "resources",
            "securityContext", "startupProbe", "volumeMounts", "workingDir");
    private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");
    private static final Pattern MAKES_CONFIG_MAP =
            Pattern.compile("create configmap ([a-z0-9-]+) --from-(file|env-file)=(\\S+)");
    /** A reference to another variable in an env value, which Kubernetes expands: {@code $(LAB_HEAP)}. */
    private static final Pattern REFERENCE = Pattern.compile("\\$\\(([A-Za-z_][A-Za-z0-9_]*)\\)");

    /** One object of kubernetes/, with the file it came from. */
    record Manifest(String file, JsonNode object) {

        String kind() {
            return object.path("kind").asText();
        }

        String name() {
            return object.path("metadata").path("name").asText();
        }

        JsonNode pod() {
            return object.path("spec").path("template").path("spec");
        }

        JsonNode container() {
            return pod().path("containers").path(0);
        }

        String podLabel(String key) {
            return object.path("spec").path("template").path("metadata").path("labels").path(key).asText();
        }

        /** The ConfigMaps the container takes whole as its environment (envFrom). */
        List<String> envFrom() {
            List<String> names = new ArrayList<>();
            container().path("envFrom").forEach(e -> names.add(e.path("configMapRef").path("name").asText()));
            return names;
        }

        /** The container's environment, whitespace folded as the container gets it from a folded YAML scalar. */
        Map<String, String> env() {
            Map<String, String> env = new LinkedHashMap<>();
            container().path("env").forEach(e -> env.put(e.path("name").asText(),
                    e.path("value").asText().strip().replaceAll("\\s+", " ")));
            return env;
        }

        String where() {
            return file + ": " + kind() + " " + name();
        }
    }

    static List<Manifest> read() throws IOException {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(LAB.resolve("kubernetes"))) {
            files = walk.filter(f -> f.toString().endsWith(".yaml")).sorted().toList();
        }
        List<Manifest> manifests = new ArrayList<>();
        for (Path file : files) {
            for (Object document : new Yaml().loadAll(Files.readString(file))) {
                if (document != null) {
                    manifests.add(new Manifest(LAB.relativize(file).toString(), Json.MAPPER.valueToTree(document)));
                }
            }
        }
        return manifests;
    }

    @Test
    void theManifestsPassEveryCheck() throws IOException {
        List<Manifest> manifests = read();
        assertThat(manifests).extracting(Manifest::kind).contains("Namespace", "Deployment", "Service", "Job");
        assertThat(new Checks(manifests).problems()).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("alterations")
    void everyCheckRejectsAManifestAlteredToBreakIt(String alteration, Consumer<Altered> alter, String expected)
            throws IOException {
        Altered altered = new Altered(read());
        alter.accept(altered);
        assertThat(new Checks(altered.manifests).problems()).as("the checks of the manifests with %s", alteration)
                .anySatisfy(problem -> assertThat(problem).contains(expected));
    }

    static Stream<Arguments> alterations() {
        return Stream.of(
                alteration("one variant at 600m CPU", m -> m.container("reactive-service")
                        .withObject("/resources/limits").put("cpu", "600m"),
                        "differs from imperative-service's at spec.template.spec.containers[0].resources.limits.cpu"),
                alteration("every variant at 600m CPU", m -> m.variants().forEach(c -> {
                    c.withObject("/resources/limits").put("cpu", "600m");
                    c.withObject("/resources/requests").put("cpu", "600m");
                }), "not .env's LAB_CPUS"),
                alteration("every variant with 2Gi of memory", m -> m.variants().forEach(c -> {
                    c.withObject("/resources/limits").put("memory", "2Gi");
                    c.withObject("/resources/requests").put("memory", "2Gi");
                }), "not .env's LAB_MEMORY"),
                alteration("every variant's requests below its limits", m -> m.variants().forEach(
                        c -> c.withObject("/resources/requests").put("cpu", "250m")), "requests cpu 250m"),
                alteration("one variant with another heap", m -> m.env("reactive-service", "JDK_JAVA_OPTIONS")
                        .put("value", "-Xms1g -Xmx1g -XX:+UseSerialGC"), "JDK_JAVA_OPTIONS"),
                alteration("every variant without the ConfigMap made of .env", m -> m.variants().forEach(
                        c -> c.remove("envFrom")), "env LAB_WORKER_POOL_MAX is missing, compose.yaml gives 200"),
                alteration("every variant with another read timeout", m -> m.variants().forEach(c -> c.withArray("env")
                        .addObject().put("name", "LAB_READ_TIMEOUT_MS").put("value", "500")),
                        "compose.yaml gives 5000"),
                alteration("a knob as a YAML number", m -> m.container("reactive-service").withArray("env").addObject()
                        .put("name", "LAB_WORKER_POOL_MAX").put("value", 200), "env LAB_WORKER_POOL_MAX: 200 is no string"),
                // .env the one source: a value written out again fails even where it equals .env's
                alteration("every variant with a knob's key written out at .env's value", m -> m.variants().forEach(c -> c
                        .withArray("env").addObject().put("name", "QUARKUS_THREAD_POOL_MAX_THREADS").put("value", "200")),
                        "env QUARKUS_THREAD_POOL_MAX_THREADS is written out"),
                alteration("every variant with a setting of .env written out at its value", m -> m.variants().forEach(
                        c -> c.withArray("env").addObject().put("name", "LAB_WORKER_POOL_MAX").put("value", "200")),
                        "env LAB_WORKER_POOL_MAX is written out"),
                alteration("every variant's heap and collector written out at .env's", m -> m.variants().forEach(
                        c -> Altered.entry(c, "JDK_JAVA_OPTIONS").put("value", Altered.entry(c, "JDK_JAVA_OPTIONS")
                                .path("value").asText().replace("$(LAB_HEAP)", "512m").replace("$(LAB_GC)", "Serial"))),
                        "writes the heap or the collector out"),
                alteration("the delay written out at .env's", m -> m.container(DELAY_SERVICE).withArray("env")
                        .addObject().put("name", "LAB_DELAY_MS").put("value", "10"), "env LAB_DELAY_MS is written out"),
                alteration("the delay service's key written out", m -> m.container(DELAY_SERVICE).withArray("env")
                        .addObject().put("name", "LAB_DELAY_DEFAULT_MS").put("value", "10"),
                        "env LAB_DELAY_DEFAULT_MS is written out"),
                alteration("an envFrom ConfigMap the page does not make", m -> m.variants().forEach(c -> ((ObjectNode) c
                        .at("/envFrom/0/configMapRef")).put("name", "lab-setting")), "ConfigMap lab-setting"),
                alteration("the delay service without the ConfigMap made of .env", m -> m.container(DELAY_SERVICE)
                        .remove("envFrom"), "takes no ConfigMap made of .env"),
                alteration("an unknown kind", m -> m.object("Service", DELAY_SERVICE).put("kind", "Servce"),
                        "unknown kind Servce"),
                alteration("a Deployment of the wrong API version", m -> m.object("Deployment", "reactive-service")
                        .put("apiVersion", "v1"), "apiVersion v1, not apps/v1"),
                alteration("no Namespace", m -> m.remove("Namespace", NAMESPACE), "no Namespace quarkus-thread-lab"),
                alteration("an object in another namespace", m -> m.object("Service", "reactive-service")
                        .withObject("/metadata").put("namespace", "default"), "namespace default"),
                alteration("a variant without its Deployment", m -> m.remove("Deployment", "virtual-thread-service"),
                        "no Deployment virtual-thread-service for variant virtual-thread"),
                alteration("a variant plan.Variant does not know", m -> {
                    ObjectNode extra = m.object("Deployment", "reactive-service").deepCopy();
                    extra.withObject("/metadata").put("name", "extra-service");
                    m.manifests.add(new Manifest("kubernetes/extra-service.yaml", extra));
                }, "Deployment extra-service: a variant that plan.Variant does not know"),
                alteration("a Service on another port", m -> ((ObjectNode) m.object("Service", "reactive-service")
                        .at("/spec/ports/0")).put("port", 8092), "no port 8082 for variant reactive"),
                alteration("a Service aimed at no declared port", m -> ((ObjectNode) m.object("Service",
                        "reactive-service").at("/spec/ports/0")).put("targetPort", "web"), "targets \"web\""),
                alteration("a Service selecting no pod", m -> m.object("Service", "reactive-service")
                        .withObject("/spec/selector").put("app.kubernetes.io/name", "reactive"),
                        "selects 0 Deployments"),
                alteration("a Deployment selecting pods it does not make", m -> m.object("Deployment", DELAY_SERVICE)
                        .withObject("/spec/selector/matchLabels").put("app.kubernetes.io/name", "delay"),
                        "selector {\"app.kubernetes.io/name\":\"delay\"} does not select its own pods"),
                alteration("a misspelt container field", m -> {
                    ObjectNode c = m.container("reactive-service");
                    c.set("readinesProbe", c.remove("readinessProbe"));
                }, "unknown field readinesProbe"),
                alteration("every variant with a liveness probe", m -> m.variants().forEach(c -> c.set("livenessProbe",
                        c.path("readinessProbe").deepCopy())), "a liveness probe"),
                alteration("every variant ready on another path", m -> m.variants().forEach(c -> c
                        .withObject("/readinessProbe/httpGet").put("path", "/q/health")), "/q/health/ready"),
                alteration("every variant as root", m -> m.variants().forEach(c -> m.podOf(c)
                        .withObject("/securityContext").put("runAsUser", 0)), "runAsUser"),
                alteration("recordings on the node's disk", m -> m.variants().forEach(c -> m.podOf(c)
                        .withArray("volumes").forEach(v -> {
                            if (v.path("name").asText().equals("recordings")) {
                                ((ObjectNode) v).remove("emptyDir");
                                ((ObjectNode) v).putObject("hostPath").put("path", "/tmp");
                            }
                        })), "JFR writes into /recordings, which is no emptyDir"),
                alteration("a ConfigMap the page does not make", m -> m.variants().forEach(c -> m.podOf(c)
                        .withArray("volumes").forEach(v -> {
                            if (v.path("name").asText().equals("jfr-settings")) {
                                ((ObjectNode) v).withObject("/configMap").put("name", "jfr-setting");
                            }
                        })), "ConfigMap jfr-setting"),
                alteration("every variant's image not compose.yaml's", m -> m.variants().forEach(c -> c
                        .put("image", "quarkus-thread-lab/" + c.path("name").asText() + ":1")), "compose.yaml's image"),
                alteration("a confined delay service", m -> m.container(DELAY_SERVICE).withObject("/resources/limits")
                        .put("cpu", "500m"), "a CPU limit"),
                alteration("the variants calling another downstream", m -> m.variants().forEach(c -> c.withArray("env")
                        .forEach(e -> {
                            if (e.path("name").asText().equals("DELAY_URL")) {
                                ((ObjectNode) e).put("value", "http://delay:8090");
                            }
                        })), "http://delay:8090 names no Service"),
                alteration("a label that YAML reads as a boolean", m -> m.object("Deployment", "reactive-service")
                        .withObject("/spec/template/metadata/labels").put("sidecar.istio.io/inject", false),
                        "labels sidecar.istio.io/inject: false is no string"),
                alteration("a name that is no DNS label", m -> m.object("Service", DELAY_SERVICE)
                        .withObject("/metadata").put("name", "Delay_Service"), "metadata.name is no DNS label"),
                alteration("an object defined twice", m -> m.manifests.add(m.manifests.getFirst()), "defined twice"),
                alteration("a misspelt pod field", m -> {
                    ObjectNode pod = m.podOf(m.container("reactive-service"));
                    pod.set("volume", pod.remove("volumes"));
                }, "unknown field spec.template.spec.volume"),
                alteration("a container without an image", m -> m.container("reactive-service").remove("image"),
                        "container reactive-service has no image"),
                alteration("a container without resources", m -> m.job("reactive").remove("resources"),
                        "container k6 has no resources requests and limits"),
                alteration("k6's collector from a setting .env lacks", m -> ((ObjectNode) m.jobEnv("reactive", "GOGC")
                        .at("/valueFrom/configMapKeyRef")).put("key", "LAB_K6_GC"),
                        "env GOGC: ConfigMap lab-settings made of no file of variables with LAB_K6_GC"),
                alteration("k6's memory limit from a resource it does not set", m -> ((ObjectNode) m.jobEnv("reactive",
                        "GOMEMLIMIT").at("/valueFrom/resourceFieldRef")).put("resource", "limits.cpu"),
                        "env GOMEMLIMIT: {\"containerName\":\"k6\",\"resource\":\"limits.cpu\"} is no resource"),
                alteration("a Deployment's container without a port", m -> m.container(DELAY_SERVICE).remove("ports"),
                        "container delay-service declares no port"),
                alteration("an environment variable twice", m -> m.container("reactive-service").withArray("env")
                        .add(m.env("reactive-service", "DELAY_URL").deepCopy()), "env DELAY_URL twice"),
                alteration("a mount of no volume", m -> ((ObjectNode) m.container("reactive-service")
                        .at("/volumeMounts/0")).put("name", "jfr"),
                        "mounts volume jfr, which the pod does not declare"),
                alteration("a Job restarted in place", m -> m.podOf(m.job("reactive"))
                        .put("restartPolicy", "Always"), "restartPolicy Always"),
                alteration("a variant's pods not labelled a variant", m -> m.object("Deployment", "reactive-service")
                        .withObject("/spec/template/metadata/labels").remove(COMPONENT), "not labelled"),
                alteration("every variant as another user than the Dockerfile's", m -> m.variants().forEach(c -> m
                        .podOf(c).withObject("/securityContext").put("runAsUser", 1001)), "not the Dockerfile's user"),
                alteration("the JFR settings mounted elsewhere", m -> m.variants().forEach(c -> c
                        .withArray("volumeMounts").forEach(v -> {
                            if (v.path("name").asText().equals("jfr-settings")) {
                                ((ObjectNode) v).put("mountPath", "/lab/settings.jfc");
                            }
                        })), "JFR settings /lab/threads.jfc are not mounted"),
                alteration("no delay service", m -> m.remove("Deployment", DELAY_SERVICE),
                        "no Deployment delay-service"),
                alteration("the delay service's Service on another port", m -> ((ObjectNode) m.object("Service",
                        DELAY_SERVICE).at("/spec/ports/0")).put("port", 8091), "no Service delay-service on port 8090"),
                alteration("a k6 Job that does not run a script", m -> m.job("reactive").putArray("args")
                        .add("version"), "not `run` of a script from the ConfigMap made of k6/"),
                alteration("a k6 Job for no variant", m -> {
                    ObjectNode extra = m.object("Job", "k6-closed-reactive").deepCopy();
                    extra.withObject("/metadata").put("name", "k6-closed-extra");
                    m.manifests.add(new Manifest("kubernetes/load/k6-closed-extra.yaml", extra));
                    Altered.entry((ObjectNode) extra.at("/spec/template/spec/containers/0"), "VARIANT")
                            .put("value", "extra");
                }, "Job k6-closed-extra: VARIANT is no variant of plan.Variant"),
                alteration("a k6 script that k6/ lacks", m -> m.job("reactive").withArray("args").set(1,
                        TextNode.valueOf("/scripts/closed-typo.js")), "k6/closed-typo.js"),
                alteration("a k6 Job aimed at another variant", m -> m.jobEnv("reactive", "BASE_URL")
                        .put("value", "http://imperative-service:8081"), "is not variant reactive's Service"),
                alteration("a variant without its k6 Job", m -> m.remove("Job", "k6-closed-virtual-thread"),
                        "no k6 Job for variant virtual-thread"),
                alteration("k6 Jobs on another image than compose.yaml's", m -> m.manifests.stream()
                        .filter(x -> x.kind().equals("Job")).forEach(x -> ((ObjectNode) x.container())
                                .put("image", "grafana/k6:latest")), "not compose.yaml's grafana/k6:1.8.1"),
                alteration("one k6 Job with more users", m -> m.jobEnv("reactive", "VUS").put("value", "500"),
                        "differs from k6-closed-imperative's at spec.template.spec.containers[0].env[2].value"));
    }

    private static Arguments alteration(String name, Consumer<Altered> alter, String expected) {
        return Arguments.of(name, alter, expected);
    }

    /** The manifests, to be altered in place by a case of {@link #alterations()}. */
    static final class Altered {

        final List<Manifest> manifests;

        Altered(List<Manifest> manifests) {
            this.manifests = new ArrayList<>(manifests);
        }

        ObjectNode object(String kind, String name) {
            return (ObjectNode) manifests.stream().filter(m -> m.kind().equals(kind) && m.name().equals(name))
                    .findFirst().orElseThrow().object();
        }

        void remove(String kind, String name) {
            assertThat(manifests.removeIf(m -> m.kind().equals(kind) && m.name().equals(name))).isTrue();
        }

        ObjectNode container(String deployment) {
            return (ObjectNode) object("Deployment", deployment).at("/spec/template/spec/containers/0");
        }

        /** The variants' containers. */
        List<ObjectNode> variants() {
            return Variant.services().stream().map(v -> container(v.module())).toList();
        }

        /** The pod spec {@code container} is in. */
        ObjectNode podOf(ObjectNode container) {
            return (ObjectNode) manifests.stream().map(m -> m.object().at("/spec/template/spec"))
                    .filter(pod -> pod.path("containers").path(0) == container).findFirst().orElseThrow();
        }

        ObjectNode env(String deployment, String name) {
            return entry(container(deployment), name);
        }

        ObjectNode job(String variant) {
            return (ObjectNode) object("Job", "k6-closed-" + variant).at("/spec/template/spec/containers/0");
        }

        ObjectNode jobEnv(String variant, String name) {
            return entry(job(variant), name);
        }

        static ObjectNode entry(ObjectNode container, String name) {
            for (JsonNode e : container.withArray("env")) {
                if (e.path("name").asText().equals(name)) {
                    return (ObjectNode) e;
                }
            }
            throw new IllegalArgumentException("no env " + name);
        }
    }

    /** Every check, on a list of manifests: {@link #problems()} names each object at fault and what is wrong. */
    static final class Checks {

        private final List<Manifest> manifests;
        private final ComposeFile compose;
        private final Map<String, Path> configMapSources;
        /** The ConfigMaps made of a file of KEY=VALUE lines (--from-env-file), by name, with their variables. */
        private final Map<String, Map<String, String>> envFiles;
        private final List<String> problems = new ArrayList<>();

        Checks(List<Manifest> manifests) throws IOException {
            this.manifests = manifests;
            this.compose = ComposeFile.read();
            // How docs/kubernetes.md makes each ConfigMap: kubectl create configmap <name> --from-file=<path>, or
            // --from-env-file=<path> for one whose keys are the file's variables (kubectl skips # lines and blanks)
            this.configMapSources = new LinkedHashMap<>();
            this.envFiles = new LinkedHashMap<>();
            Matcher m = MAKES_CONFIG_MAP.matcher(Files.readString(LAB.resolve("docs/kubernetes.md")));
            while (m.find()) {
                Path source = LAB.resolve(m.group(3)).normalize();
                configMapSources.put(m.group(1), source);
                if (m.group(2).equals("env-file") && Files.isRegularFile(source)) {
                    envFiles.put(m.group(1), LabSettings.parse(Files.readString(source)));
                }
            }
        }

        List<String> problems() {
            objects();
            manifests.stream().filter(m -> m.kind().equals("Deployment") || m.kind().equals("Job")).forEach(this::pod);
            manifests.stream().filter(m -> m.kind().equals("Service")).forEach(this::service);
            variants();
            delayService();
            load();
            return problems;
        }

        private void problem(Manifest m, String format, Object... args) {
            problems.add(m.where() + ": " + String.format(format, args));
        }

        private Optional<Manifest> find(String kind, String name) {
            return manifests.stream().filter(m -> m.kind().equals(kind) && m.name().equals(name)).findFirst();
        }

        /** Parse as Kubernetes objects: kind, API version, a DNS name, the lab's namespace, string labels. */
        private void objects() {
            Set<String> seen = new HashSet<>();
            for (Manifest m : manifests) {
                String apiVersion = API_VERSIONS.get(m.kind());
                if (apiVersion == null) {
                    problem(m, "unknown kind %s (kubernetes/ holds %s)", m.kind(),
                            new TreeSet<>(API_VERSIONS.keySet()));
                    continue;
                }
                if (!apiVersion.equals(m.object().path("apiVersion").asText())) {
                    problem(m, "apiVersion %s, not %s", m.object().path("apiVersion").asText(), apiVersion);
                }
                if (!DNS_LABEL.matcher(m.name()).matches()) {
                    problem(m, "metadata.name is no DNS label");
                }
                if (!seen.add(m.kind() + "/" + m.name())) {
                    problem(m, "defined twice");
                }
                String namespace = m.object().path("metadata").path("namespace").asText(null);
                if (!m.kind().equals("Namespace") && !NAMESPACE.equals(namespace)) {
                    problem(m, "namespace %s, not %s", namespace, NAMESPACE);
                }
                for (JsonNode metadata : List.of(m.object().path("metadata"),
                        m.object().path("spec").path("template").path("metadata"))) {
                    for (String map : List.of("labels", "annotations")) {
                        metadata.path(map).properties().stream().filter(e -> !e.getValue().isTextual()).forEach(
                                e -> problem(m, "%s %s: %s is no string (quote it)", map, e.getKey(), e.getValue()));
                    }
                }
            }
            if (find("Namespace", NAMESPACE).isEmpty()) {
                problems.add("kubernetes/: no Namespace " + NAMESPACE);
            }
        }

        /** A workload's pod: known fields, containers with image, ports and resources, env as strings, non-root. */
        private void pod(Manifest m) {
            JsonNode pod = m.pod();
            pod.fieldNames().forEachRemaining(f -> {
                if (!POD_FIELDS.contains(f)) {
                    problem(m, "unknown field spec.template.spec.%s", f);
                }
            });
            Set<String> volumes = new HashSet<>();
            pod.path("volumes").forEach(v -> {
                volumes.add(v.path("name").asText());
                if (v.has("configMap")) {
                    configMapSource(m, v.path("configMap").path("name").asText());
                }
            });
            if (pod.path("containers").isEmpty()) {
                problem(m, "no containers");
            }
            for (JsonNode c : pod.path("containers")) {
                String name = c.path("name").asText();
                c.path("envFrom").forEach(e -> {
                    String configMap = e.path("configMapRef").path("name").asText();
                    configMapSource(m, configMap);
                    if (configMapSources.containsKey(configMap) && !envFiles.containsKey(configMap)) {
                        problem(m, "container %s: envFrom ConfigMap %s is not made of a file of variables"
                                + " (--from-env-file)", name, configMap);
                    }
                });
                c.fieldNames().forEachRemaining(f -> {
                    if (!CONTAINER_FIELDS.contains(f)) {
                        problem(m, "container %s: unknown field %s", name, f);
                    }
                });
                if (c.path("image").asText().isBlank()) {
                    problem(m, "container %s has no image", name);
                }
                JsonNode resources = c.path("resources");
                if (!resources.path("requests").isObject() || !resources.path("limits").isObject()) {
                    problem(m, "container %s has no resources requests and limits", name);
                }
                if (m.kind().equals("Deployment") && (c.path("ports").isEmpty()
                        || !c.path("ports").path(0).path("containerPort").isInt())) {
                    problem(m, "container %s declares no port", name);
                }
                Set<String> names = new HashSet<>();
                c.path("env").forEach(e -> {
                    if (!names.add(e.path("name").asText())) {
                        problem(m, "env %s twice", e.path("name").asText());
                    }
                    if (e.has("valueFrom")) {
                        reference(m, c, e.path("name").asText(), e.path("valueFrom"));
                    } else if (!e.path("value").isTextual()) {
                        problem(m, "env %s: %s is no string (quote it)", e.path("name").asText(), e.path("value"));
                    }
                });
                c.path("volumeMounts").forEach(v -> {
                    if (!volumes.contains(v.path("name").asText())) {
                        problem(m, "container %s mounts volume %s, which the pod does not declare", name,
                                v.path("name").asText());
                    }
                });
            }
            JsonNode security = pod.path("securityContext");
            if (!security.path("runAsNonRoot").asBoolean() || security.path("runAsUser").asInt() <= 0) {
                problem(m, "runs as no non-root user by number (runAsNonRoot, runAsUser %s)",
                        security.path("runAsUser"));
            }
            if (m.kind().equals("Deployment")) {
                JsonNode selector = m.object().path("spec").path("selector").path("matchLabels");
                if (selector.isEmpty() || !selects(selector, m)) {
                    problem(m, "selector %s does not select its own pods", selector);
                }
            } else if (!Set.of("Never", "OnFailure").contains(pod.path("restartPolicy").asText())) {
                problem(m, "restartPolicy %s: a Job's is Never or OnFailure", pod.path("restartPolicy").asText());
            }
        }

        /**
         * An env value read from elsewhere: a key of a ConfigMap made of a file of variables that has it, or a limit
         * this very container sets.
         */
        private void reference(Manifest m, JsonNode container, String name, JsonNode from) {
            JsonNode key = from.path("configMapKeyRef");
            JsonNode field = from.path("resourceFieldRef");
            if (key.isObject()) {
                Map<String, String> file = envFiles.get(key.path("name").asText());
                if (file == null || !file.containsKey(key.path("key").asText())) {
                    problem(m, "env %s: ConfigMap %s made of no file of variables with %s", name,
                            key.path("name").asText(), key.path("key").asText());
                }
            } else if (field.isObject()) {
                String[] resource = field.path("resource").asText().split("\\.", 2);
                if (!field.path("containerName").asText().equals(container.path("name").asText())
                        || resource.length < 2
                        || container.path("resources").path(resource[0]).path(resource[1]).isMissingNode()) {
                    problem(m, "env %s: %s is no resource container %s sets", name, field,
                            container.path("name").asText());
                }
            } else {
                problem(m, "env %s: valueFrom %s reads neither a ConfigMap's key nor a resource", name, from);
            }
        }

        private static boolean selects(JsonNode selector, Manifest workload) {
            JsonNode labels = workload.object().path("spec").path("template").path("metadata").path("labels");
            return selector.properties().stream().allMatch(e -> e.getValue().equals(labels.path(e.getKey())));
        }

        /** A Service selects exactly one Deployment, and its ports reach that Deployment's container. */
        private void service(Manifest s) {
            JsonNode selector = s.object().path("spec").path("selector");
            List<Manifest> selected = manifests.stream().filter(m -> m.kind().equals("Deployment"))
                    .filter(m -> !selector.isEmpty() && selects(selector, m)).toList();
            if (selected.size() != 1) {
                problem(s, "selects %d Deployments (%s), not one", selected.size(),
                        selected.stream().map(Manifest::name).toList());
                return;
            }
            s.object().path("spec").path("ports").forEach(p -> {
                if (containerPort(selected.getFirst(), p.path("targetPort")) == null) {
                    problem(s, "port %s targets %s, which Deployment %s does not declare", p.path("port"),
                            p.path("targetPort"), selected.getFirst().name());
                }
            });
        }

        /** The container port a Service's targetPort or a probe's port (a number or a name) reaches, or null. */
        private static Integer containerPort(Manifest deployment, JsonNode target) {
            for (JsonNode p : deployment.container().path("ports")) {
                if (target.isInt() ? target.asInt() == p.path("containerPort").asInt()
                        : target.asText().equals(p.path("name").asText())) {
                    return p.path("containerPort").asInt();
                }
            }
            return null;
        }

        /** The port of Service {@code name} that reaches container port {@code port} of its pods, or null. */
        private Integer servicePort(String name, int port) {
            Optional<Manifest> service = find("Service", name);
            JsonNode selector = service.map(s -> s.object().path("spec").path("selector")).orElse(null);
            Optional<Manifest> deployment = manifests.stream().filter(m -> m.kind().equals("Deployment"))
                    .filter(m -> selector != null && !selector.isEmpty() && selects(selector, m)).findFirst();
            if (service.isEmpty() || deployment.isEmpty()) {
                return null;
            }
            for (JsonNode p : service.get().object().path("spec").path("ports")) {
                if (Objects.equals(containerPort(deployment.get(), p.path("targetPort")), port)) {
                    return p.path("port").asInt();
                }
            }
            return null;
        }

        /** Whether Service {@code name} listens on {@code port}. */
        private boolean serves(String name, int port) {
            Optional<Manifest> service = find("Service", name);
            if (service.isPresent()) {
                for (JsonNode p : service.get().object().path("spec").path("ports")) {
                    if (p.path("port").asInt() == port) {
                        return true;
                    }
                }
            }
            return false;
        }

        /** docs/kubernetes.md makes ConfigMap {@code name} of a file or directory of the lab. */
        private void configMapSource(Manifest m, String name) {
            Path source = configMapSources.get(name);
            if (source == null || !Files.exists(source)) {
                problem(m, "ConfigMap %s: docs/kubernetes.md makes it with no `kubectl create configmap %s "
                        + "--from-file=<a file or directory of the lab>` (or --from-env-file=<a file>)", name, name);
            }
        }

        /**
         * The variants: each of plan.Variant a Deployment and a Service on its port; all identical but for name and
         * port; each as compose.yaml runs it (image, every env value, .env's quota and memory); readiness only; the
         * Dockerfile's user; the recording's settings from the lab's file and its output on an emptyDir.
         */
        private void variants() {
            Set<String> modules = new HashSet<>();
            Variant.services().forEach(v -> modules.add(v.module()));
            manifests.stream().filter(m -> m.kind().equals("Deployment") && m.podLabel(COMPONENT).equals("variant"))
                    .filter(m -> !modules.contains(m.name()))
                    .forEach(m -> problem(m, "a variant that plan.Variant does not know"));
            Manifest first = null;
            JsonNode reference = null;
            for (Variant variant : Variant.services()) {
                Optional<Manifest> found = find("Deployment", variant.module());
                if (found.isEmpty()) {
                    problems.add("kubernetes/: no Deployment " + variant.module() + " for variant " + variant.label());
                    continue;
                }
                Manifest d = found.get();
                if (!d.podLabel(COMPONENT).equals("variant")) {
                    problem(d, "its pods are not labelled %s: variant", COMPONENT);
                }
                if (!Objects.equals(servicePort(variant.module(), variant.port()), variant.port())) {
                    problems.add("kubernetes/: no port " + variant.port() + " for variant " + variant.label()
                            + " on a Service " + variant.module() + " that reaches its container's port "
                            + variant.port());
                }
                asComposeRunsIt(d, variant.module());
                oneSource(d);
                resources(d);
                probes(d, variant.port());
                recordings(d);
                JsonNode normalised = normalised(d.object(), List.of(variant.module()), variant.port());
                if (first == null) {
                    first = d;
                    reference = normalised;
                } else {
                    String difference = firstDifference(reference, normalised, "");
                    if (difference != null) {
                        problem(d, "differs from %s's at %s (the variants differ only in name and port)",
                                first.name(), difference);
                    }
                }
            }
        }

        /** Image, every environment variable and the user, as compose.yaml and the Dockerfile have them. */
        private void asComposeRunsIt(Manifest d, String service) {
            String image = compose.service(service).path("image").asText();
            if (!d.container().path("image").asText().equals(image)) {
                problem(d, "image %s, not compose.yaml's image %s", d.container().path("image").asText(), image);
            }
            Map<String, String> expected = compose.environment(service);
            Map<String, String> actual = effectiveEnv(d);
            // every variable compose sets, and every one the manifest writes itself; the ConfigMap's others (.env's
            // LAB_CPUS and the like) are there too, and read by nothing in the JVM
            Set<String> names = new TreeSet<>(expected.keySet());
            names.addAll(d.env().keySet());
            for (String name : names) {
                if (!Objects.equals(expected.get(name), actual.get(name))) {
                    problem(d, "env %s is %s, compose.yaml gives %s", name,
                            actual.containsKey(name) ? actual.get(name) : "missing",
                            expected.containsKey(name) ? expected.get(name) : "nothing");
                }
            }
            d.env().values().stream().filter(v -> v.startsWith("http://")).forEach(url -> {
                URI uri = URI.create(url);
                if (!serves(uri.getHost(), uri.getPort())) {
                    problem(d, "%s names no Service of kubernetes/ on that port", url);
                }
            });
            Matcher uid = Pattern.compile("useradd --uid (\\d+)").matcher(dockerfile(service));
            if (!uid.find() || !uid.group(1).equals(d.pod().path("securityContext").path("runAsUser").asText())) {
                problem(d, "runAsUser %s is not the Dockerfile's user",
                        d.pod().path("securityContext").path("runAsUser"));
            }
        }

        /**
         * The environment the container gets: the envFrom ConfigMaps' variables, then env's, each {@code $(VAR)}
         * expanded from the variables defined before it (envFrom's included), as the kubelet does.
         */
        private Map<String, String> effectiveEnv(Manifest d) {
            Map<String, String> env = new LinkedHashMap<>();
            d.envFrom().forEach(name -> env.putAll(envFiles.getOrDefault(name, Map.of())));
            d.env().forEach((name, value) -> {
                Matcher reference = REFERENCE.matcher(value);
                StringBuilder expanded = new StringBuilder();
                while (reference.find()) {
                    String defined = env.get(reference.group(1));
                    reference.appendReplacement(expanded, Matcher.quoteReplacement(defined != null ? defined
                            : reference.group()));
                }
                env.put(name, reference.appendTail(expanded).toString());
            });
            return env;
        }

        /**
         * .env stays the one source: the Deployment takes it whole as a ConfigMap and writes none of its values out,
         * neither a setting of .env by its name nor a key the services map from one (their application.properties
         * hold the one mapping), and the JVM's heap and collector are references to the ConfigMap's. The quota and
         * memory, which a ConfigMap cannot set, are held to .env by {@link #resources}.
         */
        private void oneSource(Manifest d) {
            Map<String, String> dotEnv = compose.env();
            if (d.envFrom().stream().noneMatch(name -> LAB.resolve(".env").equals(configMapSources.get(name)))) {
                problem(d, "takes no ConfigMap made of .env as its environment (envFrom: lab-settings)");
            }
            Map<String, String> knobs = new LinkedHashMap<>();
            ComposeFile.knobKeys().forEach((key, setting) -> knobs.put(ComposeFile.variableOf(key), setting));
            d.env().forEach((name, value) -> {
                if (dotEnv.containsKey(name)) {
                    problem(d, "env %s is written out: it is .env's, from the ConfigMap made of it", name);
                } else if (knobs.containsKey(name)) {
                    problem(d, "env %s is written out: its value is .env's %s, which the service maps itself",
                            name, knobs.get(name));
                }
            });
            String options = d.env().getOrDefault("JDK_JAVA_OPTIONS", "");
            if (!options.contains("-Xms$(LAB_HEAP)") || !options.contains("-Xmx$(LAB_HEAP)")
                    || !options.contains("-XX:+Use$(LAB_GC)GC")
                    || Pattern.compile("-Xm[sx][0-9]|-XX:\\+Use[A-Za-z0-9]+GC").matcher(options).find()) {
                problem(d, "JDK_JAVA_OPTIONS %s writes the heap or the collector out: take $(LAB_HEAP) and $(LAB_GC)"
                        + " from the ConfigMap made of .env", options);
            }
        }

        private static String dockerfile(String service) {
            try {
                return Files.readString(LAB.resolve(service + "/src/main/docker/Dockerfile.jvm"));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** .env's quota and memory as requests and limits both (Guaranteed: nothing borrowed, nothing taken). */
        private void resources(Manifest d) {
            JsonNode resources = d.container().path("resources");
            BigDecimal cpus = new BigDecimal(compose.env().get("LAB_CPUS"));
            BigDecimal memory = dockerBytes(compose.env().get("LAB_MEMORY"));
            for (String bound : List.of("requests", "limits")) {
                String cpu = resources.path(bound).path("cpu").asText();
                if (cores(cpu).compareTo(cpus) != 0) {
                    problem(d, "%s cpu %s, not .env's LAB_CPUS %s", bound, cpu, cpus);
                }
                String bytes = resources.path(bound).path("memory").asText();
                if (bytes(bytes).compareTo(memory) != 0) {
                    problem(d, "%s memory %s, not .env's LAB_MEMORY %s", bound, bytes, compose.env().get("LAB_MEMORY"));
                }
            }
        }

        /** Ready on /q/health/ready at the variant's port; never restarted for answering late under its quota. */
        private void probes(Manifest d, int port) {
            JsonNode get = d.container().path("readinessProbe").path("httpGet");
            if (!get.path("path").asText().equals("/q/health/ready")
                    || !Objects.equals(containerPort(d, get.path("port")), port)) {
                problem(d, "no readiness probe on /q/health/ready at port %d", port);
            }
            if (d.container().has("livenessProbe")) {
                problem(d, "a liveness probe would restart a JVM its quota throttles");
            }
        }

        /** The JVM reads its recording's settings from a ConfigMap of the lab's file, and writes into an emptyDir. */
        private void recordings(Manifest d) {
            String options = d.env().getOrDefault("JDK_JAVA_OPTIONS", "");
            Matcher settings = Pattern.compile("settings=([^,\\s]+)").matcher(options);
            Matcher filename = Pattern.compile("filename=([^,\\s]+)").matcher(options);
            if (!settings.find() || !filename.find()) {
                problem(d, "JDK_JAVA_OPTIONS starts no recording with settings and a filename");
                return;
            }
            // --from-file=<file> makes a ConfigMap with one key, the file's name: the mount's subPath.
            JsonNode mount = mount(d, settings.group(1));
            Path source = configMapSources.get(volume(d, mount).path("configMap").path("name").asText());
            if (source == null || !Files.isRegularFile(source)
                    || !mount.path("subPath").asText().equals(source.getFileName().toString())) {
                problem(d, "JFR settings %s are not mounted from a ConfigMap made of that file of the lab",
                        settings.group(1));
            }
            String directory = Path.of(filename.group(1)).getParent().toString();
            if (!volume(d, mount(d, directory)).has("emptyDir")) {
                problem(d, "JFR writes into %s, which is no emptyDir volume", directory);
            }
        }

        /** The container's mount at {@code path}, or a missing node. */
        private static JsonNode mount(Manifest workload, String path) {
            for (JsonNode mount : workload.container().path("volumeMounts")) {
                if (mount.path("mountPath").asText().equals(path)) {
                    return mount;
                }
            }
            return Json.MAPPER.missingNode();
        }

        /** The pod's volume that {@code mount} mounts, or a missing node. */
        private static JsonNode volume(Manifest workload, JsonNode mount) {
            for (JsonNode volume : workload.pod().path("volumes")) {
                if (!mount.isMissingNode() && volume.path("name").asText().equals(mount.path("name").asText())) {
                    return volume;
                }
            }
            return Json.MAPPER.missingNode();
        }

        /** As compose.yaml runs it: image and environment from .env, unconfined, ready on /q/health/ready. */
        private void delayService() {
            Optional<Manifest> found = find("Deployment", DELAY_SERVICE);
            if (found.isEmpty()) {
                problems.add("kubernetes/: no Deployment " + DELAY_SERVICE);
                return;
            }
            Manifest d = found.get();
            asComposeRunsIt(d, DELAY_SERVICE);
            oneSource(d);
            if (!Objects.equals(servicePort(DELAY_SERVICE, JavaCommand.DELAY_PORT), JavaCommand.DELAY_PORT)) {
                problems.add("kubernetes/: no Service " + DELAY_SERVICE + " on port " + JavaCommand.DELAY_PORT);
            }
            boolean limited = d.container().path("resources").path("limits").has("cpu");
            if (limited && !compose.service(DELAY_SERVICE).has("cpus")) {
                problem(d, "a CPU limit, where compose.yaml runs the delay service unconfined");
            }
            probes(d, JavaCommand.DELAY_PORT);
        }

        /** One k6 Job per variant, identical but for the variant, running a script of k6/ against its Service. */
        private void load() {
            String image = compose.service("k6").path("image").asText();
            Map<String, Manifest> jobs = new LinkedHashMap<>();
            manifests.stream().filter(m -> m.kind().equals("Job"))
                    .forEach(m -> jobs.put(m.env().getOrDefault("VARIANT", ""), m));
            Manifest first = null;
            JsonNode reference = null;
            for (Variant variant : Variant.services()) {
                Manifest job = jobs.remove(variant.label());
                if (job == null) {
                    problems.add("kubernetes/load/: no k6 Job for variant " + variant.label());
                    continue;
                }
                if (!job.container().path("image").asText().equals(image)) {
                    problem(job, "image %s, not compose.yaml's %s", job.container().path("image").asText(), image);
                }
                Integer port = servicePort(variant.module(), variant.port());
                String url = port == null ? "(none)" : "http://" + variant.module() + ":" + port;
                if (!job.env().getOrDefault("BASE_URL", "").equals(url)) {
                    problem(job, "BASE_URL %s is not variant %s's Service %s", job.env().get("BASE_URL"),
                            variant.label(), url);
                }
                script(job);
                JsonNode normalised = normalised(job.object(), List.of(variant.module(), variant.label()),
                        variant.port());
                if (first == null) {
                    first = job;
                    reference = normalised;
                } else {
                    String difference = firstDifference(reference, normalised, "");
                    if (difference != null) {
                        problem(job, "differs from %s's at %s (the k6 Jobs differ only in the variant)",
                                first.name(), difference);
                    }
                }
            }
            jobs.values().forEach(job -> problem(job, "VARIANT is no variant of plan.Variant"));
        }

        /** `k6 run <script>`, the script one of k6/, from the ConfigMap made of that directory. */
        private void script(Manifest job) {
            JsonNode args = job.container().path("args");
            Path script = Path.of(args.path(1).asText());
            Path source = null;
            if (args.path(0).asText().equals("run") && script.getParent() != null) {
                JsonNode volume = volume(job, mount(job, script.getParent().toString()));
                source = configMapSources.get(volume.path("configMap").path("name").asText());
            }
            if (source == null || !source.equals(LAB.resolve("k6"))) {
                problem(job, "args %s: not `run` of a script from the ConfigMap made of k6/", args);
                return;
            }
            Path file = source.resolve(script.getFileName());
            if (!Files.isRegularFile(file)) {
                problem(job, "runs %s, which is not in the lab", LAB.relativize(file));
            }
        }
    }

    /** A copy of {@code node} with each name replaced by {@code <name>} and the port by {@code <port>}. */
    static JsonNode normalised(JsonNode node, List<String> names, int port) {
        if (node.isObject()) {
            ObjectNode copy = Json.MAPPER.createObjectNode();
            node.properties().forEach(e -> copy.set(e.getKey(), normalised(e.getValue(), names, port)));
            return copy;
        }
        if (node.isArray()) {
            ArrayNode copy = Json.MAPPER.createArrayNode();
            node.forEach(n -> copy.add(normalised(n, names, port)));
            return copy;
        }
        if (node.isTextual()) {
            String text = node.asText();
            for (String name : names) {
                text = text.replace(name, "<name>");
            }
            return TextNode.valueOf(text.replace(String.valueOf(port), "<port>"));
        }
        return node.isInt() && node.asInt() == port ? TextNode.valueOf("<port>") : node;
    }

    /** Where two trees first differ, as a path (spec.template.spec.containers[0].image), or null when equal. */
    static String firstDifference(JsonNode a, JsonNode b, String path) {
        if (a.equals(b)) {
            return null;
        }
        if (a.isObject() && b.isObject()) {
            Set<String> fields = new TreeSet<>();
            a.fieldNames().forEachRemaining(fields::add);
            b.fieldNames().forEachRemaining(fields::add);
            for (String field : fields) {
                String difference = firstDifference(a.path(field), b.path(field), path.isEmpty() ? field
                        : path + "." + field);
                if (difference != null) {
                    return difference;
                }
            }
        }
        if (a.isArray() && b.isArray() && a.size() == b.size()) {
            for (int i = 0; i < a.size(); i++) {
                String difference = firstDifference(a.get(i), b.get(i), path + "[" + i + "]");
                if (difference != null) {
                    return difference;
                }
            }
        }
        return path;
    }

    /** A CPU quantity in cores: 500m, 0.5, 1. */
    static BigDecimal cores(String quantity) {
        return quantity.endsWith("m") ? new BigDecimal(quantity.substring(0, quantity.length() - 1)).movePointLeft(3)
                : quantity.matches("\\d+(\\.\\d+)?") ? new BigDecimal(quantity) : BigDecimal.valueOf(-1);
    }

    /** A Kubernetes memory quantity in bytes: 1Gi, 512Mi, 1G, 1073741824. */
    static BigDecimal bytes(String quantity) {
        Matcher m = Pattern.compile("(\\d+)(Ki|Mi|Gi|Ti|k|M|G|T)?").matcher(quantity);
        if (!m.matches()) {
            return BigDecimal.valueOf(-1);
        }
        long unit = switch (m.group(2) == null ? "" : m.group(2)) {
            case "Ki" -> 1L << 10;
            case "Mi" -> 1L << 20;
            case "Gi" -> 1L << 30;
            case "Ti" -> 1L << 40;
            case "k" -> 1_000L;
            case "M" -> 1_000_000L;
            case "G" -> 1_000_000_000L;
            case "T" -> 1_000_000_000_000L;
            default -> 1L;
        };
        return new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(unit));
    }

    /** Docker's memory size in bytes (compose's mem_limit, .env's LAB_MEMORY): its b, k, m and g are binary. */
    static BigDecimal dockerBytes(String size) {
        Matcher m = Pattern.compile("(\\d+)([bkmgBKMG])?").matcher(size);
        assertThat(m.matches()).as("a Docker memory size: %s", size).isTrue();
        int shift = switch (m.group(2) == null ? "b" : m.group(2).toLowerCase()) {
            case "k" -> 10;
            case "m" -> 20;
            case "g" -> 30;
            default -> 0;
        };
        return new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(1L << shift));
    }
}
