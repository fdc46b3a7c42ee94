package io.threadlab.experiment.start;

import io.threadlab.experiment.process.Processes;
import io.threadlab.experiment.process.ServiceProcess;
import io.threadlab.experiment.process.ContainerService;
import io.threadlab.experiment.process.ComposeCli;
import io.threadlab.experiment.process.PortCheck;
import com.fasterxml.jackson.databind.JsonNode;
import io.threadlab.experiment.collect.Json;
import io.threadlab.experiment.confine.Confinement;
import io.threadlab.experiment.confine.ContainerCgroups;
import io.threadlab.experiment.confine.ContainerGroups;
import io.threadlab.experiment.confine.EngineCgroups;
import io.threadlab.experiment.plan.Jvm;
import io.threadlab.experiment.plan.Database;
import io.threadlab.experiment.plan.Knobs;
import io.threadlab.experiment.record.ContainerRecorder;
import io.threadlab.experiment.record.Recorder;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The same experiment against compose-managed containers: {@code docker compose up --wait} per service with the run's
 * knobs as environment (they override .env), CPU and throttling from each container's own cgroup, JFR through
 * {@code docker compose exec ... jcmd 1}. The containers' own from-start recording is switched off, as the local JVMs
 * have none. Every container and network the run made is removed at the end, on success, failure or Ctrl-C; what
 * existed before the run is left as it was.
 */
public final class ComposeEngine implements Engine {

    /** The first build downloads the Quarkus closure into five images; later ones take seconds. */
    private static final Duration BUILD_AND_START = Duration.ofMinutes(30);
    /** Past the healthcheck's own retries (compose.yaml), so that its verdict, not this, decides. */
    private static final int HEALTHY_WITHIN_SECONDS = 180;
    private static final Duration SHORT = Duration.ofSeconds(60);

    private final ComposeCli compose;
    private final EngineTarget target;
    private final Path labHome;
    private final Map<String, String> runEnv;
    private final String project;
    private final ContainerGroups confinement;
    private final Recorder recorder;
    private final Set<String> containersBefore;
    private final Set<String> networksBefore;
    private final List<ContainerService> started = new CopyOnWriteArrayList<>();
    private final Map<String, Object> facts = new ConcurrentHashMap<>();
    /** Another engine's images, as they got there (built here and loaded, or there already); empty: built there. */
    private final Map<String, String> images = new ConcurrentHashMap<>();

    /** @param target the engine, resolved and checked before the run ({@link EngineTarget#resolve}) */
    public ComposeEngine(Path labHome, Knobs knobs, int delayMs, Database database, EngineTarget target) {
        if (!target.remote()) {
            ComposeCli.requireEngine();
        }
        if (knobs.confineDelayService()) {
            throw new IllegalArgumentException("--confine-delay-service is not available with --engine compose:"
                    + " compose.yaml leaves the delay service unconfined");
        }
        this.target = target;
        this.labHome = labHome;
        this.runEnv = environment(knobs, delayMs, database);
        Map<String, String> env = new LinkedHashMap<>(runEnv);
        env.putAll(target.env());
        if (target.remote()) {
            // Published where k6 reaches them: on all the other machine's interfaces, or on loopback for an engine
            // on this machine, so that nothing of the lab is exposed beyond it.
            env.put("LAB_PUBLISH_ADDRESS", target.sameMachine() ? "127.0.0.1" : "0.0.0.0");
        }
        this.compose = new ComposeCli(labHome, env, target.remote() ? List.of("compose.yaml", REMOTE_FILE)
                : List.of());
        this.project = projectName(compose);
        ContainerCgroups.QuotaSetter setQuota =
                (container, cpus) -> compose.docker(SHORT, "update", "--cpus", String.valueOf(cpus), container);
        this.confinement = target.remote() ? new EngineCgroups((container, script) -> compose.docker(SHORT, "exec",
                container, "sh", "-c", script), setQuota) : ContainerCgroups.forThisMachine(setQuota);
        this.recorder = new ContainerRecorder(labHome, compose, target.remote());
        this.containersBefore = containers();
        this.networksBefore = networks();
    }

