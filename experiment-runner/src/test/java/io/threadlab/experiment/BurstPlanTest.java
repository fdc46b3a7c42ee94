package io.threadlab.experiment;

import io.threadlab.experiment.collect.PlanFacts;
import io.threadlab.experiment.load.WindowRunner;
import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.Burst;
import io.threadlab.experiment.plan.ExperimentPlan;
import io.threadlab.experiment.plan.Step;
import io.threadlab.experiment.plan.Window;
import io.threadlab.experiment.plan.WindowId;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.threadlab.experiment.PlannedRun.run;
import static io.threadlab.experiment.PlannedRun.windows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code --shape burst}: seed 004's burst as a plan (each variant's warm-up and calibration, then a burst at each
 * delay, named by its requests), and everything it refuses before anything starts, each with its reason.
 */
class BurstPlanTest {

    @Test
    void aBurstRunFiresSeed004sBurstAtSeed004sWaitsOnWarmCalibratedJvms() {
        ExperimentPlan plan = run("--shape", "burst", "--no-jfr");
        assertThat(plan.burst()).isTrue();
        assertThat(plan.levels()).isEmpty();
        assertThat(plan.bursts()).containsExactly(Burst.SEED_REQUESTS);
        assertThat(plan.delays()).containsExactly(0, 50, 100, 200, 500, 1000);
        assertThat(plan.jvmStarts()).isEqualTo(1);
        List<Window> bursts = windows(plan).stream().filter(Window::burst).toList();
        assertThat(bursts).hasSize(3 * 6);
        assertThat(bursts).allSatisfy(w -> {
            assertThat(w.users()).isNull();
            assertThat(((Burst) w.load()).requests()).isEqualTo(10_000);
            assertThat(w.path()).isEqualTo("/api");
        });
        assertThat(bursts.getFirst().id().format()).isEqualTo("imperative-0ms-burst-10000-1");
        // the name reads back as the burst's point, never as the open model
        WindowId parsed = WindowId.parse("reactive-50ms-burst-10000-1").orElseThrow();
        assertThat(parsed.burst()).isTrue();
        assertThat(parsed.open()).isFalse();
        assertThat(parsed.at().get(Axis.REQUESTS)).isEqualTo(10_000);
        assertThat(parsed.at().get(Axis.DELAY_MS)).isEqualTo(50);
        assertThat(parsed.scenario()).isEqualTo("burst-10000");
        // warmed up at closed load before anything fires (the calibration's most users, above the burst's own
        // warm-up users), and calibrated: the CPU ceiling of each burst
        assertThat(plan.schedule().steps()).filteredOn(s -> s instanceof Step.WarmUp).hasSize(3)
                .allSatisfy(s -> assertThat(((Step.WarmUp) s).levels()).singleElement().asInstanceOf(
                        org.assertj.core.api.InstanceOfAssertFactories.INTEGER).isGreaterThanOrEqualTo(
                        ExperimentPlan.BURST_WARM_UP_USERS));
        assertThat(run("--shape", "burst", "--no-calibration").schedule().steps())
                .filteredOn(s -> s instanceof Step.WarmUp).allSatisfy(s -> assertThat(((Step.WarmUp) s).levels())
                        .containsExactly(ExperimentPlan.BURST_WARM_UP_USERS));
        assertThat(windows(plan)).filteredOn(Window::calibration).isNotEmpty()
                .allSatisfy(w -> assertThat(w.users()).isNotNull());
        assertThat(plan.schedule().steps()).filteredOn(s -> s instanceof Step.Measure m && m.window().burst())
                .allSatisfy(s -> assertThat(s.kind()).isEqualTo("burst"));
        assertThat(plan.open().any()).isFalse();
        assertThat(plan.precision().active()).isFalse();
    }

