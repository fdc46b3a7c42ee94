package io.threadlab.experiment.confine;

import java.nio.file.Path;
import java.util.List;
import java.util.OptionalDouble;

/**
 * cgroup v2: one tree. The lab makes {@code <root>/<prefix>} with the cpu controller enabled for its children, and one
 * child per process (v2 forbids processes in a group whose children use controllers).
 */
final class CgroupV2 implements Confinement {

    private static final long PERIOD_US = 100_000;

    private final Path root;
    private final String prefix;
    private final GroupFiles files = new GroupFiles();
    private Path parent;

    CgroupV2(Path root, String prefix) {
        this.root = root;
        this.prefix = prefix;
    }

    @Override
    public String method() {
        return "cgroup-v2";
    }

    @Override
    public boolean limits() {
        return true;
    }

    @Override
    public synchronized List<String> wrap(String name, OptionalDouble cpus, List<String> command) {
        if (parent == null) {
            parent = files.makeGroup(root.resolve(prefix));
            files.write(parent.resolve("cgroup.subtree_control"), "+cpu");
        }
        Path group = files.makeGroup(parent.resolve(name));
        files.write(group.resolve("cpu.max"), (cpus.isPresent()
                ? String.valueOf(Math.round(cpus.getAsDouble() * PERIOD_US)) : "max") + " " + PERIOD_US);
        return EnrolThenExec.command(List.of(group.resolve("cgroup.procs")), command);
    }

    @Override
    public void setQuota(String name, long pid, double cpus) {
        files.write(root.resolve(prefix).resolve(name).resolve("cpu.max"),
                Math.round(cpus * PERIOD_US) + " " + PERIOD_US);
    }

    @Override
    public CpuReading read(String name, long pid) {
        return CpuReading.fromCgroupV2(files.read(root.resolve(prefix).resolve(name).resolve("cpu.stat")));
    }

    @Override
    public List<String> removeAbandoned(String family) {
        return files.removeAbandoned(root, family, prefix);
    }

    @Override
    public void removeAll() {
        files.removeMade();
    }
}