    /** compose.yaml's changes for another engine: no bind mounts, ports published on LAB_PUBLISH_ADDRESS. */
    static final String REMOTE_FILE = "compose.remote.yaml";

    /**
     * The run's knobs in compose's variables (see .env and compose.yaml); the database's only in a run with the
     * database downstream (else its service, in profile "database", is not started, and .env's values stand).
     */
    static Map<String, String> environment(Knobs knobs, int delayMs, Database database) {
        Map<String, String> env = new LinkedHashMap<>(knobs.composeVariables()); // the pool's with the database
        env.put("LAB_DELAY_MS", String.valueOf(delayMs));
        env.put("LAB_RECORD_FROM_START", ""); // set and empty: no continuous recording (see compose.yaml)
        if (database != null) {
            env.put("LAB_DB_CPUS", String.valueOf(database.cpus()));
            env.put("LAB_DB_MAX_CONNECTIONS", String.valueOf(database.maxConnections()));
            env.put("LAB_DB_SHARED_BUFFERS", database.sharedBuffers());
            env.put("LAB_DB_FSYNC", database.fsync() ? "on" : "off");
        }
        return env;
    }

    @Override
    public String name() {
        return "compose";
    }

    @Override
    public String address() {
        return target.address();
    }

    @Override
    public Confinement confinement() {
        return confinement;
    }

    @Override
    public Recorder recorder() {
        return recorder;
    }

    /**
     * What the containers really got, per group (as {@link #start} was given it): service, container and image ids,
     * user, cgroup, and the CPU quota read back from the cgroup.
     */
    @Override
    public List<Map<String, Object>> facts() {
        List<Map<String, Object>> all = new ArrayList<>();
        facts.forEach((group, seen) -> {
            Map<String, Object> one = new LinkedHashMap<>();
            one.put("group", group);
            if (seen instanceof Map<?, ?> m) {
                m.forEach((k, v) -> one.put(String.valueOf(k), v));
            }
            all.add(one);
        });
        return all;
    }

    /**
     * Images are built by compose itself; for another engine, built here and loaded there when this machine has an
     * engine ({@link ImageShipping}). Ports are checked as each service starts.
     */
    @Override
    public void prepare(List<String> modules, List<Jvm> jvms) {
        if (jvms.stream().anyMatch(j -> !j.setup().isEmpty())) {
            throw new IllegalArgumentException("the map's axes (several --cpus, --worker-max or --pool-size) need"
                    + " --engine local: compose gives every container of a service the same settings");
        }
        if (target.remote() && ImageShipping.engineHere()) {
            List<String> services = modules.stream().map(ComposeEngine::service).toList();
            Map<String, String> names = new LinkedHashMap<>();
            modules.forEach(m -> names.put(service(m), "quarkus-thread-lab/" + m));
            Map<String, String> here = new LinkedHashMap<>(runEnv);
            here.put("DOCKER_HOST", "");
            here.put("DOCKER_CONTEXT", "");
            images.putAll(new ImageShipping(new ComposeCli(labHome, here, List.of()), compose, target.env())
                    .ship(services, names));
        }
    }

    /** The compose service that runs a module: its own name, but for the database's. */
    private static String service(String module) {
        return module.equals(LabDatabase.MODULE) ? LabDatabase.SERVICE : module;
    }

    /**
     * Where the services ran, for the manifest: the engine (its address and what it said of itself), and how its
     * images got there.
     */
    @Override
    public Map<String, Object> where() {
        Map<String, Object> engine = new LinkedHashMap<>();
        engine.put("kind", target.remote() ? "another Docker engine" : "this machine's Docker engine");
        engine.put("endpoint", target.endpoint());
        engine.put("address", target.address());
        engine.put("same_machine", target.sameMachine());
        engine.putAll(target.info());
        engine.put("images", images.isEmpty() ? (target.remote() ? "built there (up --build)" : "built here")
                : new LinkedHashMap<>(new java.util.TreeMap<>(images)));
        return engine;
    }

