package io.threadlab.experiment.confine;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;

/**
 * cgroup v1: the {@code cpu} controller (quota) and {@code cpuacct} (usage) may be one mount or two, and the process
 * joins both. Groups are made under {@code <mount>/<prefix>-<name>}.
 */
final class CgroupV1 implements Confinement {

    static final long PERIOD_US = 100_000;

    private final Path cpuMount;
    private final Path cpuacctMount;
    private final String prefix;
    private final GroupFiles files = new GroupFiles();

    CgroupV1(Path cpuMount, Path cpuacctMount, String prefix) {
        this.cpuMount = cpuMount;
        this.cpuacctMount = cpuacctMount;
        this.prefix = prefix;
    }

    @Override
    public String method() {
        return "cgroup-v1";
    }

    @Override
    public boolean limits() {
        return true;
    }

    @Override
    public List<String> wrap(String name, OptionalDouble cpus, List<String> command) {
        Path cpu = files.makeGroup(cpuMount.resolve(prefix + "-" + name));
        Path cpuacct = cpuacctMount.equals(cpuMount) ? cpu : files.makeGroup(cpuacctMount.resolve(prefix + "-" + name));
        files.write(cpu.resolve("cpu.cfs_period_us"), String.valueOf(PERIOD_US));
        files.write(cpu.resolve("cpu.cfs_quota_us"),
                cpus.isPresent() ? String.valueOf(Math.round(cpus.getAsDouble() * PERIOD_US)) : "-1");
        List<Path> procs = new ArrayList<>(List.of(cpu.resolve("cgroup.procs")));
        if (!cpuacct.equals(cpu)) {
            procs.add(cpuacct.resolve("cgroup.procs"));
        }
        return EnrolThenExec.command(procs, command);
    }

    @Override
    public void setQuota(String name, long pid, double cpus) {
        files.write(cpuMount.resolve(prefix + "-" + name).resolve("cpu.cfs_quota_us"),
                String.valueOf(Math.round(cpus * PERIOD_US)));
    }

    @Override
    public CpuReading read(String name, long pid) {
        Path cpu = cpuMount.resolve(prefix + "-" + name);
        Path cpuacct = cpuacctMount.resolve(prefix + "-" + name);
        return CpuReading.fromCgroupV1(files.read(cpuacct.resolve("cpuacct.usage")), files.read(cpu.resolve("cpu.stat")));
    }

    @Override
    public List<String> removeAbandoned(String family) {
        List<String> removed = new ArrayList<>(files.removeAbandoned(cpuMount, family, prefix));
        if (!cpuacctMount.equals(cpuMount)) {
            removed.addAll(files.removeAbandoned(cpuacctMount, family, prefix));
        }
        return removed;
    }

    @Override
    public void removeAll() {
        files.removeMade();
    }
}
