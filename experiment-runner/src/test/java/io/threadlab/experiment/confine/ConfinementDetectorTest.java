package io.threadlab.experiment.confine;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalDouble;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Detection and enrolment against a fake cgroup tree: ordinary directories standing in for the mounts. */
class ConfinementDetectorTest {

    @TempDir
    Path tmp;

    private String v1Mounts(Path cpu, Path cpuacct) {
        return """
                sysfs /sys sysfs rw,nosuid 0 0
                cgroup %s cgroup rw,relatime,cpu 0 0
                cgroup %s cgroup rw,relatime,cpuacct 0 0
                cgroup2 %s cgroup2 rw,relatime 0 0
                """.formatted(cpu, cpuacct, tmp.resolve("unified"));
    }

    @Test
    void cgroupV1WithSeparateCpuAndCpuacctMountsJoinsBothBeforeTheCommandRuns() throws Exception {
        Path cpu = Files.createDirectories(tmp.resolve("cpu"));
        Path cpuacct = Files.createDirectories(tmp.resolve("cpuacct"));
        Confinement confinement = new ConfinementDetector(v1Mounts(cpu, cpuacct), "lab-test").detect();
        assertThat(confinement.method()).isEqualTo("cgroup-v1");
        assertThat(confinement.limits()).isTrue();

        Path marker = tmp.resolve("ran");
        List<String> command = confinement.wrap("reactive-1", OptionalDouble.of(0.5),
                List.of("sh", "-c", "echo $$ > '" + marker + "'"));
        Process process = new ProcessBuilder(command).start();
        assertThat(process.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).isZero();

        String pid = String.valueOf(process.pid());
        // The wrapper enrolled its own PID, and exec kept that PID for the command: it ran inside both groups.
        assertThat(Files.readString(cpu.resolve("lab-test-reactive-1/cgroup.procs")).trim()).isEqualTo(pid);
        assertThat(Files.readString(cpuacct.resolve("lab-test-reactive-1/cgroup.procs")).trim()).isEqualTo(pid);
        assertThat(Files.readString(marker).trim()).isEqualTo(pid);
        assertThat(Files.readString(cpu.resolve("lab-test-reactive-1/cpu.cfs_quota_us"))).isEqualTo("50000");
        assertThat(Files.readString(cpu.resolve("lab-test-reactive-1/cpu.cfs_period_us"))).isEqualTo("100000");
    }

    @Test
    void anAccountingOnlyGroupHasNoQuota() throws Exception {
        Path cpu = Files.createDirectories(tmp.resolve("cpu"));
        Confinement confinement = new ConfinementDetector(v1Mounts(cpu, Files.createDirectories(tmp.resolve("acct"))),
                "lab-test").detect();
        confinement.wrap("k6", OptionalDouble.empty(), List.of());
        assertThat(Files.readString(cpu.resolve("lab-test-k6/cpu.cfs_quota_us"))).isEqualTo("-1");
    }

    @Test
    void readsUsageAndThrottlingAndRemovesWhatItMade() throws Exception {
        Path cpu = Files.createDirectories(tmp.resolve("cpu"));
        Path cpuacct = Files.createDirectories(tmp.resolve("cpuacct"));
        Confinement confinement = new ConfinementDetector(v1Mounts(cpu, cpuacct), "lab-test").detect();
        confinement.wrap("imperative-1", OptionalDouble.of(0.5), List.of("true"));
        Files.writeString(cpuacct.resolve("lab-test-imperative-1/cpuacct.usage"), "2500000000\n");
        Files.writeString(cpu.resolve("lab-test-imperative-1/cpu.stat"),
                "nr_periods 60\nnr_throttled 55\nthrottled_time 9000000000\n");

        CpuReading reading = confinement.read("imperative-1", 1);
        assertThat(reading.cpuSeconds()).isEqualTo(2.5);
        assertThat(reading.periods()).isEqualTo(60);
        assertThat(reading.throttledPeriods()).isEqualTo(55);
        assertThat(reading.minus(new CpuReading(500_000_000, 10, 5, 0)).cpuSeconds()).isEqualTo(2.0);

        confinement.removeAll();
        assertThat(cpu.resolve("lab-test-imperative-1")).doesNotExist();
        assertThat(cpuacct.resolve("lab-test-imperative-1")).doesNotExist();
        assertThat(cpu).exists();
    }