    /** A container's recording cannot be followed from outside: the warm-up judges its compiler by /proc alone. */
    @Override
    public Path compilerRepository(Jvm jvm) {
        return null;
    }

    @Override
    public ServiceProcess start(String module, int port, String group, OptionalDouble cpus, List<String> javaCommand,
                                Path log) {
        if (target.sameMachine()) {
            PortCheck.requireFree(port, module);
        }
        try {
            compose.run(BUILD_AND_START, "up", "--detach", images.isEmpty() ? "--build" : "--no-build", "--wait",
                    "--wait-timeout", String.valueOf(HEALTHY_WITHIN_SECONDS), module);
        } catch (ComposeCli.ComposeFailure e) {
            throw new IllegalStateException(whyNotUp(module, e), e);
        }
        String container = compose.run(SHORT, "ps", "--quiet", module).lines().findFirst()
                .orElseThrow(() -> new IllegalStateException(module + " was started but has no container"));
        // The runner reaches a service on the engine's address at <port>; compose.yaml decides where it is published.
        String published;
        try {
            published = compose.run(SHORT, "port", module, String.valueOf(port)).strip();
        } catch (ComposeCli.ComposeFailure e) {
            published = "unpublished";
        }
        if (!published.endsWith(":" + port)) {
            throw new IllegalStateException("compose.yaml publishes " + module + "'s port " + port + " as '" + published
                    + "', not on port " + port + ": the compose engine runs each service on its own port only");
        }
        String[] state = compose.docker(SHORT, "inspect", "--format", "{{.State.Pid}} {{.Image}} {{.Config.User}}",
                container).split(" ");
        // Another engine's PIDs are not this machine's, even when it runs here: its containers are read through it.
        long pid = target.remote() ? -1 : Long.parseLong(state[0]);
        ContainerService service = target.remote()
                ? ContainerService.elsewhere(module, port, target.address(), compose, container, log)
                : new ContainerService(module, port, compose, container, pid, log);
        started.add(service);
        confinement.register(group, container);

        Map<String, Object> seen = new LinkedHashMap<>();
        seen.put("service", module);
        seen.put("container", container);
        seen.put("image", state.length > 1 ? state[1] : "?");
        seen.put("user", state.length > 2 ? state[2] : "?");
        String cgroup = confinement.describe(group, pid);
        seen.put("cgroup", cgroup);
        OptionalDouble quota = confinement.quota(group, pid);
        seen.put("cpu_quota", quota.isPresent() ? quota.getAsDouble() : "none");
        facts.put(group, seen);
        // The JVM sized itself to the quota it started under: a container without the run's quota measures
        // something else, so it stops here rather than in the report.
        if (cpus.isPresent() && (quota.isEmpty() || Math.abs(quota.getAsDouble() - cpus.getAsDouble()) > 0.001)) {
            throw new IllegalStateException(module + "'s cgroup (" + cgroup + ") has a CPU quota of "
                    + (quota.isPresent() ? quota.getAsDouble() : "none") + ", not the run's " + cpus.getAsDouble()
                    + ". compose.yaml gives each variant cpus: ${LAB_CPUS}; is the Docker engine ignoring CPU limits?");
        }
        System.out.println("  " + module + ": container " + container.substring(0, Math.min(12, container.length()))
                + ", " + cgroup + (quota.isPresent() ? ", CPU quota " + quota.getAsDouble()
                : ", no CPU quota"));
        return service;
    }

