package io.threadlab.experiment.confine;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** A container's CPU, found through its process's /proc entry, in fake cgroup v1 and v2 trees. */
class ContainerCgroupsTest {

    @TempDir
    Path tmp;

    @Test
    void cgroupV1ReadsTheCpuacctAndCpuControllersWhereverTheyAreMounted() throws IOException {
        Path cpu = Files.createDirectories(tmp.resolve("cpu/docker/abc"));
        Path acct = Files.createDirectories(tmp.resolve("cpuacct/docker/abc"));
        Files.writeString(acct.resolve("cpuacct.usage"), "3000000000\n");
        Files.writeString(cpu.resolve("cpu.stat"), "nr_periods 40\nnr_throttled 30\nthrottled_time 500\n");
        Files.createDirectories(tmp.resolve("proc/4242"));
        Files.writeString(tmp.resolve("proc/4242/cgroup"), "3:cpuacct:/docker/abc\n2:cpu:/docker/abc\n1:memory:/x\n");
        String mounts = "cgroup " + tmp.resolve("cpu") + " cgroup rw,cpu 0 0\ncgroup " + tmp.resolve("cpuacct")
                + " cgroup rw,cpuacct 0 0\n";

        ContainerCgroups cgroups = new ContainerCgroups(mounts, tmp.resolve("proc"), (container, cpus) -> { });
        cgroups.register("reactive", "abc");
        CpuReading reading = cgroups.read("reactive", 4242);
        assertThat(reading.cpuSeconds()).isEqualTo(3.0);
        assertThat(reading.throttledPeriods()).isEqualTo(30);
    }

    @Test
    void cgroupV2ReadsCpuStatOfTheUnifiedPath() throws IOException {
        Path group = Files.createDirectories(tmp.resolve("unified/system.slice/docker-abc.scope"));
        Files.writeString(group.resolve("cpu.stat"), "usage_usec 1500000\nnr_periods 10\nnr_throttled 4\n"
                + "throttled_usec 2000\n");
        Files.createDirectories(tmp.resolve("proc/7"));
        Files.writeString(tmp.resolve("proc/7/cgroup"), "0::/system.slice/docker-abc.scope\n");

        ContainerCgroups cgroups = new ContainerCgroups("cgroup2 " + tmp.resolve("unified") + " cgroup2 rw 0 0\n",
                tmp.resolve("proc"), (container, cpus) -> { });
        cgroups.register("imperative", "abc");
        CpuReading reading = cgroups.read("imperative", 7);
        assertThat(reading.cpuSeconds()).isEqualTo(1.5);
        assertThat(reading.periods()).isEqualTo(10);
        assertThat(reading.throttledNanos()).isEqualTo(2_000_000);
    }

    @Test
    void aProcessThatIsNotAContainerIsReadFromProc() {
        ContainerCgroups cgroups = new ContainerCgroups("", Path.of("/proc"), (container, cpus) -> { });
        assertThat(cgroups.read("k6", ProcessHandle.current().pid()).usageNanos()).isPositive();
        assertThat(cgroups.wrap("k6", java.util.OptionalDouble.empty(), java.util.List.of("k6"))).containsExactly("k6");
    }
}
