package io.threadlab.experiment.start;

import com.fasterxml.jackson.databind.JsonNode;
import io.threadlab.experiment.collect.Json;
import io.threadlab.experiment.confine.Confinement;
import io.threadlab.experiment.confine.CpuReading;
import io.threadlab.experiment.plan.Knobs;
import io.threadlab.experiment.record.ContainerRecorder;
import io.threadlab.experiment.record.Recorder;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
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
    private final String project;
    private final ContainerCgroups confinement;
    private final Recorder recorder;
    private final Set<String> containersBefore;
    private final Set<String> networksBefore;
    private final List<ContainerService> started = new CopyOnWriteArrayList<>();
    private final Map<String, Object> facts = new ConcurrentHashMap<>();

    public ComposeEngine(Path labHome, Knobs knobs) {
        ComposeCli.requireEngine();
        if (knobs.confineDelayService()) {
            throw new IllegalArgumentException("--confine-delay-service is not available with --engine compose:"
                    + " compose.yaml leaves the delay service unconfined");
        }
        this.compose = new ComposeCli(labHome, environment(knobs));
        this.project = projectName(compose);
        this.confinement = ContainerCgroups.forThisMachine(compose);
        this.recorder = new ContainerRecorder(labHome, compose);
        this.containersBefore = containers();
        this.networksBefore = networks();
    }

    /** The run's knobs in compose's variables (see .env and compose.yaml). */
    static Map<String, String> environment(Knobs knobs) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("LAB_CPUS", String.valueOf(knobs.cpuQuota()));
        env.put("LAB_HEAP", knobs.heap());
        env.put("LAB_GC", knobs.gc());
        env.put("LAB_DELAY_MS", String.valueOf(knobs.delayMs()));
        env.put("LAB_CONNECTION_POOL_SIZE", String.valueOf(knobs.connectionPoolSize()));
        env.put("LAB_CONNECT_TIMEOUT_MS", String.valueOf(knobs.connectTimeoutMs()));
        env.put("LAB_READ_TIMEOUT_MS", String.valueOf(knobs.readTimeoutMs()));
        env.put("LAB_WORKER_POOL_MAX", String.valueOf(knobs.workerPoolMax()));
        env.put("LAB_RECORD_FROM_START", ""); // set and empty: no continuous recording (see compose.yaml)
        return env;
    }

    @Override
    public String name() {
        return "compose";
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
     * user, cgroup, and the CPU quota read back from the cgroup. For the manifest (the caller decides where it goes).
     */
    public Map<String, Object> facts() {
        return Map.copyOf(facts);
    }

    @Override
    public ServiceProcess start(String module, int port, String group, OptionalDouble cpus, List<String> javaCommand,
                                Path log) {
        PortCheck.requireFree(port, module);
        try {
            compose.run(BUILD_AND_START, "up", "--detach", "--build", "--wait", "--wait-timeout",
                    String.valueOf(HEALTHY_WITHIN_SECONDS), module);
        } catch (ComposeCli.ComposeFailure e) {
            throw new IllegalStateException(whyNotUp(module, e), e);
        }
        String container = compose.run(SHORT, "ps", "--quiet", module).lines().findFirst()
                .orElseThrow(() -> new IllegalStateException(module + " was started but has no container"));
        // The runner reaches a service on 127.0.0.1:<port>; compose.yaml decides where it is published.
        String published;
        try {
            published = compose.run(SHORT, "port", module, String.valueOf(port)).strip();
        } catch (ComposeCli.ComposeFailure e) {
            published = "unpublished";
        }
        if (!published.endsWith(":" + port)) {
            throw new IllegalStateException("compose.yaml publishes " + module + "'s port " + port + " as '" + published
                    + "', not as 127.0.0.1:" + port + ": the compose engine runs each service on its own port only");
        }
        String[] state = compose.docker(SHORT, "inspect", "--format", "{{.State.Pid}} {{.Image}} {{.Config.User}}",
                container).split(" ");
        long pid = Long.parseLong(state[0]);
        ContainerService service = new ContainerService(module, port, compose, container, pid, log);
        started.add(service);
        confinement.register(group, container);

        Map<String, Object> seen = new LinkedHashMap<>();
        seen.put("service", module);
        seen.put("container", container);
        seen.put("image", state.length > 1 ? state[1] : "?");
        seen.put("user", state.length > 2 ? state[2] : "?");
        seen.put("cgroup", confinement.describe(pid));
        OptionalDouble quota = confinement.quota(pid);
        seen.put("cpu_quota", quota.isPresent() ? quota.getAsDouble() : "none");
        facts.put(group, seen);
        // The JVM sized itself to the quota it started under: a container without the run's quota measures
        // something else, so it stops here rather than in the report.
        if (cpus.isPresent() && (quota.isEmpty() || Math.abs(quota.getAsDouble() - cpus.getAsDouble()) > 0.001)) {
            throw new IllegalStateException(module + "'s cgroup (" + confinement.describe(pid) + ") has a CPU quota of "
                    + (quota.isPresent() ? quota.getAsDouble() : "none") + ", not the run's " + cpus.getAsDouble()
                    + ". compose.yaml gives each variant cpus: ${LAB_CPUS}; is the Docker engine ignoring CPU limits?");
        }
        System.out.println("  " + module + ": container " + container.substring(0, Math.min(12, container.length()))
                + ", " + confinement.describe(pid) + (quota.isPresent() ? ", CPU quota " + quota.getAsDouble()
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

    /**
     * CPU counters and quota of each container's own cgroup, found through the /proc entry of its PID 1. cgroup v1 is
     * read where the cpu and cpuacct controllers are mounted; a hybrid machine lists a v2 path too, but with no cpu
     * controller there, so no quota and no throttling: v2 is read only where v1 has no cpu controller. Processes that
     * are not containers (k6) are read from /proc, as an unconfined run reads them.
     */
    static final class ContainerCgroups implements Confinement {

        private static final double TICKS_PER_SECOND = 100.0; // USER_HZ on Linux

        private final String mounts;
        private final Path proc;
        private final ComposeCli compose;
        private final Map<String, String> containers = new ConcurrentHashMap<>();

        ContainerCgroups(String mounts, Path proc, ComposeCli compose) {
            this.mounts = mounts;
            this.proc = proc;
            this.compose = compose;
        }

        static ContainerCgroups forThisMachine(ComposeCli compose) {
            try {
                return new ContainerCgroups(Files.readString(Path.of("/proc/self/mounts")), Path.of("/proc"), compose);
            } catch (IOException e) {
                return new ContainerCgroups("", Path.of("/proc"), compose);
            }
        }

        /** Group {@code name} is this container, read from its cgroup from now on. */
        void register(String name, String container) {
            containers.put(name, container);
        }

        @Override
        public String method() {
            return "docker-compose";
        }

        @Override
        public boolean limits() {
            return true;
        }

        @Override
        public List<String> wrap(String name, OptionalDouble cpus, List<String> command) {
            return command; // Docker applies the limits
        }

        /** Through Docker, so that its own view of the container stays true. */
        @Override
        public void setQuota(String name, long pid, double cpus) {
            String container = containers.get(name);
            if (container == null) {
                throw new IllegalStateException("no container for " + name + " to set a CPU quota on");
            }
            compose.docker(SHORT, "update", "--cpus", String.valueOf(cpus), container);
        }

        @Override
        public CpuReading read(String name, long pid) {
            if (!containers.containsKey(name)) {
                return fromProc(pid);
            }
            try {
                Group group = groupOf(pid);
                Map<String, Long> stat = keyValues(Files.readString(group.cpu().resolve("cpu.stat")));
                if (group.v1()) {
                    return new CpuReading(Long.parseLong(Files.readString(group.cpuacct().resolve("cpuacct.usage"))
                            .strip()), stat.getOrDefault("nr_periods", 0L), stat.getOrDefault("nr_throttled", 0L),
                            stat.getOrDefault("throttled_time", 0L));
                }
                return new CpuReading(stat.getOrDefault("usage_usec", 0L) * 1000, stat.getOrDefault("nr_periods", 0L),
                        stat.getOrDefault("nr_throttled", 0L), stat.getOrDefault("throttled_usec", 0L) * 1000);
            } catch (IOException | RuntimeException e) {
                throw new IllegalStateException("cannot read the cgroup of process " + pid + " (" + name + "): " + e, e);
            }
        }

        /** The CPU quota in CPUs that the process's cgroup enforces; empty when unlimited. */
        OptionalDouble quota(long pid) {
            try {
                Group group = groupOf(pid);
                if (group.v1()) {
                    long quota = Long.parseLong(Files.readString(group.cpu().resolve("cpu.cfs_quota_us")).strip());
                    long period = Long.parseLong(Files.readString(group.cpu().resolve("cpu.cfs_period_us")).strip());
                    return quota <= 0 ? OptionalDouble.empty() : OptionalDouble.of((double) quota / period);
                }
                String[] max = Files.readString(group.cpu().resolve("cpu.max")).strip().split(" ");
                return max[0].equals("max") ? OptionalDouble.empty()
                        : OptionalDouble.of(Double.parseDouble(max[0]) / Double.parseDouble(max[1]));
            } catch (IOException | RuntimeException e) {
                throw new IllegalStateException("cannot read the CPU quota of process " + pid + ": " + e, e);
            }
        }

        /** For messages and the manifest: "cgroup v1 /sys/fs/cgroup/cpu/docker/<id>". */
        String describe(long pid) {
            try {
                Group group = groupOf(pid);
                return (group.v1() ? "cgroup v1 " : "cgroup v2 ") + group.cpu();
            } catch (IOException | RuntimeException e) {
                return "cgroup unknown (" + e.getMessage() + ")";
            }
        }

        @Override
        public void removeAll() {
            // Docker owns the containers' groups; ComposeEngine removes the containers.
        }

        /** Where a process's CPU counters are: v1's cpu and cpuacct directories, or one v2 directory (both fields). */
        private record Group(boolean v1, Path cpu, Path cpuacct) {
        }

        private Group groupOf(long pid) throws IOException {
            List<String[]> lines = Files.readAllLines(proc.resolve(pid + "/cgroup")).stream()
                    .map(l -> l.split(":", 3)).filter(f -> f.length == 3).toList();
            Map<String, String> v1 = new HashMap<>();
            String v2 = null;
            for (String[] line : lines) {
                if (line[0].equals("0") && line[1].isEmpty()) {
                    v2 = line[2];
                } else {
                    Arrays.stream(line[1].split(",")).forEach(controller -> v1.put(controller, line[2]));
                }
            }
            if (v1.containsKey("cpu") && v1.containsKey("cpuacct")) {
                return new Group(true, mount("cgroup", "cpu").resolve(relative(v1.get("cpu"))),
                        mount("cgroup", "cpuacct").resolve(relative(v1.get("cpuacct"))));
            }
            if (v2 != null) {
                Path dir = mount("cgroup2", null).resolve(relative(v2));
                return new Group(false, dir, dir);
            }
            throw new IllegalStateException("process " + pid + " is in no cgroup with a cpu controller");
        }

        private Path mount(String type, String controller) {
            return mounts.lines().map(l -> l.split(" ")).filter(f -> f.length >= 4 && f[2].equals(type))
                    .filter(f -> controller == null || Arrays.asList(f[3].split(",")).contains(controller))
                    .map(f -> Path.of(f[1])).findFirst()
                    .orElseThrow(() -> new IllegalStateException("no " + type + " mount"
                            + (controller == null ? "" : " with the " + controller + " controller")));
        }

        private static String relative(String path) {
            return path.startsWith("/") ? path.substring(1) : path;
        }

        private static Map<String, Long> keyValues(String text) {
            Map<String, Long> values = new HashMap<>();
            text.lines().map(l -> l.strip().split("\\s+")).filter(f -> f.length == 2 && f[1].matches("-?\\d+"))
                    .forEach(f -> values.put(f[0], Long.parseLong(f[1])));
            return values;
        }

        private CpuReading fromProc(long pid) {
            try {
                String stat = Files.readString(proc.resolve(pid + "/stat"));
                String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]); // utime, stime
                return new CpuReading(Math.round(ticks / TICKS_PER_SECOND * 1e9), 0, 0, 0);
            } catch (IOException | RuntimeException e) {
                return CpuReading.NONE;
            }
        }
    }
}
