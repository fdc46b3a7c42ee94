package io.threadlab.experiment.start;

import io.threadlab.experiment.confine.Confinement;
import io.threadlab.experiment.record.Recorder;

import java.nio.file.Path;
import java.util.List;
import java.util.OptionalDouble;

/** Where the services run: local JVMs in cgroups ({@code local}), or compose-managed containers ({@code compose}). */
public interface Engine {

    String name();

    /** How CPU is limited and read. */
    Confinement confinement();

    Recorder recorder();

    /**
     * Starts one service. {@code javaCommand} is what a local JVM runs; containers get the same flags and knobs
     * through compose's environment instead.
     */
    ServiceProcess start(String module, int port, String group, OptionalDouble cpus, List<String> javaCommand,
                         Path log);

    /** Everything the engine made (groups, containers) is gone after this. */
    void cleanUp();
}
