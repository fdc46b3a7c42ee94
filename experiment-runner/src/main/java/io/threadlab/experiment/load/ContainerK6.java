package io.threadlab.experiment.load;

import io.threadlab.experiment.confine.CpuReading;
import io.threadlab.experiment.confine.EngineCgroups;
import io.threadlab.experiment.process.ComposeCli;
import io.threadlab.experiment.process.ComposeCli.DockerFailed;
import io.threadlab.experiment.process.Processes;
import io.threadlab.experiment.start.EngineTarget;
import io.threadlab.experiment.start.ImageShipping;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * k6 in a container on another Docker engine ({@code --load-host}), so that the load has a machine of its own. The
 * lab's scripts go into an image built there on k6's own ({@code grafana/k6}, loaded from this machine's engine when
 * that engine lacks it), so nothing is bind-mounted from this checkout. Each load is one container on the host's
 * network: it reaches the services' published ports as that machine does, and its REST API is reached from here
 * the same way. Its summary is copied back when it exits, its CPU is read from its own cgroup through the engine, and
 * every container it ran is removed, on success, failure or Ctrl-C.
 */
public final class ContainerK6 implements K6Host {

    /** Every load container carries it, with the run's name as its value, so that a run removes only its own. */
    static final String LABEL = "io.threadlab.load";
    static final String IMAGE = "quarkus-thread-lab/k6-load";
    private static final Duration BUILD = Duration.ofMinutes(10);

    private final EngineTarget target;
    private final String run;
    private final String version;
    private final Map<String, String> runtime;

    private ContainerK6(EngineTarget target, String run, String version, Map<String, String> runtime) {
        this.target = target;
        this.run = run;
        this.version = version;
        this.runtime = Map.copyOf(runtime);
    }

    /**
     * Makes the load's image on the engine (k6's image first, from this machine's engine where the other lacks it)
     * and reads k6's version from it.
     *
     * @param run     the run's name, which labels its containers
     * @param runtime k6's Go runtime settings ({@code GOGC=400}): the run's knobs, {@code Knobs#k6Environment}
     */
    public static ContainerK6 prepare(EngineTarget target, Path labHome, String run, Map<String, String> runtime) {
        String base = "grafana/k6:" + K6.PINNED.substring(1);
        if (!has(target, base) && ImageShipping.engineHere() && has(EngineTarget.thisMachine(), base)) {
            System.out.println("  loading " + base + " into the load's engine (docker save | docker load)");
            ImageShipping.copy(List.of(base), target.env());
        }
        build(target, labHome.resolve("k6"), base);
        String version;
        try {
            version = docker(target, "run", "--rm", "--label", LABEL + "=" + run, IMAGE, "version").lines()
                    .findFirst().orElse("unknown");
        } catch (DockerFailed e) {
            throw new IllegalStateException("k6 does not run in " + IMAGE + " on " + target.describe() + ": "
                    + e.getMessage());
        }
        return new ContainerK6(target, run, version, runtime);
    }

    private static boolean has(EngineTarget engine, String image) {
        try {
            docker(engine, "image", "inspect", "--format", "{{.Id}}", image);
            return true;
        } catch (DockerFailed e) {
            return false;
        }
    }

