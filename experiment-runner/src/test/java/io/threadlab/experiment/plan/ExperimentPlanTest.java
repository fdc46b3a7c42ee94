package io.threadlab.experiment.plan;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
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
        return plan(ExperimentPlan.Mode.RUN, variants, List.of(), levels, List.of(10), jvmStarts, repetitionsPerJvm,
                new OpenModel(openRates, List.of(), 4), jfrWindows, timeToPeak, sideBySide, Calibration.NONE);
    }

    private ExperimentPlan plan(ExperimentPlan.Mode mode, List<Variant> variants, List<Point> setups,
                                List<Integer> levels, List<Integer> delays, int jvmStarts, int repetitionsPerJvm,
                                OpenModel open, boolean jfrWindows, boolean timeToPeak, boolean sideBySide,
                                Calibration calibration) {
        return new ExperimentPlan(mode, variants, setups, Grid.of().and(Axis.USERS, levels)
                .and(Axis.DELAY_MS, delays), timing, new ExperimentPlan.Repeats(jvmStarts, repetitionsPerJvm), warmUp,
                open, jfrWindows, timeToPeak ? new ExperimentPlan.TimeToPeak(300) : null, sideBySide, knobs,
                PrecisionGoal.NONE, LoadPlacement.SHARED, calibration);
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
    void sideBySideStartsEveryJvmFirstThenMeasuresEachInABlockOfItsOwnWithTwinsOpenModelAndTimeToPeak() {
        ExperimentPlan plan = plan(List.of(IMP, REA), List.of(100, 500), 2, 1, List.of(500, 1000), true, true,
                true);
        assertThat(outline(plan.schedule())).containsExactly(
                // each start of a variant listens 100 ports above the last
                "start imperative-jvm1:8081,reactive-jvm1:8082,imperative-jvm2:8181,reactive-jvm2:8182",
                // a block: the warm-up proves the highest level, where the boost left the JVM; then its windows
                "warm-up imperative-jvm1 [500]",
                // repetition 1 on JVM start 1: twins at every level, and the open model
                "imperative-10ms-closed-100-1 on imperative-jvm1", "imperative-10ms-closed-100-jfr-1 on imperative-jvm1",
                "imperative-10ms-closed-500-1 on imperative-jvm1", "imperative-10ms-closed-500-jfr-1 on imperative-jvm1",
                "imperative-10ms-open-1 on imperative-jvm1", "stop imperative-jvm1:8081",
                "warm-up reactive-jvm1 [500]",
                "reactive-10ms-closed-100-1 on reactive-jvm1", "reactive-10ms-closed-100-jfr-1 on reactive-jvm1",
                "reactive-10ms-closed-500-1 on reactive-jvm1", "reactive-10ms-closed-500-jfr-1 on reactive-jvm1",
                "reactive-10ms-open-1 on reactive-jvm1", "stop reactive-jvm1:8082",
                // JVM start 2, the variants rotated: no twin (the time goes to JVM starts), no open model
                "warm-up reactive-jvm2 [500]",
                "reactive-10ms-closed-100-2 on reactive-jvm2", "reactive-10ms-closed-500-2 on reactive-jvm2",
                "stop reactive-jvm2:8182",
                "warm-up imperative-jvm2 [500]",
                "imperative-10ms-closed-100-2 on imperative-jvm2", "imperative-10ms-closed-500-2 on imperative-jvm2",
                "stop imperative-jvm2:8181",
                // a fresh JVM per variant, a start index above the others, at the top level
                "time to peak imperative-jvm3 at 500", "time to peak reactive-jvm3 at 500");
        assertThat(plan.repetitions()).isEqualTo(2);
        assertThat(plan.topLevel()).isEqualTo(500);
    }

    @Test
    void aSecondRepetitionOfTheSameJvmStartRecordsTheTopLevelAgainForTheRecordingsCostInTwoPairs() {
        ExperimentPlan plan = plan(List.of(IMP), List.of(100, 500), 1, 2, List.of(), true, false, false);
        assertThat(outline(plan.schedule()).stream().filter(s -> s.contains("-jfr-"))).containsExactly(
                "imperative-10ms-closed-100-jfr-1 on imperative-jvm1",
                "imperative-10ms-closed-500-jfr-1 on imperative-jvm1",
                "imperative-10ms-closed-500-jfr-2 on imperative-jvm1");
    }

    @Test
    void blocksRotateTheVariantOrderAndEachJvmMeasuresItsRepetitionsInARow() {
        ExperimentPlan plan = plan(List.of(IMP, REA, VT), List.of(100), 2, 2, List.of(), false, false, true);
        List<String> windows = outline(plan.schedule()).stream().filter(s -> s.contains(" on ")).toList();
        assertThat(windows).containsExactly(
                "imperative-10ms-closed-100-1 on imperative-jvm1", "imperative-10ms-closed-100-2 on imperative-jvm1",
                "reactive-10ms-closed-100-1 on reactive-jvm1", "reactive-10ms-closed-100-2 on reactive-jvm1",
                "virtual-thread-10ms-closed-100-1 on virtual-thread-jvm1",
                "virtual-thread-10ms-closed-100-2 on virtual-thread-jvm1",
                "reactive-10ms-closed-100-3 on reactive-jvm2", "reactive-10ms-closed-100-4 on reactive-jvm2",
                "virtual-thread-10ms-closed-100-3 on virtual-thread-jvm2",
                "virtual-thread-10ms-closed-100-4 on virtual-thread-jvm2",
                "imperative-10ms-closed-100-3 on imperative-jvm2", "imperative-10ms-closed-100-4 on imperative-jvm2");
        assertThat(plan.repetitions()).isEqualTo(4);
    }

    @Test
    void withoutSideBySideTheJvmStartsComeInRoundsOnTheVariantsOwnPorts() {
        ExperimentPlan plan = plan(List.of(IMP, REA), List.of(100), 2, 2, List.of(), false, true, false);
        assertThat(outline(plan.schedule())).containsExactly(
                "start imperative-jvm1:8081,reactive-jvm1:8082",
                "warm-up imperative-jvm1 [100]",
                "imperative-10ms-closed-100-1 on imperative-jvm1", "imperative-10ms-closed-100-2 on imperative-jvm1",
                "stop imperative-jvm1:8081",
                "warm-up reactive-jvm1 [100]",
                "reactive-10ms-closed-100-1 on reactive-jvm1", "reactive-10ms-closed-100-2 on reactive-jvm1",
                "stop reactive-jvm1:8082",
                "start imperative-jvm2:8081,reactive-jvm2:8082",
                // repetitions are numbered across rounds, and the rotation goes on
                "warm-up reactive-jvm2 [100]",
                "reactive-10ms-closed-100-3 on reactive-jvm2", "reactive-10ms-closed-100-4 on reactive-jvm2",
                "stop reactive-jvm2:8082",
                "warm-up imperative-jvm2 [100]",
                "imperative-10ms-closed-100-3 on imperative-jvm2", "imperative-10ms-closed-100-4 on imperative-jvm2",
                "stop imperative-jvm2:8081",
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
        assertThat(plain.recorded()).isFalse();
        assertThat(twin.recorded()).isTrue();
        assertThat(twin.load()).isEqualTo(plain.load());
        assertThat(twin.jvm()).isEqualTo(plain.jvm());
        assertThat(plain.id().scenario()).isEqualTo("closed-100");
        assertThat(twin.id().scenario()).isEqualTo("closed-100-jfr");
        assertThat(plain.load().seconds()).isEqualTo(13); // 3 s settle + 10 s measured
        assertThat(plain.load().ceilingSeconds()).isEqualTo(50); // 40 s of settle at most + 10 s measured
        assertThat(plain.settleSeconds()).isEqualTo(3);
        assertThat(open.id().scenario()).isEqualTo("open");
        assertThat(open.users()).isNull();
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
                .containsExactly("start/14", "warm-up/53", "window/16", "stop/5");
        assertThat(schedule.describe().get(2)).containsEntry("what", "reactive-10ms-closed-100-1 on reactive (JVM 1)");
        assertThat(schedule.estimatedSeconds()).isEqualTo(14 + 53 + 16 + 5);
    }

    @Test
    void everyJvmOfEveryVariantListensOnAPortOfItsOwn() {
        ExperimentPlan plan = plan(Variant.all(), List.of(100), 3, 1, List.of(), false, false, true);
        List<Integer> ports = plan.jvms().stream().map(Jvm::port).toList();
        assertThat(ports).hasSize(3 * Variant.all().size()).doesNotHaveDuplicates()
                .doesNotContain(8090); // the delay service's
    }

    @Test
    void theMistakesComeAfterTheCorrectVariantsTheySpoil() {
        List<Variant> gallery = Variant.mistakesWithTheirReferences(Grid.of().and(Axis.USERS, List.of(100))
                .and(Axis.DELAY_MS, List.of(10)));
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
        assertThat(knobs.variantProperties("http://127.0.0.1:8090", "postgresql://127.0.0.1:5432/lab")).contains(
                "-Dquarkus.rest-client.delay.connection-pool-size=1000", "-Dquarkus.thread-pool.max-threads=200",
                "-Dquarkus.rest-client.delay.url=http://127.0.0.1:8090",
                "-Dquarkus.rest-client.delay.connection-ttl=" + Knobs.CONNECTION_TTL_MS);
    }

    @Test
    void rejectsKnobsThatMakeNoSense() {
        assertThat(knobs.variantProperties("http://127.0.0.1:8090", "postgresql://127.0.0.1:5432/lab")).noneMatch(p -> p.contains("delay.ms"));
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
        assertThatThrownBy(() -> new ExperimentPlan(ExperimentPlan.Mode.RUN, List.of(REA), List.of(),
                Grid.of().and(Axis.USERS, List.of(100)).and(Axis.DELAY_MS, List.of(10)), timing,
                new ExperimentPlan.Repeats(1, 1), WarmUpPolicy.boosted(0.25, 150, 90, false), OpenModel.NONE, false,
                null, true, knobs,
                PrecisionGoal.NONE, LoadPlacement.SHARED, Calibration.NONE))
                .hasMessageContaining("--warmup-cpus must be at least the experiment's quota (0.5)");
        // every call would time out: refused before anything starts
        assertThatThrownBy(() -> plan(ExperimentPlan.Mode.RUN, List.of(REA), List.of(), List.of(100),
                List.of(10, 5000), 1, 1, OpenModel.NONE, false, false, true, Calibration.NONE))
                .hasMessageContaining("--delay-ms 5000 is not below the client's read timeout (5000 ms");
        assertThatThrownBy(() -> plan(ExperimentPlan.Mode.RUN, List.of(REA), List.of(), List.of(100),
                List.of(-1), 1, 1, OpenModel.NONE, false, false, true, Calibration.NONE))
                .hasMessageContaining("--delay-ms");
        assertThatThrownBy(() -> plan(List.of(REA), List.of(100, 100), 1, 1, List.of(), false, false, true))
                .hasMessageContaining("--levels names a value twice");
        assertThatThrownBy(() -> new Calibration(List.of(100), 10, 6)).hasMessageContaining("at least two");
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
        ExperimentPlan plan = plan(ExperimentPlan.Mode.RUN, List.of(REA), List.of(), List.of(100, 500),
                List.of(10, 300), 1, 1, new OpenModel(List.of(500), List.of(), 4), true, false, true,
                Calibration.NONE);
        assertThat(outline(plan.schedule())).containsExactly(
                "start reactive-jvm1:8082", "warm-up reactive-jvm1 [500]",
                "reactive-10ms-closed-100-1 on reactive-jvm1", "reactive-10ms-closed-100-jfr-1 on reactive-jvm1",
                "reactive-300ms-closed-100-1 on reactive-jvm1", "reactive-300ms-closed-100-jfr-1 on reactive-jvm1",
                // each delay's open model right after its last closed window: that load is parked, not started again
                "reactive-10ms-closed-500-1 on reactive-jvm1", "reactive-10ms-closed-500-jfr-1 on reactive-jvm1",
                "reactive-10ms-open-1 on reactive-jvm1",
                "reactive-300ms-closed-500-1 on reactive-jvm1", "reactive-300ms-closed-500-jfr-1 on reactive-jvm1",
                "reactive-300ms-open-1 on reactive-jvm1",
                "stop reactive-jvm1:8082");
    }

    @Test
    void calibrationFollowsTheFirstJvmStartsWarmUpFromTheMostUsersDownAndHasNoRepetition() {
        ExperimentPlan plan = plan(ExperimentPlan.Mode.RUN, List.of(IMP, REA), List.of(), List.of(100, 500),
                List.of(10), 2, 1, OpenModel.NONE, false, false, true, new Calibration(List.of(25, 1000, 250), 10, 6));
        assertThat(outline(plan.schedule())).containsExactly(
                "start imperative-jvm1:8081,reactive-jvm1:8082,imperative-jvm2:8181,reactive-jvm2:8182",
                // the warm-up proves the most users of the grid and the calibration, where the calibration begins;
                // the JVM's own windows follow at once, with no idle gap between the calibration and them
                "warm-up imperative-jvm1 [1000]", "imperative-10ms-closed-1000-cal1 on imperative-jvm1",
                "imperative-10ms-closed-250-cal1 on imperative-jvm1", "imperative-10ms-closed-25-cal1 on imperative-jvm1",
                "imperative-10ms-closed-100-1 on imperative-jvm1", "imperative-10ms-closed-500-1 on imperative-jvm1",
                "stop imperative-jvm1:8081",
                "warm-up reactive-jvm1 [1000]", "reactive-10ms-closed-1000-cal1 on reactive-jvm1",
                "reactive-10ms-closed-250-cal1 on reactive-jvm1", "reactive-10ms-closed-25-cal1 on reactive-jvm1",
                "reactive-10ms-closed-100-1 on reactive-jvm1", "reactive-10ms-closed-500-1 on reactive-jvm1",
                "stop reactive-jvm1:8082",
                // a later JVM start is predicted from the first one's calibration: no calibration of its own
                "warm-up reactive-jvm2 [1000]",
                "reactive-10ms-closed-100-2 on reactive-jvm2", "reactive-10ms-closed-500-2 on reactive-jvm2",
                "stop reactive-jvm2:8182",
                "warm-up imperative-jvm2 [1000]",
                "imperative-10ms-closed-100-2 on imperative-jvm2", "imperative-10ms-closed-500-2 on imperative-jvm2",
                "stop imperative-jvm2:8181");
        Window calibration = ((Step.Measure) plan.schedule().steps().get(2)).window();
        assertThat(calibration.calibration()).isTrue();
        assertThat(calibration.load()).isEqualTo(new Window.Closed(3, 40, 6));
        assertThat(((Step.Measure) plan.schedule().steps().get(2)).kind()).isEqualTo("calibration");
        // room for every try of a calibration window whose compiler was busy: 3 x (40 s of settle + 6 s) + margin
        assertThat(plan.schedule().steps().get(2).ceilingSeconds())
                .isEqualTo(Calibration.TRIES * (40 + 6) + Step.MARGIN_SECONDS + 10);
    }

    /** A steady window's slowest second over its fastest: the median of 141 calibration windows, 2026-11-27/28. */
    private static final double STEADY = 0.85;

    @Test
    void aCalibrationWindowIsMeasuredAgainWhereItStalledInsideUpToItsTries() {
        Calibration calibration = new Calibration(List.of(700, 150), 10, 4, 3);
        // the map of 2026-11-28T07-17-02Z: imperative at 200 users, its compiler quiet, six seconds of it
        double stalled = Calibration.slowestSecondShare(List.of(3142.0, 1709.0, 105.0, 27.0, 264.0, 3350.0));
        assertThat(stalled).isCloseTo(27.0 / 3350, within(1e-9));
        assertThat(calibration.measureAgain(1, 0.0003, 0.004, stalled)).isTrue();
        assertThat(calibration.measureAgain(3, 0.0003, 0.004, stalled)).as("the last try is kept").isFalse();
        // the least steady of the 140 others: imperative at 700 users, 2026-11-28T04-33-40Z
        double unsteady = Calibration.slowestSecondShare(List.of(3025.0, 1746.0, 3456.0, 2865.0));
        assertThat(calibration.measureAgain(1, 0.0003, 0.004, unsteady)).isFalse();
        assertThat(Calibration.slowestSecondShare(List.of(3000.0))).as("one second: no spread").isNaN();
        assertThat(Calibration.slowestSecondShare(List.of(0.0, 0.0))).as("nothing served").isNaN();
        assertThat(calibration.measureAgain(1, 0.0003, 0.004, Double.NaN)).as("not known: not judged").isFalse();
    }

    @Test
    void aCalibrationWindowIsMeasuredAgainWhileItsCompilerWasBusyUpToItsTries() {
        Calibration calibration = new Calibration(List.of(700, 150), 10, 4, 3);
        assertThat(calibration.measureAgain(1, 0.048, 0.0, STEADY)).isTrue();
        assertThat(calibration.measureAgain(2, 0.048, 0.0, STEADY)).isTrue();
        assertThat(calibration.measureAgain(3, 0.048, 0.0, STEADY)).as("the last try is kept").isFalse();
        assertThat(calibration.measureAgain(1, WarmUpPolicy.COMPILER_QUIET_SHARE, 0.0, STEADY)).as("quiet").isFalse();
        assertThat(calibration.measureAgain(1, Double.NaN, Double.NaN, STEADY)).as("not known: not judged busy")
                .isFalse();
        // the map of 2026-11-27T07-53-58Z: imperative at 3,000 users, its compiler at 0.8 % of the quota and waiting
        // to run 8.5 % of the window; the same JVM's finished calibrations waited at most 3.8 %
        assertThat(calibration.measureAgain(1, 0.008, 0.085, STEADY)).as("a starved compiler").isTrue();
        assertThat(calibration.measureAgain(1, 0.008, 0.038, STEADY)).as("waiting as a finished one").isFalse();
        assertThat(calibration.measureAgain(1, 0.008, Calibration.COMPILER_WAITING_SHARE, STEADY)).isFalse();
        assertThat(new Calibration(List.of(700, 150), 10, 4).measureAgain(1, 0.048, 0.085, STEADY)).as("once")
                .isFalse();
        // a quick run's compiler never finishes: no second try; a run and a map take up to three
        assertThat(Defaults.QUICK.calibration().tries()).isEqualTo(1);
        assertThat(Defaults.RUN.calibration().tries()).isEqualTo(Calibration.TRIES);
        assertThat(Defaults.MAP.calibration().tries()).isEqualTo(Calibration.TRIES);
        assertThatThrownBy(() -> new Calibration(List.of(700, 150), 10, 4, Calibration.TRIES + 1))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void everyStepHasACeilingFromThePlansOwnCeilings() {
        ExperimentPlan plan = plan(List.of(REA), List.of(100), 1, 1, List.of(500), false, false, true);
        List<Step> steps = plan.schedule().steps();
        // start: readiness 180 s + 10 s per JVM + the margin
        assertThat(steps.get(0).ceilingSeconds()).isEqualTo(180 + 10 + Step.MARGIN_SECONDS);
        // warm-up: 4 s at the quota + boosts of at most 150 s + a level held at most twice 90 s + the margin
        assertThat(steps.get(1).ceilingSeconds()).isEqualTo(4 + 150 + 2 * 90 + Step.MARGIN_SECONDS);
        // a window: at most 40 s of settle + 10 s + the margin + a second for k6 to make each 100 users
        assertThat(steps.get(2).ceilingSeconds()).isEqualTo(40 + 10 + Step.MARGIN_SECONDS + 1);
        // the open model: its settle, its steps, k6's start and its stragglers
        assertThat(steps.get(3).ceilingSeconds()).isEqualTo(40 + 4 + 120 + 60 + Step.MARGIN_SECONDS);
    }

    @Test
    void theMapWalksUsersUpwardsAndDelaysWithinThemWithItsAxesAsJvmsOfTheirOwn() {
        ExperimentPlan plan = plan(ExperimentPlan.Mode.MAP, List.of(IMP, REA), List.of(Point.of(Axis.WORKER_MAX, 200),
                Point.of(Axis.WORKER_MAX, 800)), List.of(10, 500), List.of(1, 100), 1, 1,
                new OpenModel(List.of(), List.of(0.5, 1.0), 4), false, false, true, Calibration.NONE);
        assertThat(outline(plan.schedule())).containsExactly(
                // the worker-pool axis only where requests run on workers
                "start imperative-w200-jvm1:8081,imperative-w800-jvm1:8181,reactive-jvm1:8082",
                "warm-up imperative-w200-jvm1 [500]",
                "imperative-w200-1ms-closed-10-1 on imperative-w200-jvm1",
                "imperative-w200-100ms-closed-10-1 on imperative-w200-jvm1",
                "imperative-w200-1ms-closed-500-1 on imperative-w200-jvm1",
                "imperative-w200-1ms-open-1 on imperative-w200-jvm1",
                "imperative-w200-100ms-closed-500-1 on imperative-w200-jvm1",
                "imperative-w200-100ms-open-1 on imperative-w200-jvm1", "stop imperative-w200-jvm1:8081",
                "warm-up imperative-w800-jvm1 [500]",
                "imperative-w800-1ms-closed-10-1 on imperative-w800-jvm1",
                "imperative-w800-100ms-closed-10-1 on imperative-w800-jvm1",
                "imperative-w800-1ms-closed-500-1 on imperative-w800-jvm1",
                "imperative-w800-1ms-open-1 on imperative-w800-jvm1",
                "imperative-w800-100ms-closed-500-1 on imperative-w800-jvm1",
                "imperative-w800-100ms-open-1 on imperative-w800-jvm1", "stop imperative-w800-jvm1:8181",
                "warm-up reactive-jvm1 [500]",
                "reactive-1ms-closed-10-1 on reactive-jvm1", "reactive-100ms-closed-10-1 on reactive-jvm1",
                "reactive-1ms-closed-500-1 on reactive-jvm1", "reactive-1ms-open-1 on reactive-jvm1",
                "reactive-100ms-closed-500-1 on reactive-jvm1", "reactive-100ms-open-1 on reactive-jvm1",
                "stop reactive-jvm1:8082");
        Jvm w800 = plan.jvms().get(1);
        assertThat(plan.knobsOf(w800).workerPoolMax()).isEqualTo(800);
        assertThat(plan.knobsOf(w800).connectionPoolSize()).isEqualTo(1000);
        assertThat(plan.knobsOf(plan.jvms().get(2)).workerPoolMax()).isEqualTo(200);
    }

    /** A gallery variant's own setting is what its JVM runs with, and so what its results and manifest say. */
    @Test
    void aVariantsOwnSettingIsTheKnobItsJvmRunsWith() {
        Variant capped = Variant.find("fanout-connection-pool").orElseThrow();
        ExperimentPlan plan = plan(List.of(VT, capped), List.of(100), 1, 1, List.of(), false, false, true);
        assertThat(plan.knobsOf(plan.jvms().get(0)).connectionPoolSize()).isEqualTo(1000);
        assertThat(plan.knobsOf(plan.jvms().get(1)).connectionPoolSize()).isEqualTo(50);
        assertThat(plan.knobsOf(plan.jvms().get(1)).workerPoolMax()).as("the axes it does not set").isEqualTo(200);
    }
}
