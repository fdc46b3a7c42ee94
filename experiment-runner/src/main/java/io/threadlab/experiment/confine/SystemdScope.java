package io.threadlab.experiment.confine;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;

/**
 * For a non-root user on a systemd machine: {@code systemd-run --user --scope -p CPUQuota=50%} runs the command in a
 * transient scope (cgroup v2), which systemd removes when the process ends. Counters come from the scope's cpu.stat.
 */
final class SystemdScope implements Confinement {

    private final Path cgroupRoot;
    private final String prefix;
    private final GroupFiles files = new GroupFiles();

    SystemdScope(Path cgroupRoot, String prefix) {
        this.cgroupRoot = cgroupRoot;
        this.prefix = prefix;
    }

    @Override
    public String method() {
        return "systemd-run";
    }

    @Override
    public boolean limits() {
        return true;
    }

    @Override
    public List<String> wrap(String name, OptionalDouble cpus, List<String> command) {
        List<String> wrapped = new ArrayList<>(List.of("systemd-run", "--user", "--scope", "--quiet",
                "--unit", prefix + "-" + name));
        cpus.ifPresent(c -> wrapped.addAll(List.of("-p", "CPUQuota=" + Math.round(c * 100) + "%")));
        wrapped.addAll(command);
        return wrapped;
    }

    @Override
    public void setQuota(String name, long pid, double cpus) {
        files.write(scopeDirectory(pid).resolve("cpu.max"), Math.round(cpus * 100_000) + " 100000");
    }

    @Override
    public CpuReading read(String name, long pid) {
        return CpuReading.fromCgroupV2(files.read(scopeDirectory(pid).resolve("cpu.stat")));
    }

    private Path scopeDirectory(long pid) {
        String line = files.read(Path.of("/proc", String.valueOf(pid), "cgroup")).lines()
                .filter(l -> l.startsWith("0::")).findFirst().orElse("0::/");
        return cgroupRoot.resolve(line.substring(3).replaceFirst("^/", ""));
    }

    @Override
    public void removeAll() {
        // systemd removes a scope when its last process exits.
    }
}
