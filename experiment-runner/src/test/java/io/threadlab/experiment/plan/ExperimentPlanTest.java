package io.threadlab.experiment.plan;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ExperimentPlanTest {

    private final Knobs knobs = new Knobs(0.5, "512m", "Serial", 10, 1000, 1000, 5000, 200, false);
    private final WarmUpPolicy warmUp = new WarmUpPolicy(500, 15, 60, 2, 3, 0.1, 20);

    @Test
    void repetitionsRotateTheVariantOrderSoDriftIsSpread() {
        ExperimentPlan plan = new ExperimentPlan(List.of(Variant.values()), List.of(100, 500), 12, 3, 3, warmUp,
                List.of(), 8, false, knobs);
        assertThat(plan.sessions()).extracting(s -> s.variant().label() + "#" + s.repetition()).containsExactly(
                "imperative#1", "reactive#1", "virtual-thread#1",
                "reactive#2", "virtual-thread#2", "imperative#2",
                "virtual-thread#3", "imperative#3", "reactive#3");
    }

    @Test
    void recordedTwinsAndOpenStepsComeOnceInTheFirstRepetition() {
        ExperimentPlan plan = new ExperimentPlan(List.of(Variant.REACTIVE), List.of(100, 500), 12, 3, 2, warmUp,
                List.of(500, 1000), 8, true, knobs);
        List<Window> first = plan.sessions().get(0).windows();
        assertThat(first).extracting(Window::id).containsExactly("reactive-closed-100-1", "reactive-closed-100-jfr-1",
                "reactive-closed-500-1", "reactive-closed-500-jfr-1", "reactive-open-1");
        assertThat(first).extracting(Window::detailedRecording).containsExactly(false, true, false, true, false);
        assertThat(plan.sessions().get(1).windows()).extracting(Window::id).containsExactly(
                "reactive-closed-100-2", "reactive-closed-500-2");
        assertThat(first.get(0).load().seconds()).isEqualTo(15); // 3 s settle + 12 s measured
        assertThat(first.get(0).settleSeconds()).isEqualTo(3);
        assertThat(first.get(4).load().seconds()).isEqualTo(16);
        assertThat(first.get(4).settleSeconds()).isZero();
    }

    @Test
    void theKnobsBecomeIdenticalFlagsForEveryVariant() {
        assertThat(knobs.jvmFlags()).containsExactly("-Xms512m", "-Xmx512m", "-XX:+UseSerialGC");
        assertThat(knobs.variantProperties("http://127.0.0.1:8090")).contains(
                "-Dquarkus.rest-client.delay.connection-pool-size=1000", "-Dquarkus.thread-pool.max-threads=200",
                "-Dlab.delay.ms=10", "-Dquarkus.rest-client.delay.url=http://127.0.0.1:8090");
    }

    @Test
    void rejectsKnobsAndPlansThatMakeNoSense() {
        assertThatThrownBy(() -> new Knobs(0, "512m", "Serial", 10, 1000, 1000, 5000, 200, false))
                .hasMessageContaining("--cpus");
        assertThatThrownBy(() -> new Knobs(0.5, "lots", "Serial", 10, 1000, 1000, 5000, 200, false))
                .hasMessageContaining("--heap");
        assertThatThrownBy(() -> new Knobs(0.5, "512m", "Shenandoah", 10, 1000, 1000, 5000, 200, false))
                .hasMessageContaining("--gc");
        assertThatThrownBy(() -> new ExperimentPlan(List.of(Variant.REACTIVE), List.of(0), 12, 3, 1, warmUp,
                List.of(), 8, false, knobs)).hasMessageContaining("--levels");
        assertThatThrownBy(() -> Variant.fromLabel("async")).hasMessageContaining("imperative, reactive, virtual-thread");
    }
}
