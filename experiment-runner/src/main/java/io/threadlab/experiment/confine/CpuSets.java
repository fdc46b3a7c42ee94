package io.threadlab.experiment.confine;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/**
 * Where the load generator and the delay service run, apart from the services they measure: two cgroup v1 cpusets,
 * {@code load} (k6 and the delay service) and {@code services} (every variant's JVM). Shared, both may use every CPU
 * (the scheduler mixes them, as it always has); separate, the load takes the last CPU and the services the others.
 * Processes join their set after they start: a cpuset changes nothing a JVM sizes itself by (its CPU quota already
 * gives it one processor). Warm-ups run shared, so that their boost can use the whole machine.
 */
public final class CpuSets {

    public enum Mode {
        /** Everything on every CPU: k6 and the delay service compete with the variants for the same cores. */
        SHARED,
        /** k6 and the delay service on the last CPU, the variants on the others. */
        SEPARATE
    }

    private final Path load;
    private final Path services;
    private final String all;
    private final String loadCpus;
    private final String serviceCpus;
    private final GroupFiles files = new GroupFiles();
    private Mode mode;

    private CpuSets(Path mount, String prefix, int cpus) {
        this.all = "0-" + (cpus - 1);
        this.loadCpus = String.valueOf(cpus - 1);
        this.serviceCpus = cpus == 2 ? "0" : "0-" + (cpus - 2);
        String mems = files.read(mount.resolve("cpuset.mems")).trim();
        this.load = group(mount.resolve(prefix + "-load"), mems);
        this.services = group(mount.resolve(prefix + "-services"), mems);
        apply(Mode.SHARED);
    }

    private static final Path MOUNT = Path.of("/sys/fs/cgroup/cpuset");

    /** Whether this machine has a writable cgroup v1 cpuset and at least two CPUs. */
    public static boolean availableHere() {
        return Runtime.getRuntime().availableProcessors() >= 2 && Files.isWritable(MOUNT.resolve("cgroup.procs"));
    }

    /** Cpusets on this machine, or empty where {@link #availableHere} says there are none. */
    public static Optional<CpuSets> forThisMachine(String prefix) {
        return availableHere() ? Optional.of(new CpuSets(MOUNT, prefix, Runtime.getRuntime().availableProcessors()))
                : Optional.empty();
    }

    private Path group(Path dir, String mems) {
        files.makeGroup(dir);
        files.write(dir.resolve("cpuset.mems"), mems); // a cpuset with no memory node takes no process
        files.write(dir.resolve("cpuset.cpus"), all);
        return dir;
    }

    /** Puts k6 or the delay service in the load's set. */
    public void joinLoad(long pid) {
        files.write(load.resolve("cgroup.procs"), String.valueOf(pid));
    }

    /** Puts a variant's JVM in the services' set. */
    public void joinServices(long pid) {
        files.write(services.resolve("cgroup.procs"), String.valueOf(pid));
    }

    /** @return whether the mode changed */
    public synchronized boolean apply(Mode next) {
        if (next == mode) {
            return false;
        }
        // widen before narrowing, so no process is ever left without a CPU it may run on
        files.write(load.resolve("cpuset.cpus"), all);
        files.write(services.resolve("cpuset.cpus"), all);
        if (next == Mode.SEPARATE) {
            files.write(load.resolve("cpuset.cpus"), loadCpus);
            files.write(services.resolve("cpuset.cpus"), serviceCpus);
        }
        mode = next;
        return true;
    }

    /** CPUs the load generator and the delay service have in a mode: what k6's headroom is judged against. */
    public double loadCpus(Mode in) {
        return in == Mode.SEPARATE ? 1 : Runtime.getRuntime().availableProcessors();
    }

    public String describe(Mode in) {
        return in == Mode.SEPARATE ? String.format(Locale.ROOT, "k6 and the delay service on CPU %s, the variants on"
                + " CPU %s", loadCpus, serviceCpus) : "every process on CPUs " + all;
    }

    /** Removes both sets once their processes are gone. */
    public void removeAll() {
        files.removeMade();
    }
}
