package io.threadlab.experiment;

import com.fasterxml.jackson.databind.JsonNode;
import io.threadlab.experiment.collect.Json;
import io.threadlab.experiment.load.K6;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code --engine compose} on another Docker engine, for real: a second engine on this machine (its own data root,
 * exec root, containerd and bridge, no iptables rules of its own), reached over TCP on 127.0.0.1 only, stands in for
 * another host. The same quick experiment runs against it and against this machine's engine: same knobs, a round trip
 * measured, JFR and logs copied back, and no container left on either engine. A third run puts k6 in a container of
 * its own ({@code --load-host}) on this machine's engine, against the second engine's services: its CPU is read in
 * that container, the round trip is timed by k6 there, and its containers go too. The test starts and removes the
 * second engine itself; where Docker cannot run it is skipped, saying why.
 */
class RemoteEngineIT {

    /** The second engine's default bridge. */
    private static final String BRIDGE = "tl-engine2";
    /** The second engine's address pool, apart from this machine's engine's. */
    private static final String POOL = "10.213.0.0/16";
    private static final List<String> FORWARD_RULE = List.of("-I", "FORWARD", "-s", POOL, "-d", POOL, "-j", "ACCEPT");
    private static final String PROJECT = "label=com.docker.compose.project=quarkus-thread-lab";
    private static final List<String> QUICK = List.of("run", "--quick", "--variants", "reactive", "--levels", "20",
            "--window", "3", "--settle-max", "4", "--warmup-boost-max", "6", "--warmup-level-max", "6",
            "--no-open-model", "--calibration-levels", "20,5");

    @TempDir
    Path output;

    private Path engineDir;
    private Process engine;
    private String dockerHost;
    private boolean bridge;
    /** The engines' cgroup parents (…/docker) that were not there before the second engine started. */
    private List<Path> cgroupsMade = List.of();
    private boolean forwarding;

