package io.threadlab.experiment.confine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.concurrent.ConcurrentHashMap;

/**
 * CPU counters and quota of each container's own cgroup, found through the /proc entry of its PID 1. cgroup v1 is
 * read where the cpu and cpuacct controllers are mounted; a hybrid machine lists a v2 path too, but with no cpu
 * controller there, so no quota and no throttling: v2 is read only where v1 has no cpu controller. Processes that
 * are not containers (k6) are read from /proc, as an unconfined run reads them.
 */
public final class ContainerCgroups implements ContainerGroups {

    private static final double TICKS_PER_SECOND = 100.0; // USER_HZ on Linux

    private final String mounts;
    private final Path proc;
    private final QuotaSetter quotaSetter;
    private final Map<String, String> containers = new ConcurrentHashMap<>();

    /** Sets a container's CPU quota through its engine, so that the engine's own view of it stays true. */
    @FunctionalInterface
    public interface QuotaSetter {
        void set(String container, double cpus);
    }

    public ContainerCgroups(String mounts, Path proc, QuotaSetter quotaSetter) {
        this.mounts = mounts;
        this.proc = proc;
        this.quotaSetter = quotaSetter;
    }

    public static ContainerCgroups forThisMachine(QuotaSetter quotaSetter) {
        try {
            return new ContainerCgroups(Files.readString(Path.of("/proc/self/mounts")), Path.of("/proc"), quotaSetter);
        } catch (IOException e) {
            return new ContainerCgroups("", Path.of("/proc"), quotaSetter);
        }
    }

    @Override
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
        if (!containers.containsKey(name)) {
            return fromProc(proc, pid);
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

    @Override
    public OptionalDouble quota(String name, long pid) {
        return quota(pid);
    }

    @Override
    public String describe(String name, long pid) {
        return describe(pid);
    }

    /** The CPU quota in CPUs that the process's cgroup enforces; empty when unlimited. */
    public OptionalDouble quota(long pid) {
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
    public String describe(long pid) {
        try {
            Group group = groupOf(pid);
            return (group.v1() ? "cgroup v1 " : "cgroup v2 ") + group.cpu();
        } catch (IOException | RuntimeException e) {
            return "cgroup unknown (" + e.getMessage() + ")";
        }
    }

    @Override
    public void removeAll() {
        // Docker owns the containers' groups; the engine removes the containers.
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

    static Map<String, Long> keyValues(String text) {
        Map<String, Long> values = new HashMap<>();
        text.lines().map(l -> l.strip().split("\\s+")).filter(f -> f.length == 2 && f[1].matches("-?\\d+"))
                .forEach(f -> values.put(f[0], Long.parseLong(f[1])));
        return values;
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
