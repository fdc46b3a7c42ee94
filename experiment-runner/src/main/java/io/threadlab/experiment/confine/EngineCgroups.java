package io.threadlab.experiment.confine;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The containers of another Docker engine, whose cgroups are not this machine's: each container's own cgroup is read
 * inside it ({@code /sys/fs/cgroup}, which the engine mounts as the container's own group, v1 or v2), through the
 * engine. k6 runs here, and is read from this machine's /proc.
 */
public final class EngineCgroups implements ContainerGroups {

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
    private final ContainerCgroups.QuotaSetter quotaSetter;
    private final Map<String, String> containers = new ConcurrentHashMap<>();

    public EngineCgroups(Exec exec, ContainerCgroups.QuotaSetter quotaSetter) {
        this.exec = exec;
        this.quotaSetter = quotaSetter;
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
        quotaSetter.set(container(name), cpus);
    }

    @Override
    public CpuReading read(String name, long pid) {
        if (!containers.containsKey(name)) {
            return ContainerCgroups.fromProc(java.nio.file.Path.of("/proc"), pid);
        }
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

    @Override
    public void removeAll() {
        // Docker owns the containers' groups; the engine removes the containers.
    }

    /** One container's CPU counters, read inside it through its engine. */
    public static CpuReading readCpu(Exec exec, String container) {
        return reading(parse(exec.run(container, READ)));
    }

    private String container(String name) {
        String container = containers.get(name);
        if (container == null) {
            throw new IllegalStateException("no container for " + name);
        }
        return container;
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

    static CpuReading reading(Map<String, String> files) {
        Map<String, Long> stat = ContainerCgroups.keyValues(files.get("cpu.stat"));
        if (files.get("version").equals("v1")) {
            return new CpuReading(Long.parseLong(files.getOrDefault("cpuacct.usage", "0").strip()),
                    stat.getOrDefault("nr_periods", 0L), stat.getOrDefault("nr_throttled", 0L),
                    stat.getOrDefault("throttled_time", 0L));
        }
        return new CpuReading(stat.getOrDefault("usage_usec", 0L) * 1000, stat.getOrDefault("nr_periods", 0L),
                stat.getOrDefault("nr_throttled", 0L), stat.getOrDefault("throttled_usec", 0L) * 1000);
    }

    static OptionalDouble quota(Map<String, String> files) {
        if (files.get("version").equals("v1")) {
            long quota = Long.parseLong(files.getOrDefault("cpu.cfs_quota_us", "-1").strip());
            long period = Long.parseLong(files.getOrDefault("cpu.cfs_period_us", "100000").strip());
            return quota <= 0 ? OptionalDouble.empty() : OptionalDouble.of((double) quota / period);
        }
        String[] max = files.getOrDefault("cpu.max", "max 100000").strip().split(" ");
        return max[0].equals("max") ? OptionalDouble.empty()
                : OptionalDouble.of(Double.parseDouble(max[0]) / Double.parseDouble(max[1]));
    }
}
