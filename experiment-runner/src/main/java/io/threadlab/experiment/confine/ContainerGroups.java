package io.threadlab.experiment.confine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The cgroups of containers, each registered under its group's name: read on this machine, or inside each container
 * through another engine. Docker makes the groups, applies the limits and removes the groups with its containers; a
 * quota is set through the engine; a process that is no container (k6) is read from /proc, as an unconfined run
 * reads it. What differs is only where a container's cgroup files are read, and what they say is read here, v1 or v2.
 */
public abstract class ContainerGroups implements Confinement {

    private static final double TICKS_PER_SECOND = 100.0; // USER_HZ on Linux

    /** Sets a container's CPU quota through its engine, so that the engine's own view of it stays true. */
    @FunctionalInterface
    public interface QuotaSetter {
        void set(String container, double cpus);
    }

    private final Path proc;
    private final QuotaSetter quotaSetter;
    private final Map<String, String> containers = new ConcurrentHashMap<>();

    /** @param proc where a process that is no container is read */
    ContainerGroups(Path proc, QuotaSetter quotaSetter) {
        this.proc = proc;
        this.quotaSetter = quotaSetter;
    }

    /** The CPU quota in CPUs that the container's cgroup enforces; empty when unlimited. */
    public abstract OptionalDouble quota(String name, long pid);

    /** For messages and the manifest: which cgroup, and where it was read. */
    public abstract String describe(String name, long pid);

    /** The counters of the cgroup of {@code container}, group {@code name}'s, whose process is {@code pid}. */
    abstract CpuReading read(String name, String container, long pid);

    /** Group {@code name} is this container from now on. */
    public void register(String name, String container) {
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

    @Override
    public void setQuota(String name, long pid, double cpus) {
        String container = containers.get(name);
        if (container == null) {
            throw new IllegalStateException("no container for " + name + " to set a CPU quota on");
        }
        quotaSetter.set(container, cpus);
    }

    @Override
    public CpuReading read(String name, long pid) {
        String container = containers.get(name);
        return container == null ? fromProc(proc, pid) : read(name, container, pid);
    }

    @Override
    public void removeAll() {
        // Docker owns the containers' groups; the engine removes the containers.
    }

    /** The container registered as group {@code name}. */
    String container(String name) {
        String container = containers.get(name);
        if (container == null) {
            throw new IllegalStateException("no container for " + name);
        }
        return container;
    }

    /** cgroup v1's quota, from the cpu controller's {@code cpu.cfs_quota_us} and {@code cpu.cfs_period_us}. */
    static OptionalDouble quotaV1(String cfsQuotaUs, String cfsPeriodUs) {
        long quota = Long.parseLong(cfsQuotaUs.strip());
        long period = Long.parseLong(cfsPeriodUs.strip());
        return quota <= 0 ? OptionalDouble.empty() : OptionalDouble.of((double) quota / period);
    }

    /** cgroup v2's quota, from {@code cpu.max}: "50000 100000", or "max 100000" when unlimited. */
    static OptionalDouble quotaV2(String cpuMax) {
        String[] max = cpuMax.strip().split(" ");
        return max[0].equals("max") ? OptionalDouble.empty()
                : OptionalDouble.of(Double.parseDouble(max[0]) / Double.parseDouble(max[1]));
    }

    /** A process outside any container (k6): its user and system time, no quota. */
    static CpuReading fromProc(Path proc, long pid) {
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
