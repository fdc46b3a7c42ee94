package io.threadlab.experiment.plan;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ExperimentPlanTest {

    private static final Variant IMP = Variant.IMPERATIVE;
    private static final Variant REA = Variant.REACTIVE;
    private static final Variant VT = Variant.VIRTUAL_THREAD;

    private final Knobs knobs = new Knobs(0.5, "512m", "Serial", 1000, 1000, 5000, 200, false);
    private final WarmUpPolicy warmUp = WarmUpPolicy.boosted(2, 150, 90, false);
    private final Timing timing = new Timing(10, 3, 40);

    private ExperimentPlan plan(List<Variant> variants, List<Integer> levels, int jvmStarts, int repetitionsPerJvm,
                                List<Integer> openRates, boolean jfrWindows, boolean timeToPeak, boolean sideBySide) {
        return new ExperimentPlan(ExperimentPlan.Mode.RUN, variants, List.of(), levels, List.of(10), timing, jvmStarts,
                repetitionsPerJvm, warmUp, new OpenModel(openRates, List.of(), 4), jfrWindows, timeToPeak, 300,
                sideBySide, knobs);
    }

    /** Each step in a line: what it does, to which JVM. */
    private static List<String> outline(Schedule schedule) {
        return schedule.steps().stream().map(step -> switch (step) {
            case Step.StartJvms s -> "start " + ids(s.jvms());
            case Step.StopJvms s -> "stop " + ids(s.jvms());
            case Step.WarmUp w -> "warm-up " + w.jvm().id() + " " + w.levels();
            case Step.Measure m -> m.window().id() + " on " + m.window().jvm().id();
            case Step.TimeToPeak t -> "time to peak " + t.jvm().id() + " at " + t.users();
        }).toList();
    }

    private static String ids(List<Jvm> jvms) {
        return jvms.stream().map(j -> j.id() + ":" + j.port()).collect(Collectors.joining(","));
    }

    @Test
    void sideBySideStartsAndWarmsEveryJvmFirstThenAlternatesJvmStartsWithTwinsOpenModelAndTimeToPeak() {
        ExperimentPlan plan = plan(List.of(IMP, REA), List.of(100, 500), 2, 1, List.of(500, 1000), true, true,
                true);
        assertThat(outline(plan.schedule())).containsExactly(
                // each start of a variant listens 100 ports above the last
                "start imperative-jvm1:8081,reactive-jvm1:8082,imperative-jvm2:8181,reactive-jvm2:8182",
                // warm-ups prove the highest level first, where the boost left the JVM
                "warm-up imperative-jvm1 [500, 100]", "warm-up reactive-jvm1 [500, 100]",
                "warm-up imperative-jvm2 [500, 100]", "warm-up reactive-jvm2 [500, 100]",
                // repetition 1 on JVM start 1: twins at every level, and the open model
                "imperative-10ms-closed-100-1 on imperative-jvm1", "imperative-10ms-closed-100-jfr-1 on imperative-jvm1",
                "imperative-10ms-closed-500-1 on imperative-jvm1", "imperative-10ms-closed-500-jfr-1 on imperative-jvm1",
                "imperative-10ms-open-1 on imperative-jvm1",
                "reactive-10ms-closed-100-1 on reactive-jvm1", "reactive-10ms-closed-100-jfr-1 on reactive-jvm1",
                "reactive-10ms-closed-500-1 on reactive-jvm1", "reactive-10ms-closed-500-jfr-1 on reactive-jvm1",
                "reactive-10ms-open-1 on reactive-jvm1",
                // repetition 2 on JVM start 2, order rotated: a twin at the top level only, no open model
                "reactive-10ms-closed-100-2 on reactive-jvm2", "reactive-10ms-closed-500-2 on reactive-jvm2",
                "reactive-10ms-closed-500-jfr-2 on reactive-jvm2",
                "imperative-10ms-closed-100-2 on imperative-jvm2", "imperative-10ms-closed-500-2 on imperative-jvm2",
                "imperative-10ms-closed-500-jfr-2 on imperative-jvm2",
                // a fresh JVM per variant, a start index above the others, at the top level
                "time to peak imperative-jvm3 at 500", "time to peak reactive-jvm3 at 500");
        assertThat(plan.repetitions()).isEqualTo(2);
        assertThat(plan.topLevel()).isEqualTo(500);
    }

    @Test
    void repetitionsRotateTheVariantOrderAndAlternateBetweenJvmStarts() {
        ExperimentPlan plan = plan(List.of(IMP, REA, VT), List.of(100), 2, 2, List.of(), false, false, true);
        List<String> windows = outline(plan.schedule()).stream().filter(s -> s.contains(" on ")).toList();
        assertThat(windows).containsExactly(
                "imperative-10ms-closed-100-1 on imperative-jvm1", "reactive-10ms-closed-100-1 on reactive-jvm1",
                "virtual-thread-10ms-closed-100-1 on virtual-thread-jvm1",
                "reactive-10ms-closed-100-2 on reactive-jvm2", "virtual-thread-10ms-closed-100-2 on virtual-thread-jvm2",
                "imperative-10ms-closed-100-2 on imperative-jvm2",
                "virtual-thread-10ms-closed-100-3 on virtual-thread-jvm1", "imperative-10ms-closed-100-3 on imperative-jvm1",
                "reactive-10ms-closed-100-3 on reactive-jvm1",
                "imperative-10ms-closed-100-4 on imperative-jvm2", "reactive-10ms-closed-100-4 on reactive-jvm2",
                "virtual-thread-10ms-closed-100-4 on virtual-thread-jvm2");
        assertThat(plan.repetitions()).isEqualTo(4);
    }

    @Test
    void withoutSideBySideTheJvmStartsComeInRoundsOnTheVariantsOwnPorts() {
        ExperimentPlan plan = plan(List.of(IMP, REA), List.of(100), 2, 2, List.of(), false, true, false);
        assertThat(outline(plan.schedule())).containsExactly(
                "start imperative-jvm1:8081,reactive-jvm1:8082",
                "warm-up imperative-jvm1 [100]", "warm-up reactive-jvm1 [100]",
                "imperative-10ms-closed-100-1 on imperative-jvm1", "reactive-10ms-closed-100-1 on reactive-jvm1",
                "reactive-10ms-closed-100-2 on reactive-jvm1", "imperative-10ms-closed-100-2 on imperative-jvm1",
                "stop imperative-jvm1:8081,reactive-jvm1:8082",
                "start imperative-jvm2:8081,reactive-jvm2:8082",
                "warm-up imperative-jvm2 [100]", "warm-up reactive-jvm2 [100]",
                // repetitions are numbered across rounds, and the rotation goes on
                "imperative-10ms-closed-100-3 on imperative-jvm2", "reactive-10ms-closed-100-3 on reactive-jvm2",
                "reactive-10ms-closed-100-4 on reactive-jvm2", "imperative-10ms-closed-100-4 on imperative-jvm2",
                "stop imperative-jvm2:8081,reactive-jvm2:8082",
                "time to peak imperative-jvm3 at 100", "time to peak reactive-jvm3 at 100");
    }

    @Test
    void windowsCarryTheirLoadAndTwinsDifferOnlyInTheRecording() {
        List<Window> windows = plan(List.of(REA), List.of(100), 1, 1, List.of(500, 1000, 2000), true, false, true)
                .schedule().steps().stream().filter(s -> s instanceof Step.Measure)
                .map(s -> ((Step.Measure) s).window()).toList();
        Window plain = windows.get(0);
        Window twin = windows.get(1);
        Window open = windows.get(2);
        assertThat(plain.detailedRecording()).isFalse();
        assertThat(twin.detailedRecording()).isTrue();
        assertThat(twin.load()).isEqualTo(plain.load());
        assertThat(twin.jvm()).isEqualTo(plain.jvm());
        assertThat(plain.scenario()).isEqualTo("closed-100");
        assertThat(twin.scenario()).isEqualTo("closed-100-jfr");
        assertThat(plain.load().seconds()).isEqualTo(13); // 3 s settle + 10 s measured
        assertThat(plain.settleSeconds()).isEqualTo(3);
        assertThat(open.scenario()).isEqualTo("open");
        assertThat(open.load().seconds()).isEqualTo(12); // 3 steps of 4 s
        assertThat(plain.delayMs()).isEqualTo(10);
        assertThat(open.settleSeconds()).isZero();
    }

    @Test
    void timeToPeakRunsAtTheQuotaWithoutABoostUpToItsCeiling() {
        Step.TimeToPeak peak = (Step.TimeToPeak) plan(List.of(REA), List.of(100, 500), 2, 1, List.of(), false, true,
                true).schedule().steps().getLast();
        assertThat(peak.jvm()).isEqualTo(new Jvm(REA, 3, 8282));
        assertThat(peak.policy().boostCpus()).isEqualTo(0.5);
        assertThat(peak.policy().boosts(0.5)).isFalse();
        assertThat(peak.policy().levelMaxSeconds()).isEqualTo(300);
    }

    @Test
    void theScheduleIsDescribedForTheManifestWithItsEstimates() {
        Schedule schedule = plan(List.of(REA), List.of(100), 1, 1, List.of(), false, false, true).schedule();
        // start: 10 + 4 per JVM; warm-up: 4 s pre-boost + 35 s boost + (10 + 4) s per level; window: 13 s + 3 s
        assertThat(schedule.describe()).extracting(d -> d.get("kind") + "/" + d.get("estimated_seconds"))
                .containsExactly("start/14", "warm-up/53", "window/16");
        assertThat(schedule.describe().get(2)).containsEntry("what", "reactive-10ms-closed-100-1 on reactive (JVM 1)");
        assertThat(schedule.estimatedSeconds()).isEqualTo(14 + 53 + 16);
    }

    @Test
    void everyJvmOfEveryVariantListensOnAPortOfItsOwn() {
        ExperimentPlan plan = new ExperimentPlan(ExperimentPlan.Mode.RUN, Variant.all(), List.of(), List.of(100),
                List.of(10), timing, 3, 1, warmUp, OpenModel.NONE, false, false, 300, true, knobs);
        List<Integer> ports = plan.jvms().stream().map(Jvm::port).toList();
        assertThat(ports).hasSize(3 * Variant.all().size()).doesNotHaveDuplicates()
                .doesNotContain(8090); // the delay service's
    }

    @Test
    void theMistakesComeAfterTheCorrectVariantsTheySpoil() {
        List<Variant> gallery = Variant.mistakesWithTheirReferences();
        assertThat(gallery).extracting(Variant::label).containsExactly("imperative", "reactive", "virtual-thread",
                "cpu-on-worker", "blocking-event-loop", "default-connection-pool", "cpu-on-event-loop",
                "cpu-on-virtual-thread", "synchronized-virtual-thread", "pinned-class-init",
                "native-call-on-virtual-thread");
        for (Variant mistake : gallery.stream().filter(v -> v.role() == Variant.Role.MISTAKE).toList()) {
            assertThat(gallery.subList(0, gallery.indexOf(mistake))).extracting(Variant::label)
                    .as("what %s spoils runs before it", mistake).contains(mistake.spoils());
        }
    }

    @Test
    void theKnobsBecomeIdenticalFlagsForEveryVariant() {
        assertThat(knobs.jvmFlags()).containsExactly("-Xms512m", "-Xmx512m", "-XX:+UseSerialGC");
        assertThat(knobs.variantProperties("http://127.0.0.1:8090")).contains(
                "-Dquarkus.rest-client.delay.connection-pool-size=1000", "-Dquarkus.thread-pool.max-threads=200",
                "-Dquarkus.rest-client.delay.url=http://127.0.0.1:8090",
                "-Dquarkus.rest-client.delay.connection-ttl=" + Knobs.CONNECTION_TTL_MS);
    }

    @Test
    void rejectsKnobsThatMakeNoSense() {
        assertThat(knobs.variantProperties("http://127.0.0.1:8090")).noneMatch(p -> p.contains("delay.ms"));
        assertThatThrownBy(() -> new Knobs(0, "512m", "Serial", 1000, 1000, 5000, 200, false))
                .hasMessageContaining("--cpus");
        assertThatThrownBy(() -> new Knobs(0.5, "lots", "Serial", 1000, 1000, 5000, 200, false))
                .hasMessageContaining("--heap");
        assertThatThrownBy(() -> new Knobs(0.5, "512m", "Shenandoah", 1000, 1000, 5000, 200, false))
                .hasMessageContaining("--gc");
        assertThatThrownBy(() -> Variant.fromLabel("async"))
                .hasMessageContaining("imperative, reactive, virtual-thread, imperative-rest");
    }

    @Test
    void rejectsPlansThatMakeNoSense() {
        assertThatThrownBy(() -> plan(List.of(), List.of(100), 1, 1, List.of(), false, false, true))
                .hasMessageContaining("at least one variant");
        assertThatThrownBy(() -> plan(List.of(REA), List.of(0), 1, 1, List.of(), false, false, true))
                .hasMessageContaining("--levels");
        assertThatThrownBy(() -> plan(List.of(REA), List.of(10_001), 1, 1, List.of(), false, false, true))
                .hasMessageContaining("--levels");
        assertThatThrownBy(() -> plan(List.of(REA), List.of(), 1, 1, List.of(), false, false, true))
                .hasMessageContaining("--levels");
        assertThatThrownBy(() -> plan(List.of(REA), List.of(100), 0, 1, List.of(), false, false, true))
                .hasMessageContaining("--jvm-starts");
        assertThatThrownBy(() -> plan(List.of(REA), List.of(100), 1, 0, List.of(), false, false, true))
                .hasMessageContaining("--repetitions");
        assertThatThrownBy(() -> plan(List.of(REA), List.of(100), 1, 1, List.of(500, 0), false, false, true))
                .hasMessageContaining("--open-rates");
        assertThatThrownBy(() -> new Timing(0, 3, 40)).hasMessageContaining("--window");
        assertThatThrownBy(() -> new Timing(10, 3, 2)).hasMessageContaining("--settle-max");
        // a warm-up "boost" below the experiment's own quota would starve the JVM instead
        assertThatThrownBy(() -> new ExperimentPlan(ExperimentPlan.Mode.RUN, List.of(REA), List.of(), List.of(100),
                List.of(10), timing, 1, 1, WarmUpPolicy.boosted(0.25, 150, 90, false), OpenModel.NONE, false, false,
                300, true, knobs)).hasMessageContaining("--warmup-cpus must be at least the experiment's quota (0.5)");
        // every call would time out: refused before anything starts
        assertThatThrownBy(() -> new ExperimentPlan(ExperimentPlan.Mode.RUN, List.of(REA), List.of(), List.of(100),
                List.of(10, 5000), timing, 1, 1, warmUp, OpenModel.NONE, false, false, 300, true, knobs))
                .hasMessageContaining("--delay-ms 5000 is not below the client's read timeout (5000 ms");
        assertThatThrownBy(() -> new ExperimentPlan(ExperimentPlan.Mode.RUN, List.of(REA), List.of(), List.of(100),
                List.of(-1), timing, 1, 1, warmUp, OpenModel.NONE, false, false, 300, true, knobs))
                .hasMessageContaining("--delay-ms");
    }

    @Test
    void rejectsAWarmUpPolicyThatCannotJudgeAWindow() {
        // a level window must hold at least two samples, and the ceiling must not be below the minimum
        assertThatThrownBy(() -> new WarmUpPolicy(2, 2, 4, 150, 3, 90, 0.02, 0.10))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new WarmUpPolicy(2, 2, 4, 150, 10, 8, 0.02, 0.10))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new WarmUpPolicy(2, 0, 4, 150, 10, 90, 0.02, 0.10))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new WarmUpPolicy(2, 2, 4, 150, 10, 90, 0, 0.10))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(WarmUpPolicy.boosted(2, 150, 90, false).windowSamples()).isEqualTo(5); // 10 s of 2-second samples
    }

    @Test
    void severalDelaysAreMeasuredOnTheSameWarmJvmsTheLoadAtOneLevelRunningOnAcrossThem() {
        ExperimentPlan plan = new ExperimentPlan(ExperimentPlan.Mode.RUN, List.of(REA), List.of(), List.of(100, 500),
                List.of(10, 300), timing, 1, 1, warmUp, new OpenModel(List.of(500), List.of(), 4), true, false, 300,
                true, knobs);
        assertThat(outline(plan.schedule())).containsExactly(
                "start reactive-jvm1:8082", "warm-up reactive-jvm1 [500, 100]",
                "reactive-10ms-closed-100-1 on reactive-jvm1", "reactive-10ms-closed-100-jfr-1 on reactive-jvm1",
                "reactive-300ms-closed-100-1 on reactive-jvm1", "reactive-300ms-closed-100-jfr-1 on reactive-jvm1",
                "reactive-10ms-closed-500-1 on reactive-jvm1", "reactive-10ms-closed-500-jfr-1 on reactive-jvm1",
                "reactive-300ms-closed-500-1 on reactive-jvm1", "reactive-300ms-closed-500-jfr-1 on reactive-jvm1",
                "reactive-10ms-open-1 on reactive-jvm1", "reactive-300ms-open-1 on reactive-jvm1");
    }

    @Test
    void theMapWalksUsersUpwardsAndDelaysWithinThemWithItsAxesAsJvmsOfTheirOwn() {
        ExperimentPlan plan = new ExperimentPlan(ExperimentPlan.Mode.MAP, List.of(IMP, REA),
                Setup.grid(List.of(), List.of(200, 800), List.of()), List.of(500, 10), List.of(1, 100),
                new Timing(6, 2, 30), 1, 1, warmUp, new OpenModel(List.of(), List.of(0.5, 1.0), 4), false, false, 300,
                true, knobs);
        assertThat(outline(plan.schedule())).containsExactly(
                // the worker-pool axis only where requests run on workers
                "start imperative-w200-jvm1:8081,imperative-w800-jvm1:8181,reactive-jvm1:8082",
                "warm-up imperative-w200-jvm1 [500]", "warm-up imperative-w800-jvm1 [500]",
                "warm-up reactive-jvm1 [500]",
                "imperative-w200-1ms-closed-10-1 on imperative-w200-jvm1",
                "imperative-w200-100ms-closed-10-1 on imperative-w200-jvm1",
                "imperative-w200-1ms-closed-500-1 on imperative-w200-jvm1",
                "imperative-w200-100ms-closed-500-1 on imperative-w200-jvm1",
                "imperative-w200-1ms-open-1 on imperative-w200-jvm1",
                "imperative-w200-100ms-open-1 on imperative-w200-jvm1",
                "imperative-w800-1ms-closed-10-1 on imperative-w800-jvm1",
                "imperative-w800-100ms-closed-10-1 on imperative-w800-jvm1",
                "imperative-w800-1ms-closed-500-1 on imperative-w800-jvm1",
                "imperative-w800-100ms-closed-500-1 on imperative-w800-jvm1",
                "imperative-w800-1ms-open-1 on imperative-w800-jvm1",
                "imperative-w800-100ms-open-1 on imperative-w800-jvm1",
                "reactive-1ms-closed-10-1 on reactive-jvm1", "reactive-100ms-closed-10-1 on reactive-jvm1",
                "reactive-1ms-closed-500-1 on reactive-jvm1", "reactive-100ms-closed-500-1 on reactive-jvm1",
                "reactive-1ms-open-1 on reactive-jvm1", "reactive-100ms-open-1 on reactive-jvm1");
        Jvm w800 = plan.jvms().get(1);
        assertThat(plan.knobsOf(w800).workerPoolMax()).isEqualTo(800);
        assertThat(plan.knobsOf(w800).connectionPoolSize()).isEqualTo(1000);
        assertThat(plan.knobsOf(plan.jvms().get(2)).workerPoolMax()).isEqualTo(200);
    }
}
