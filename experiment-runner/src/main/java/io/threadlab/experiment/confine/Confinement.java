package io.threadlab.experiment.confine;

import java.util.List;
import java.util.OptionalDouble;

/**
 * Puts a process in its own CPU-accounted group, optionally limited to a CPU quota, before the JVM starts: a JVM
 * only sizes itself to the quota (availableProcessors, GC, pools) if it is already inside the group at start.
 */
public interface Confinement {

    /** How this machine confines, as recorded in the manifest: cgroup-v2, cgroup-v1, systemd-run, none. */
    String method();

    /** True when CPU limits really apply. */
    boolean limits();

    /**
     * The command that starts {@code command} inside group {@code name}, limited to {@code cpus} when present,
     * accounted only when empty.
     */
    List<String> wrap(String name, OptionalDouble cpus, List<String> command);

    /**
     * Changes the quota of group {@code name} while its process runs (the warm-up's temporary boost). The JVM sized
     * itself at start; what it sized is checked by the caller before and after.
     */
    void setQuota(String name, long pid, double cpus);

    /** Counters of the group that process {@code pid} (started by {@link #wrap}) runs in. */
    CpuReading read(String name, long pid);

    /**
     * Removes the empty groups named {@code family*} that an earlier run made and could not remove (it was killed:
     * SIGKILL or a machine restart leave no chance to clean up). Groups still holding a process are kept.
     *
     * @return the groups removed
     */
    default List<String> removeAbandoned(String family) {
        return List.of();
    }

    /** Removes every group this confinement made. Safe to call more than once. */
    void removeAll();
}
