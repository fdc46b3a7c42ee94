package io.threadlab.experiment.confine;

import java.util.OptionalDouble;

/**
 * The cgroups of containers, each registered under its group's name: read on this machine ({@link ContainerCgroups})
 * or inside the container through another engine ({@link EngineCgroups}).
 */
public interface ContainerGroups extends Confinement {

    /** Group {@code name} is this container from now on. */
    void register(String name, String container);

    /** The CPU quota in CPUs that the container's cgroup enforces; empty when unlimited. */
    OptionalDouble quota(String name, long pid);

    /** For messages and the manifest: which cgroup, and where it was read. */
    String describe(String name, long pid);
}