    /** Names the cause when it is a known one, with the service's last log lines; leaves out the build's progress. */
    private String whyNotUp(String module, ComposeCli.ComposeFailure e) {
        String out = e.output();
        String said = "docker compose up " + module + " said:\n" + composeLines(out);
        if (out.matches("(?s).*(pull access denied|failed to resolve source metadata|manifest unknown|no such host"
                + "|failed to do request|repository does not exist|not found: manifest).*")) {
            return "the image of " + module + " could not be built: a base image is missing and cannot be pulled."
                    + " Without a registry, make local stand-ins first: scripts/prepare-base-images.sh\n" + said;
        }
        if (out.matches("(?s).*(address already in use|port is already allocated).*")) {
            return "a port that " + module + " (or a service it depends on) publishes is already in use. Stop what"
                    + " holds it (docker ps; ss -ltnp), then run again.\n" + said;
        }
        Matcher failed = Pattern.compile("container (\\S+) (is unhealthy|exited \\(\\d+\\))").matcher(out);
        if (failed.find()) {
            String container = failed.group(1);
            String how = failed.group(2).startsWith("exited") ? failed.group(2) + " before it was healthy"
                    : "never became healthy (its /q/health/ready, within the healthcheck's retries)";
            return container + " " + how + ", so " + module + " did not start. Its last log lines:\n"
                    + logTail(container) + "\n" + said;
        }
        if (out.contains("not healthy") || out.contains("context deadline exceeded")) {
            return module + " was not healthy within " + HEALTHY_WITHIN_SECONDS + " s. Its last log lines:\n"
                    + logTail(module) + "\n" + said;
        }
        return "docker compose could not start " + module + ". " + said;
    }

    private String logTail(String container) {
        try {
            return compose.docker(SHORT, "logs", "--tail", "20", container).strip();
        } catch (RuntimeException e) {
            try {
                return compose.run(SHORT, "logs", "--no-color", "--tail", "20", container).strip();
            } catch (RuntimeException again) {
                return "(no log: " + e.getMessage() + ")";
            }
        }
    }

    /** compose's own lines and the build's errors, without the build's numbered progress. */
    private static String composeLines(String out) {
        List<String> lines = out.lines().filter(l -> !l.isBlank() && (!l.startsWith("#") || l.contains("ERROR")))
                .toList();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()));
    }

    /**
     * Stops the services gracefully (SIGTERM to each JVM, logs kept), then removes every container and network of the
     * project that was not there before the run, including those of a start that failed half way.
     */
    @Override
    public synchronized void cleanUp() {
        Processes.stopAll(); // k6, and any docker command still running
        for (ContainerService service : started) {
            try {
                service.close();
            } catch (RuntimeException e) {
                System.err.println("WARNING: could not stop container " + service.name() + ": " + e.getMessage());
            }
        }
        started.clear();
        try {
            List<String> made = new ArrayList<>(containers());
            made.removeAll(containersBefore);
            if (!made.isEmpty()) {
                List<String> rm = new ArrayList<>(List.of("rm", "--force", "--volumes"));
                rm.addAll(made);
                compose.docker(SHORT, rm.toArray(String[]::new));
            }
            List<String> networks = new ArrayList<>(networks());
            networks.removeAll(networksBefore);
            for (String network : networks) {
                compose.docker(SHORT, "network", "rm", network);
            }
        } catch (RuntimeException e) {
            System.err.println("WARNING: could not remove the run's containers of project " + project + ": "
                    + e.getMessage() + "\nRemove them with: docker compose down");
        }
    }

    private Set<String> containers() {
        return ids(compose.docker(SHORT, "ps", "--all", "--quiet", "--no-trunc", "--filter",
                "label=com.docker.compose.project=" + project));
    }

    private Set<String> networks() {
        return ids(compose.docker(SHORT, "network", "ls", "--quiet", "--no-trunc", "--filter",
                "label=com.docker.compose.project=" + project));
    }

    private static Set<String> ids(String out) {
        return new LinkedHashSet<>(out.lines().map(String::strip).filter(l -> !l.isEmpty()).toList());
    }

    /** compose.yaml's name (or COMPOSE_PROJECT_NAME's), which labels everything compose makes for the lab. */
    private static String projectName(ComposeCli compose) {
        try {
            JsonNode config = Json.MAPPER.readTree(compose.run(SHORT, "config", "--format", "json"));
            String name = config.path("name").asText("");
            if (name.isBlank()) {
                throw new IllegalStateException("docker compose config names no project");
            }
            return name;
        } catch (IOException e) {
            throw new IllegalStateException("cannot read docker compose config: " + e.getMessage(), e);
        }
    }
}
