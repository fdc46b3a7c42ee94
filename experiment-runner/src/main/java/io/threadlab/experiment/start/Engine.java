package io.threadlab.experiment.start;

import io.threadlab.experiment.confine.Confinement;
import io.threadlab.experiment.plan.Jvm;
import io.threadlab.experiment.process.ServiceProcess;
import io.threadlab.experiment.record.Recorder;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * Where the services run: local JVMs in cgroups ({@code local}), or compose-managed containers ({@code compose}).
 * Everything that differs between the two is here, so the run itself never asks which it has.
 */
public interface Engine {

    String name();

    /** How CPU is limited and read. */
    Confinement confinement();

    Recorder recorder();

    /** Before anything starts: builds what must be built (jars, images) and checks the ports the JVMs will need. */
    void prepare(List<String> modules, List<Jvm> jvms);

    /**
     * Starts one service. {@code javaCommand} is what a local JVM runs; containers get the same flags and knobs
     * through compose's environment instead.
     */
    ServiceProcess start(String module, int port, String group, OptionalDouble cpus, List<String> javaCommand,
                         Path log);

    /** Where a JVM's compiler recording can be followed live, or null when the engine cannot. */
    Path compilerRepository(Jvm jvm);

    /** What the engine made, as the manifest records it (containers: image, user, cgroup, quota); empty locally. */
    List<Map<String, Object>> facts();

    /**
     * Where the services (and the database) ran, as the manifest records it: {@code kind}, and for another engine
     * its endpoint, address, cores and what else it said of itself; {@code same_machine}: whether that is this
     * machine, where k6 runs.
     */
    Map<String, Object> where();

    /** Where the services' published ports are reached from this machine. */
    default String address() {
        return "127.0.0.1";
    }

    /** Everything the engine made (groups, containers, repositories) is gone after this. */
    void cleanUp();
}