    @Test
    void aQuickRunOnASecondEngineRecordsWhereItRanAndLeavesNothingThere() throws Exception {
        assumeTrue(K6.obtainable(Path.of("../.tools")), "needs k6 on PATH, or Go to build it (go install go.k6.io/k6)");
        assumeTrue(succeeds(Map.of(), "docker", "compose", "version"), "needs the docker CLI with its compose plugin");
        assumeTrue(succeeds(Map.of(), "dockerd", "--version"), "needs dockerd, to start a second engine");
        assumeTrue(succeeds(Map.of(), "sh", "-c", "[ \"$(id -u)\" = 0 ]"), "a second dockerd needs root");
        assumeTrue(succeeds(Map.of(), "docker", "info"), "needs this machine's Docker engine running (it builds the"
                + " images the second engine is given, and runs the local half of the comparison)");
        assumeTrue(succeeds(Map.of(), "docker", "image", "inspect", "eclipse-temurin:25-jdk",
                "maven:3.9-eclipse-temurin-25"), "needs the base images on this machine's engine:"
                + " scripts/prepare-base-images.sh");
        assumeTrue(docker(Map.of(), "ps", "--all", "--quiet", "--filter", PROJECT).isBlank(),
                "the lab's containers exist on this machine's engine already; remove them (docker compose down)");
        startSecondEngine();
        Map<String, String> there = Map.of("DOCKER_HOST", dockerHost);

        Path remoteRun = run(List.of("--engine", "compose", "--docker-host", dockerHost), output.resolve("remote"));
        assertThat(docker(there, "ps", "--all", "--quiet")).as("containers left on the second engine").isBlank();
        Path localRun = run(List.of("--engine", "compose"), output.resolve("local"));
        assertThat(docker(Map.of(), "ps", "--all", "--quiet", "--filter", PROJECT))
                .as("containers left on this machine's engine").isBlank();

        JsonNode remote = Json.MAPPER.readTree(remoteRun.resolve("manifest.json").toFile());
        JsonNode local = Json.MAPPER.readTree(localRun.resolve("manifest.json").toFile());
        for (String same : List.of("knobs", "jvm_flags", "settings_file")) {
            assertThat(remote.get(same)).as(same + " in both manifests").isEqualTo(local.get(same));
        }
        JsonNode services = remote.at("/placement/services");
        assertThat(services.get("kind").asText()).isEqualTo("another Docker engine");
        assertThat(services.get("endpoint").asText()).isEqualTo(dockerHost);
        assertThat(services.get("same_machine").asBoolean()).isTrue();
        assertThat(services.get("cores").asInt()).isEqualTo(Runtime.getRuntime().availableProcessors());
        assertThat(services.get("images").toString()).contains("quarkus-thread-lab/reactive-service");
        assertThat(local.at("/placement/services/kind").asText()).isEqualTo("this machine's Docker engine");
        for (JsonNode manifest : List.of(remote, local)) {
            JsonNode wire = manifest.at("/placement/round_trip");
            assertThat(wire.get("samples").asInt()).isPositive();
            assertThat(wire.get("median_ms").asDouble()).isPositive().isLessThanOrEqualTo(
                    wire.get("p99_ms").asDouble());
            assertThat(manifest.at("/placement/load/kind").asText()).startsWith("this machine");
        }
        // The quota was read back from the second engine's cgroups, through it.
        for (JsonNode container : remote.get("containers")) {
            assertThat(container.get("cgroup").asText()).contains("read through the engine");
            if (container.get("service").asText().equals("reactive-service")) {
                assertThat(container.get("cpu_quota").asDouble()).isEqualTo(0.5);
            }
        }

        JsonNode rows = Json.MAPPER.readTree(remoteRun.resolve("results.json").toFile()).get("windows");
        assertThat(rows).isNotEmpty();
        boolean recorded = false;
        for (JsonNode row : rows) {
            assertThat(row.get("load").get("requests").asLong()).as(row.toString()).isPositive();
            assertThat(row.get("load").get("errors").asLong()).as(row.toString()).isZero();
            assertThat(row.get("cpu").get("cpu_seconds").asDouble()).as("CPU read through the engine").isPositive();
            assertThat(row.get("thread_groups").has("JIT compiler")).as("threads read through the engine").isTrue();
            if (row.get("window").get("detailed_recording").asBoolean()) {
                recorded = true;
                assertThat(remoteRun.resolve(row.get("window").get("jfr_file").asText()))
                        .as("the recording, copied back").isNotEmptyFile();
            }
        }
        assertThat(recorded).as("the quick run records a twin").isTrue();
        assertThat(remoteRun.resolve("logs/delay-service.log")).as("the log, copied back").isNotEmptyFile();
        try (Stream<Path> logs = Files.list(remoteRun.resolve("logs"))) {
            assertThat(logs.filter(l -> l.getFileName().toString().endsWith("-jvm1.log")).toList()).singleElement()
                    .satisfies(log -> assertThat(log).isNotEmptyFile());
        }
        assertThat(Files.readString(remoteRun.resolve("report.md")))
                .contains("The load came from the same machine", "another Docker engine " + dockerHost);

        // k6 in a container of its own (--load-host), on this machine's engine, against the second engine's services
        Path loadRun = run(List.of("--engine", "compose", "--docker-host", dockerHost, "--load-host",
                "unix:///var/run/docker.sock"), output.resolve("load-host"));
        assertThat(docker(there, "ps", "--all", "--quiet")).as("containers left on the second engine").isBlank();
        assertThat(docker(Map.of(), "ps", "--all", "--quiet", "--filter", "label=io.threadlab.load"))
                .as("k6 containers left on this machine's engine").isBlank();
        JsonNode loaded = Json.MAPPER.readTree(loadRun.resolve("manifest.json").toFile());
        assertThat(loaded.at("/placement/load/kind").asText()).isEqualTo("a container on a Docker engine");
        assertThat(loaded.at("/placement/load/endpoint").asText()).isEqualTo("unix:///var/run/docker.sock");
        assertThat(loaded.at("/placement/same_machine").asBoolean()).isTrue();
        assertThat(loaded.at("/placement/round_trip/method").asText()).startsWith("k6's TCP connect");
        assertThat(loaded.at("/placement/round_trip/median_ms").asDouble()).isPositive();
        for (JsonNode row : Json.MAPPER.readTree(loadRun.resolve("results.json").toFile()).get("windows")) {
            assertThat(row.get("load").get("requests").asLong()).as(row.toString()).isPositive();
            assertThat(row.get("instruments").get("k6_cpu_seconds").asDouble()).as("k6's CPU, read in its"
                    + " container").isPositive();
        }
        assertThat(Files.readString(loadRun.resolve("report.md"))).contains("k6 in a container on the Docker engine"
                + " at unix:///var/run/docker.sock");

        // Results fetched elsewhere report as they did where they ran.
        Path fetched = output.resolve("fetched").resolve(remoteRun.getFileName());
        copy(remoteRun, fetched);
        Files.delete(fetched.resolve("report.md"));
        assertThat(ExperimentCommand.execute("report", fetched.toString())).isZero();
        assertThat(Files.readString(fetched.resolve("report.md"))).isEqualTo(Files.readString(remoteRun
                .resolve("report.md")));
    }

    /** Runs the quick experiment with {@code engine}'s flags; returns its results directory, asserting it completed. */
    private Path run(List<String> engineFlags, Path into) throws IOException {
        List<String> args = new ArrayList<>(QUICK);
        args.addAll(engineFlags);
        args.addAll(List.of("--output", into.toString()));
        int exit = ExperimentCommand.execute(args.toArray(String[]::new));
        Path run;
        try (Stream<Path> runs = Files.list(into)) {
            run = runs.findFirst().orElseThrow();
        }
        JsonNode manifest = Json.MAPPER.readTree(run.resolve("manifest.json").toFile());
        assertThat(manifest.get("completed").asBoolean()).as(manifest.path("failure").asText()).isTrue();
        assertThat(exit).isZero();
        return run;
    }

