package io.threadlab.experiment.confine;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * The containers of another Docker engine, whose cgroups are not this machine's: each container's own cgroup is read
 * inside it ({@code /sys/fs/cgroup}, which the engine mounts as the container's own group, v1 or v2), through the
 * engine. k6 runs here, and is read from this machine's /proc.
 */
public final class EngineCgroups extends ContainerGroups {

    /**
     * Prints "v2" and cpu.stat and cpu.max, or "v1" and the cpu and cpuacct controllers' counters and quota, each
     * file after a line naming it.
     */
    static final String READ = "cd /sys/fs/cgroup && if [ -f cpu.stat ]; then echo '@v2'; for f in cpu.stat cpu.max;"
            + " do echo \"@$f\"; cat $f; done; else echo '@v1'; for f in cpu/cpu.stat cpuacct/cpuacct.usage"
            + " cpu/cpu.cfs_quota_us cpu/cpu.cfs_period_us; do echo \"@${f#*/}\"; cat $f; done; fi";

    /** Runs a shell script inside a container, through its engine; returns what it printed. */
    @FunctionalInterface
    public interface Exec {
        String run(String container, String script);
    }

    private final Exec exec;

    public EngineCgroups(Exec exec, QuotaSetter quotaSetter) {
        super(Path.of("/proc"), quotaSetter);
        this.exec = exec;
    }

    @Override
    CpuReading read(String name, String container, long pid) {
        return reading(files(name));
    }

    @Override
    public OptionalDouble quota(String name, long pid) {
        return quota(files(name));
    }

    /** For messages and the manifest: "cgroup v2 of container 1a2b3c4d5e6f, read through the engine". */
    @Override
    public String describe(String name, long pid) {
        String container = container(name);
        try {
            Map<String, String> files = files(name);
            return "cgroup " + files.get("version") + " of container " + container.substring(0,
                    Math.min(12, container.length())) + ", read through the engine";
        } catch (RuntimeException e) {
            return "cgroup unknown (" + e.getMessage() + ")";
        }
    }

    /** One container's CPU counters, read inside it through its engine. */
    public static CpuReading readCpu(Exec exec, String container) {
        return reading(parse(exec.run(container, READ)));
    }

    private Map<String, String> files(String name) {
        String out = exec.run(container(name), READ);
        try {
            return parse(out);
        } catch (RuntimeException e) {
            throw new IllegalStateException("cannot read the cgroup of " + name + "'s container (it printed: "
                    + out.lines().limit(3).toList() + "): " + e.getMessage(), e);
        }
    }

    /** What {@link #READ} printed: the version under "version", and each file's text under its name. */
    static Map<String, String> parse(String out) {
        Map<String, String> files = new HashMap<>();
        String current = null;
        StringBuilder text = new StringBuilder();
        for (String line : out.split("\n")) {
            if (line.equals("@v1") || line.equals("@v2")) {
                files.put("version", line.substring(1));
            } else if (line.startsWith("@")) {
                if (current != null) {
                    files.put(current, text.toString());
                }
                current = line.substring(1);
                text.setLength(0);
            } else {
                text.append(line).append('\n');
            }
        }
        if (current != null) {
            files.put(current, text.toString());
        }
        if (!files.containsKey("version") || !files.containsKey("cpu.stat")) {
            throw new IllegalStateException("no cpu controller in the container's /sys/fs/cgroup");
        }
        return files;
    }

    /** A file the container did not print reads as its kernel default: no usage, no quota. */
    static CpuReading reading(Map<String, String> files) {
        return files.get("version").equals("v1")
                ? CpuReading.fromCgroupV1(files.getOrDefault("cpuacct.usage", "0"), files.get("cpu.stat"))
                : CpuReading.fromCgroupV2(files.get("cpu.stat"));
    }

    static OptionalDouble quota(Map<String, String> files) {
        return files.get("version").equals("v1")
                ? quotaV1(files.getOrDefault("cpu.cfs_quota_us", "-1"),
                        files.getOrDefault("cpu.cfs_period_us", "100000"))
                : quotaV2(files.getOrDefault("cpu.max", "max 100000"));
    }
}
