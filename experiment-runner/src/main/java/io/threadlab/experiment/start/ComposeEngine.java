package io.threadlab.experiment.start;

import io.threadlab.experiment.confine.Confinement;
import io.threadlab.experiment.confine.ProcessCgroups;
import io.threadlab.experiment.plan.Knobs;
import io.threadlab.experiment.record.ContainerRecorder;
import io.threadlab.experiment.record.Recorder;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * The same experiment against compose-managed containers: {@code docker compose up --wait} per service with the run's
 * knobs as environment (they override .env), CPU from each container's cgroup, JFR through {@code docker compose
 * exec ... jcmd 1}. The containers' own from-start recording is switched off, as the local JVMs have none.
 */
public final class ComposeEngine implements Engine {

    private final ComposeCli compose;
    private final ProcessCgroups confinement = ProcessCgroups.forThisMachine();
    private final Recorder recorder;
    private final List<ServiceProcess> started = new ArrayList<>();

    public ComposeEngine(Path labHome, Knobs knobs) {
        ComposeCli.requireEngine();
        if (knobs.confineDelayService()) {
            throw new IllegalArgumentException("--confine-delay-service is not available with --engine compose:"
                    + " compose.yaml leaves the delay service unconfined");
        }
        this.compose = new ComposeCli(labHome, environment(knobs));
        this.recorder = new ContainerRecorder(labHome, compose);
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

    @Override
    public ServiceProcess start(String module, int port, String group, OptionalDouble cpus, List<String> javaCommand,
                                Path log) {
        PortCheck.requireFree(port, module);
        compose.run(Duration.ofMinutes(20), "up", "--detach", "--build", "--wait", module);
        String container = compose.run(Duration.ofSeconds(30), "ps", "--quiet", module);
        long pid = Long.parseLong(compose.docker(Duration.ofSeconds(30), "inspect", "--format", "{{.State.Pid}}",
                container));
        confinement.confined(group);
        ServiceProcess service = new ContainerService(module, port, compose, pid, log);
        started.add(service);
        return service;
    }

    @Override
    public void cleanUp() {
        Processes.stopAll(); // k6
        for (ServiceProcess service : started) {
            try {
                service.close();
            } catch (RuntimeException e) {
                System.err.println("WARNING: could not stop container " + service.name() + ": " + e.getMessage());
            }
        }
        started.clear();
    }
}