    @Test
    void theManifestRecordsTheBurstsKnobs() {
        ExperimentPlan plan = run("--shape", "burst", "--requests", "2000", "--delay-ms", "50", "--no-jfr");
        PlanFacts facts = PlanFacts.of(plan, plan.schedule(), WindowRunner.openModelMaxUsers(plan));
        assertThat(facts.shapes().burst()).containsEntry("requests", List.of(2000))
                .containsEntry("senders", Burst.SENDERS).containsEntry("timeout_seconds", Burst.TIMEOUT_SECONDS)
                .containsEntry("script", "k6/burst.js").containsEntry("lead_ms", List.of(5000));
        assertThat(PlanFacts.of(run("--no-jfr"), run("--no-jfr").schedule(), 0).shapes().burst()).isNull();
    }

    @Test
    void recordedTwinsFollowEachBurstWithJfr() {
        List<Window> bursts = windows(run("--shape", "burst", "--delay-ms", "50", "--variants", "reactive"))
                .stream().filter(Window::burst).toList();
        assertThat(bursts).extracting(w -> w.id().format()).containsExactly("reactive-50ms-burst-10000-1",
                "reactive-50ms-burst-10000-jfr-1");
    }

    @Test
    void whatABurstRefusesBeforeAnythingStarts() {
        assertThatThrownBy(() -> run("--requests", "10000")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--requests sets a burst's size: it needs --shape burst");
        assertThatThrownBy(() -> run("--shape", "burst", "--levels", "100"))
                .hasMessageContaining("does not take --levels");
        assertThatThrownBy(() -> run("--shape", "burst", "--downstream", "db"))
                .hasMessageContaining("--downstream db");
        assertThatThrownBy(() -> run("--shape", "burst", "--fan-out", "4"))
                .hasMessageContaining("--fan-out");
        assertThatThrownBy(() -> run("--shape", "burst", "--mistakes"))
                .hasMessageContaining("--mistakes");
        assertThatThrownBy(() -> run("--shape", "burst", "--open-rates", "100"))
                .hasMessageContaining("--open-rates");
        assertThatThrownBy(() -> run("--shape", "burst", "--requests", "0"))
                .hasMessageContaining("--requests must be requests from 1 to " + Burst.MOST_REQUESTS);
        assertThatThrownBy(() -> run("--shape", "wave")).hasMessageContaining("--shape must be closed or burst");
    }

    @Test
    void badBurstInputExitsTwoFromEveryCommand(@org.junit.jupiter.api.io.TempDir java.nio.file.Path empty) {
        assertThat(ExperimentCommand.execute("run", "--shape", "burst", "--requests", "0")).isEqualTo(2);
        assertThat(ExperimentCommand.execute("run", "--shape", "burst", "--requests", "60000")).isEqualTo(2);
        assertThat(ExperimentCommand.execute("run", "--requests", "100")).isEqualTo(2);
        assertThat(ExperimentCommand.execute("map", "--requests", "100")).isEqualTo(2);
        assertThat(ExperimentCommand.execute("predict", "--from", empty.toString(), "--requests", "100", "--users",
                "10")).isEqualTo(2);
    }

    @Test
    void aBurstLargerThanThisMachinesLimitsIsRefusedWithThem() {
        // 20,000 open files (ulimit -n) and 28,232 ephemeral ports: this machine's, as numbers
        BurstLimits.require(10_000, 1000, 20_000, 28_232);
        assertThatThrownBy(() -> BurstLimits.require(19_000, 1000, 20_000, 28_232))
                .hasMessageContaining("ulimit -n").hasMessageContaining("at most 18,000");
        assertThatThrownBy(() -> BurstLimits.require(19_000, 1000, 100_000, 20_000))
                .hasMessageContaining("ip_local_port_range").hasMessageContaining("at most 18,000");
        assertThat(BurstLimits.ephemeralPorts(java.nio.file.Path.of("/proc/sys/net/ipv4/ip_local_port_range")))
                .as("this machine's range is read").isPositive();
        assertThat(BurstLimits.openFilesLimit()).isPositive();
    }
}
