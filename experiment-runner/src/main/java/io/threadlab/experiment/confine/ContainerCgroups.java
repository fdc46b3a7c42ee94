package io.threadlab.experiment.confine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * CPU counters and quota of each container's own cgroup, found through the /proc entry of its PID 1. cgroup v1 is
 * read where the cpu and cpuacct controllers are mounted; a hybrid machine lists a v2 path too, but with no cpu
 * controller there, so no quota and no throttling: v2 is read only where v1 has no cpu controller.
 */
public final class ContainerCgroups extends ContainerGroups {

    private final String mounts;
    private final Path proc;

    public ContainerCgroups(String mounts, Path proc, QuotaSetter quotaSetter) {
        super(proc, quotaSetter);
        this.mounts = mounts;
        this.proc = proc;
    }

    public static ContainerCgroups forThisMachine(QuotaSetter quotaSetter) {
        try {
            return new ContainerCgroups(Files.readString(Path.of("/proc/self/mounts")), Path.of("/proc"), quotaSetter);
        } catch (IOException e) {
            return new ContainerCgroups("", Path.of("/proc"), quotaSetter);
        }
    }

    @Override
    CpuReading read(String name, String container, long pid) {
        try {
            Group group = groupOf(pid);
            String cpuStat = Files.readString(group.cpu().resolve("cpu.stat"));
            return group.v1() ? CpuReading.fromCgroupV1(Files.readString(group.cpuacct().resolve("cpuacct.usage")),
                    cpuStat) : CpuReading.fromCgroupV2(cpuStat);
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("cannot read the cgroup of process " + pid + " (" + name + "): " + e, e);
        }
    }

    @Override
    public OptionalDouble quota(String name, long pid) {
        try {
            Group group = groupOf(pid);
            return group.v1() ? quotaV1(Files.readString(group.cpu().resolve("cpu.cfs_quota_us")),
                    Files.readString(group.cpu().resolve("cpu.cfs_period_us")))
                    : quotaV2(Files.readString(group.cpu().resolve("cpu.max")));
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("cannot read the CPU quota of process " + pid + ": " + e, e);
        }
    }

    /** For messages and the manifest: "cgroup v1 /sys/fs/cgroup/cpu/docker/&lt;id&gt;". */
    @Override
    public String describe(String name, long pid) {
        try {
            Group group = groupOf(pid);
            return (group.v1() ? "cgroup v1 " : "cgroup v2 ") + group.cpu();
        } catch (IOException | RuntimeException e) {
            return "cgroup unknown (" + e.getMessage() + ")";
        }
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
}