    @Test
    void cgroupV2NeedsTheCpuControllerAndWritesCpuMax() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("v2"));
        Files.writeString(root.resolve("cgroup.controllers"), "cpuset cpu io memory pids\n");
        Confinement confinement = new ConfinementDetector("cgroup2 " + root + " cgroup2 rw 0 0\n", "lab-test").detect();
        assertThat(confinement.method()).isEqualTo("cgroup-v2");

        List<String> command = confinement.wrap("virtual-thread-1", OptionalDouble.of(0.5), List.of("true"));
        assertThat(Files.readString(root.resolve("lab-test/cgroup.subtree_control"))).isEqualTo("+cpu");
        assertThat(Files.readString(root.resolve("lab-test/virtual-thread-1/cpu.max"))).isEqualTo("50000 100000");
        assertThat(command).startsWith("sh", "-c").endsWith("true");
        assertThat(command.get(2)).contains(root.resolve("lab-test/virtual-thread-1/cgroup.procs").toString());
    }

    @Test
    void withoutAUsableCpuControllerTheRunIsUnconfinedAndSaysWhy() {
        Confinement confinement = new ConfinementDetector("sysfs /sys sysfs rw 0 0\n", "lab-test").detect();
        assertThat(confinement.method()).isEqualTo("none");
        assertThat(confinement.limits()).isFalse();
        assertThat(ConfinementDetector.unconfinedReason(confinement)).contains("no cgroup cpu controller is mounted");
        assertThat(confinement.wrap("x", OptionalDouble.of(0.5), List.of("java", "-jar", "a.jar")))
                .containsExactly("java", "-jar", "a.jar");
    }

    @Test
    void unconfinedCpuComesFromProcForALiveProcess() throws Exception {
        Confinement confinement = new ConfinementDetector("", "lab-test").detect();
        CpuReading self = confinement.read("x", ProcessHandle.current().pid());
        assertThat(self.usageNanos()).isPositive(); // this JVM has used CPU to get here
    }

    @Test
    void emptyGroupsOfAKilledRunAreRemovedAndBusyOnesAndOthersKept() throws Exception {
        Path cpu = Files.createDirectories(tmp.resolve("cpu"));
        Path cpuacct = Files.createDirectories(tmp.resolve("cpuacct"));
        for (Path mount : List.of(cpu, cpuacct)) {
            Files.writeString(Files.createDirectories(mount.resolve("lab-old-k6")).resolve("cgroup.procs"), "");
            Files.writeString(Files.createDirectories(mount.resolve("lab-busy-k6")).resolve("cgroup.procs"), "4242\n");
            Files.createDirectories(mount.resolve("docker"));
        }
        Confinement confinement = new ConfinementDetector(v1Mounts(cpu, cpuacct), "lab-new").detect();
        confinement.wrap("k6", OptionalDouble.empty(), List.of());

        assertThat(confinement.removeAbandoned("lab-")).containsExactlyInAnyOrder(
                cpu.resolve("lab-old-k6").toString(), cpuacct.resolve("lab-old-k6").toString());
        for (Path mount : List.of(cpu, cpuacct)) {
            assertThat(mount.resolve("lab-old-k6")).doesNotExist();
            assertThat(mount.resolve("lab-busy-k6")).exists(); // a process still runs there: not abandoned
            assertThat(mount.resolve("docker")).exists();
            assertThat(mount.resolve("lab-new-k6")).exists(); // this run's own group
        }
    }

    @Test
    void aKilledV2RunsParentIsRemovedWithItsEmptyChildren() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("v2"));
        Files.writeString(root.resolve("cgroup.controllers"), "cpu\n");
        Path old = Files.createDirectories(root.resolve("lab-old/reactive-1"));
        Files.writeString(old.resolve("cgroup.procs"), "");
        Files.writeString(root.resolve("lab-old/cgroup.procs"), "");
        Confinement confinement = new ConfinementDetector("cgroup2 " + root + " cgroup2 rw 0 0\n", "lab-new").detect();

        assertThat(confinement.removeAbandoned("lab-")).containsExactly(root.resolve("lab-old").toString());
        assertThat(root.resolve("lab-old")).doesNotExist();
    }
}