    /**
     * A second dockerd: its own data and exec roots (so its own containerd), TCP on loopback only, no iptables rules
     * (this machine's engine keeps its own), and address pools apart from the first engine's. Its default bridge is
     * one of its own: dockerd with {@code --bridge none} deletes docker0, this machine's engine's. This machine's
     * engine drops forwarded traffic but its own (FORWARD policy DROP, bridges filtered too), so the second engine's
     * containers are let through to each other, and nowhere else, by one rule, removed afterwards.
     */
    private void startSecondEngine() throws IOException, InterruptedException {
        int port;
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = free.getLocalPort();
        }
        dockerHost = "tcp://127.0.0.1:" + port;
        assumeTrue(succeeds(Map.of(), "sh", "-c", "ip link add name " + BRIDGE + " type bridge && ip addr add"
                + " 10.214.0.1/24 dev " + BRIDGE + " && ip link set " + BRIDGE + " up"), "cannot make a bridge ("
                + BRIDGE + ") for a second engine here: needs iproute2 and CAP_NET_ADMIN, and no such bridge yet");
        bridge = true;
        if (succeeds(Map.of(), "iptables", "-S", "FORWARD")) {
            List<String> insert = new ArrayList<>(List.of("iptables"));
            insert.addAll(FORWARD_RULE);
            assumeTrue(succeeds(Map.of(), insert.toArray(String[]::new)),
                    "cannot let the second engine's containers reach each other (iptables " + FORWARD_RULE + ")");
            forwarding = true;
        }
        // exec-root holds unix sockets, whose paths must stay short: under /tmp, not under target/.
        engineDir = Files.createTempDirectory(Path.of("/tmp"), "tl-engine2-");
        cgroupsMade = dockerCgroups().stream().filter(Files::notExists).toList();
        engine = new ProcessBuilder("dockerd", "--data-root", engineDir.resolve("data").toString(),
                "--exec-root", engineDir.resolve("exec").toString(), "--pidfile", engineDir.resolve("docker.pid")
                .toString(), "--host", dockerHost, "--bridge", BRIDGE, "--iptables=false", "--ip6tables=false",
                "--default-address-pool", "base=" + POOL + ",size=24")
                .redirectErrorStream(true).redirectOutput(engineDir.resolve("dockerd.log").toFile()).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline && engine.isAlive()) {
            if (succeeds(Map.of("DOCKER_HOST", dockerHost), "docker", "info")) {
                return;
            }
            Thread.sleep(500);
        }
        String log = Files.readString(engineDir.resolve("dockerd.log"));
        assumeTrue(false, "a second dockerd could not start here: " + log.lines().skip(Math.max(0,
                log.lines().count() - 5)).toList());
    }

    @AfterEach
    void removeTheSecondEngine() throws Exception {
        if (engine != null) {
            // What a failed assertion may have left there goes first, then the engine, then its files.
            String left = docker(Map.of("DOCKER_HOST", dockerHost), "ps", "--all", "--quiet");
            if (!left.isBlank()) {
                List<String> rm = new ArrayList<>(List.of("rm", "--force"));
                rm.addAll(left.lines().toList());
                docker(Map.of("DOCKER_HOST", dockerHost), rm.toArray(String[]::new));
            }
            engine.destroy(); // SIGTERM: dockerd stops its containerd and unmounts its layers
            if (!engine.waitFor(60, TimeUnit.SECONDS)) {
                engine.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
        if (forwarding) {
            List<String> delete = new ArrayList<>(List.of("iptables"));
            delete.addAll(FORWARD_RULE);
            delete.set(1, "-D");
            succeeds(Map.of(), delete.toArray(String[]::new));
        }
        if (bridge) {
            succeeds(Map.of(), "ip", "link", "delete", BRIDGE);
        }
        if (engineDir != null) {
            try (Stream<Path> files = Files.walk(engineDir)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
        // dockerd leaves its containers' cgroup parent behind when it stops: the ones it made here go, once empty
        // (rmdir refuses a cgroup with a process in it).
        for (Path parent : cgroupsMade) {
            if (Files.isDirectory(parent)) {
                try (Stream<Path> groups = Files.walk(parent)) {
                    groups.filter(Files::isDirectory).sorted(Comparator.reverseOrder()).forEach(g -> g.toFile()
                            .delete());
                }
            }
        }
    }

    /** Where dockerd puts its containers' cgroups, in each hierarchy this machine mounts. */
    private static List<Path> dockerCgroups() throws IOException {
        Path root = Path.of("/sys/fs/cgroup");
        if (!Files.isDirectory(root)) {
            return List.of();
        }
        try (Stream<Path> hierarchies = Files.list(root)) {
            return Stream.concat(Stream.of(root), hierarchies.filter(Files::isDirectory))
                    .map(h -> h.resolve("docker")).toList();
        }
    }

    private static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path file : files.toList()) {
                Path target = to.resolve(from.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(file, target);
                }
            }
        }
    }

    private static boolean succeeds(Map<String, String> env, String... command) {
        try {
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD);
            builder.environment().putAll(env);
            Process p = builder.start();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static String docker(Map<String, String> env, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("docker"));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(env);
        Process p = builder.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0).as(String.join(" ", command) + ": " + out)
                .isTrue();
        return out.strip();
    }
}
