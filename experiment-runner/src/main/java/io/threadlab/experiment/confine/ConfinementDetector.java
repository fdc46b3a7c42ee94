package io.threadlab.experiment.confine;

import io.threadlab.experiment.process.Processes;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Chooses how to confine on this machine, from the mount table: a writable cgroup v2 tree with the cpu controller,
 * else writable cgroup v1 cpu + cpuacct mounts, else a working {@code systemd-run --user --scope}, else nothing
 * (with the reason, for the loud warning).
 */
public final class ConfinementDetector {

    private final String mounts;
    private final String prefix;

    /** @param mounts the text of /proc/self/mounts (or a test's fake one) */
    public ConfinementDetector(String mounts, String prefix) {
        this.mounts = mounts;
        this.prefix = prefix;
    }

    public static ConfinementDetector forThisMachine(String prefix) {
        try {
            return new ConfinementDetector(Files.readString(Path.of("/proc/self/mounts")), prefix);
        } catch (IOException e) {
            return new ConfinementDetector("", prefix);
        }
    }

    record Mount(Path dir, String type, List<String> options) {
    }

    public Confinement detect() {
        List<Mount> table = mounts.lines().map(l -> l.split(" ")).filter(f -> f.length >= 4)
                .map(f -> new Mount(Path.of(f[1]), f[2], Arrays.asList(f[3].split(",")))).toList();

        Optional<Mount> v1cpu = table.stream().filter(m -> m.type().equals("cgroup") && m.options().contains("cpu"))
                .findFirst();
        Optional<Mount> v1acct = table.stream()
                .filter(m -> m.type().equals("cgroup") && m.options().contains("cpuacct")).findFirst();
        if (v1cpu.isPresent() && v1acct.isPresent() && writable(v1cpu.get().dir()) && writable(v1acct.get().dir())) {
            return new CgroupV1(v1cpu.get().dir(), v1acct.get().dir(), prefix);
        }
        Optional<Mount> v2 = table.stream().filter(m -> m.type().equals("cgroup2"))
                .filter(m -> controllers(m.dir()).contains("cpu")).findFirst();
        if (v2.isPresent() && writable(v2.get().dir())) {
            return new CgroupV2(v2.get().dir(), prefix);
        }
        if (v2.isPresent() && systemdScopeWorks()) {
            return new SystemdScope(v2.get().dir(), prefix);
        }
        String reason = v1cpu.isEmpty() && v2.isEmpty()
                ? "no cgroup cpu controller is mounted"
                : "the cgroup cpu controller is not writable by this user and systemd-run --user --scope does not work";
        return new Unconfined(reason);
    }

    /** Why a run is unconfined, or empty when it is confined. */
    public static Optional<String> unconfinedReason(Confinement confinement) {
        return confinement instanceof Unconfined u ? Optional.of(u.reason()) : Optional.empty();
    }

    private static List<String> controllers(Path v2root) {
        try {
            return Arrays.asList(Files.readString(v2root.resolve("cgroup.controllers")).trim().split("\\s+"));
        } catch (IOException e) {
            return List.of();
        }
    }

    private static boolean writable(Path dir) {
        return Files.isDirectory(dir) && Files.isWritable(dir);
    }

    private static boolean systemdScopeWorks() {
        return Processes.succeeds(Duration.ofSeconds(10), "systemd-run", "--user", "--scope", "--quiet", "-p",
                "CPUQuota=50%", "true");
    }
}