    /** The scripts on top of k6's image, built by the engine from a context sent from here. */
    private static void build(EngineTarget target, Path scripts, String base) {
        Path context = null;
        Path output = null;
        try {
            context = Files.createTempDirectory("threadlab-k6-image-");
            try (Stream<Path> files = Files.list(scripts)) {
                for (Path script : files.filter(f -> f.toString().endsWith(".js")).toList()) {
                    Files.copy(script, context.resolve(script.getFileName()));
                }
            }
            Files.writeString(context.resolve("Dockerfile"), "FROM " + base + "\nCOPY *.js /lab/k6/\n");
            output = Files.createTempFile("threadlab-k6-image-", ".log");
            ProcessBuilder builder = new ProcessBuilder("docker", "build", "--quiet", "--tag", IMAGE,
                    context.toString()).redirectErrorStream(true).redirectOutput(output.toFile());
            ComposeCli.reach(builder, target.env());
            Process process = Processes.track(builder.start());
            if (!process.waitFor(BUILD.toSeconds(), java.util.concurrent.TimeUnit.SECONDS)
                    || process.exitValue() != 0) {
                Processes.stop(process, Duration.ofSeconds(5));
                throw new IllegalStateException("cannot build the load's image on " + target.describe() + " (FROM "
                        + base + "; without a registry, scripts/prepare-base-images.sh makes it): "
                        + Files.readString(output).lines().reduce((a, b) -> b).orElse("no output"));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot build the load's image: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while building the load's image");
        } finally {
            if (output != null) {
                output.toFile().delete();
            }
            if (context != null) {
                try (Stream<Path> files = Files.walk(context)) {
                    files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                } catch (IOException e) {
                    // a temporary directory: left for the system to clear
                }
            }
        }
    }

    private static String docker(EngineTarget engine, String... args) {
        return ComposeCli.check(engine.env(), List.of(args));
    }

    @Override
    public String version() {
        return version;
    }

    @Override
    public List<String> command(String name, List<String> k6Args) {
        List<String> command = new ArrayList<>(List.of("docker", "run", "--name", container(name), "--label",
                LABEL + "=" + run, "--network", "host", "--env", "K6_NO_USAGE_REPORT=true"));
        new TreeMap<>(runtime).forEach((k, v) -> command.addAll(List.of("--env", k + "=" + v)));
        command.add(IMAGE);
        command.addAll(k6Args);
        return command;
    }

    @Override
    public Map<String, String> environment() {
        return target.env();
    }

    @Override
    public String script(String file) {
        return "/lab/k6/" + file;
    }

    @Override
    public String summary(String name, Path local) {
        return "/tmp/" + local.getFileName();
    }

    /** On that machine's own loopback when it is this one; else on its interfaces, for this machine to reach. */
    @Override
    public String apiBind() {
        return target.sameMachine() ? "127.0.0.1" : "0.0.0.0";
    }

    @Override
    public String apiAddress() {
        return target.address();
    }

    @Override
    public void collect(String name, Path local) {
        String file = local.getFileName().toString();
        String full = file.replaceAll("\\.json$", "") + ".k6.json";
        for (String copied : List.of(file, full)) {
            try {
                docker(target, "cp", container(name) + ":/tmp/" + copied, local.resolveSibling(copied).toString());
            } catch (DockerFailed e) {
                // no summary: K6Summary says so, naming k6's log
            }
        }
    }

    @Override
    public CpuReading cpu(String name, long pid) {
        try {
            return EngineCgroups.readCpu((c, script) -> docker(target, "exec", c, "sh", "-c", script),
                    container(name));
        } catch (RuntimeException e) {
            return CpuReading.NONE;
        }
    }

    @Override
    public void remove(String name) {
        try {
            docker(target, "rm", "--force", container(name));
        } catch (DockerFailed e) {
            // gone already
        }
    }

    @Override
    public Map<String, Object> where() {
        Map<String, Object> load = new LinkedHashMap<>();
        load.put("kind", "a container on a Docker engine");
        load.put("endpoint", target.endpoint());
        load.put("host", target.info().get("name"));
        load.put("cores", cores());
        load.put("same_machine_as_runner", target.sameMachine());
        load.put("image", IMAGE + " (FROM grafana/k6:" + K6.PINNED.substring(1) + ")");
        load.put("environment", new TreeMap<>(runtime));
        return load;
    }

    @Override
    public int cores() {
        return target.info().get("cores") instanceof Number n ? n.intValue() : 0;
    }

    @Override
    public void removeAll() {
        try {
            for (String id : docker(target, "ps", "--all", "--quiet", "--filter", "label=" + LABEL + "=" + run)
                    .lines().filter(l -> !l.isBlank()).toList()) {
                docker(target, "rm", "--force", id);
            }
        } catch (DockerFailed e) {
            System.err.println("WARNING: could not remove the load's containers on " + target.describe() + ": "
                    + e.getMessage());
        }
    }

    /** A container name Docker accepts, unique to the run and the load. */
    private String container(String name) {
        return ("threadlab-" + run + "-" + name).replaceAll("[^a-zA-Z0-9_.-]", "-");
    }
}
