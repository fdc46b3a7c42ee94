package io.threadlab.experiment.confine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Containers are confined by Docker; this reads the CPU counters of a process's own cgroup, found through
 * {@code /proc/<pid>/cgroup} (cgroup v2, or v1's cpu and cpuacct controllers wherever they are mounted). Processes
 * that are not registered as confined (k6) are read from /proc, like an unconfined run.
 */
public final class ProcessCgroups implements Confinement {

    private final String mounts;
    private final Path procRoot;
    private final Set<String> confined = ConcurrentHashMap.newKeySet();
    private final Unconfined plain = new Unconfined("not in a container");

    public ProcessCgroups(String mounts, Path procRoot) {
        this.mounts = mounts;
        this.procRoot = procRoot;
    }

    public static ProcessCgroups forThisMachine() {
        try {
            return new ProcessCgroups(Files.readString(Path.of("/proc/self/mounts")), Path.of("/proc"));
        } catch (IOException e) {
            return new ProcessCgroups("", Path.of("/proc"));
        }
    }

    /** Marks a group name as a container, read from its cgroup. */
    public void confined(String name) {
        confined.add(name);
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
        return command; // compose applies the limits
    }

    /** A container's quota, written where Docker put it (the warm-up's boost; Docker's own view is not needed). */
    @Override
    public void setQuota(String name, long pid, double cpus) {
        try {
            Group group = groupOf(pid);
            long quota = Math.round(cpus * 100_000);
            if (group.v2() != null) {
                Files.writeString(group.v2().resolve("cpu.max"), quota + " 100000");
            } else {
                Files.writeString(group.cpu().resolve("cpu.cfs_quota_us"), String.valueOf(quota));
            }
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("cannot set the CPU quota of process " + pid + " (" + name + "): " + e, e);
        }
    }

    @Override
    public CpuReading read(String name, long pid) {
        if (!confined.contains(name)) {
            return plain.read(name, pid);
        }
        try {
            Group group = groupOf(pid);
            if (group.v2() != null) {
                return CpuReading.fromCgroupV2(Files.readString(group.v2().resolve("cpu.stat")));
            }
            return CpuReading.fromCgroupV1(Files.readString(group.cpuacct().resolve("cpuacct.usage")),
                    Files.readString(group.cpu().resolve("cpu.stat")));
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("cannot read the cgroup of process " + pid + " (" + name + "): " + e, e);
        }
    }

    /** Where a process's CPU group is: one cgroup-v2 directory, or the v1 cpu and cpuacct directories. */
    private record Group(Path v2, Path cpu, Path cpuacct) {
    }

    private Group groupOf(long pid) throws IOException {
        List<String[]> lines = Files.readAllLines(procRoot.resolve(pid + "/cgroup")).stream()
                .map(l -> l.split(":", 3)).filter(f -> f.length == 3).toList();
        for (String[] line : lines) {
            if (line[0].equals("0") && line[1].isEmpty()) {
                Path v2 = mountOf("cgroup2", null);
                if (v2 != null && Files.exists(v2.resolve(strip(line[2])).resolve("cpu.stat"))) {
                    return new Group(v2.resolve(strip(line[2])), null, null);
                }
            }
        }
        Map<String, String> v1 = new java.util.HashMap<>();
        for (String[] line : lines) {
            for (String controller : line[1].split(",")) {
                v1.put(controller, strip(line[2]));
            }
        }
        return new Group(null, mountOf("cgroup", "cpu").resolve(v1.get("cpu")),
                mountOf("cgroup", "cpuacct").resolve(v1.get("cpuacct")));
    }

    @Override
    public void removeAll() {
        // Docker owns the containers' groups.
    }

    private Path mountOf(String type, String controller) {
        return mounts.lines().map(l -> l.split(" ")).filter(f -> f.length >= 4 && f[2].equals(type))
                .filter(f -> controller == null || Arrays.asList(f[3].split(",")).contains(controller))
                .map(f -> Path.of(f[1])).findFirst().orElse(null);
    }

    private static String strip(String path) {
        return path.startsWith("/") ? path.substring(1) : path;
    }
}
