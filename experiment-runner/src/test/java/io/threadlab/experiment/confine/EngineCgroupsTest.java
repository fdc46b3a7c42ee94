package io.threadlab.experiment.confine;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Another engine's containers, read inside each through the engine: what its cgroup files say, v1 or v2. */
class EngineCgroupsTest {

    private static final String V2 = """
            @v2
            @cpu.stat
            usage_usec 2500000
            user_usec 2000000
            system_usec 500000
            nr_periods 40
            nr_throttled 12
            throttled_usec 300000
            @cpu.max
            50000 100000
            """;

    private static final String V1 = """
            @v1
            @cpu.stat
            nr_periods 40
            nr_throttled 12
            throttled_time 300000000
            @cpuacct.usage
            2500000000
            @cpu.cfs_quota_us
            50000
            @cpu.cfs_period_us
            100000
            """;

    @Test
    void aContainersCountersAndQuotaAreTheSameFromEitherCgroupVersion() {
        for (String out : List.of(V1, V2)) {
            List<String> execs = new ArrayList<>();
            EngineCgroups groups = new EngineCgroups((container, script) -> {
                execs.add(container);
                assertThat(script).isEqualTo(EngineCgroups.READ);
                return out;
            }, (container, cpus) -> { });
            groups.register("reactive", "c0ffee");
            CpuReading reading = groups.read("reactive", -1);
            assertThat(reading).isEqualTo(new CpuReading(2_500_000_000L, 40, 12, 300_000_000L));
            assertThat(groups.quota("reactive", -1)).hasValue(0.5);
            assertThat(execs).containsOnly("c0ffee");
        }
    }

    @Test
    void noQuotaIsUnlimitedAndNoCpuControllerIsSaid() {
        EngineCgroups groups = new EngineCgroups((container, script) -> V2.replace("50000 100000", "max 100000"),
                (container, cpus) -> { });
        groups.register("delay", "d");
        assertThat(groups.quota("delay", -1)).isEmpty();
        EngineCgroups none = new EngineCgroups((container, script) -> "@v1\n", (container, cpus) -> { });
        none.register("delay", "d");
        assertThatThrownBy(() -> none.read("delay", -1)).hasMessageContaining("no cpu controller");
    }

    @Test
    void theQuotaIsSetThroughTheEngineAndAProcessOfThisMachineIsReadHere() {
        List<String> set = new ArrayList<>();
        EngineCgroups groups = new EngineCgroups((container, script) -> V2,
                (container, cpus) -> set.add(container + "=" + cpus));
        groups.register("reactive", "c0ffee");
        groups.setQuota("reactive", -1, 2.0);
        assertThat(set).containsExactly("c0ffee=2.0");
        assertThat(groups.read("k6", ProcessHandle.current().pid()).usageNanos()).isPositive();
    }
}
