package io.threadlab.experiment;

import io.threadlab.experiment.collect.CompilerSample;
import io.threadlab.experiment.collect.Manifest;
import io.threadlab.experiment.collect.PlanFacts;
import io.threadlab.experiment.collect.ResultsWriter;
import io.threadlab.experiment.collect.RunManifest;
import io.threadlab.experiment.collect.RunRecord;
import io.threadlab.experiment.collect.WarmUpResult;
import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.Calibration;
import io.threadlab.experiment.plan.ExperimentPlan;
import io.threadlab.experiment.plan.Grid;
import io.threadlab.experiment.plan.Knobs;
import io.threadlab.experiment.plan.LoadPlacement;
import io.threadlab.experiment.plan.OpenModel;
import io.threadlab.experiment.plan.PrecisionGoal;
import io.threadlab.experiment.plan.Schedule;
import io.threadlab.experiment.plan.Step;
import io.threadlab.experiment.plan.Timing;
import io.threadlab.experiment.plan.Variant;
import io.threadlab.experiment.plan.WarmUpPolicy;
import io.threadlab.experiment.testing.Windows;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

/**
 * {@code --extend}: what may be extended (the same plan, knobs, versions and machine), and how the extension's
 * windows join the earlier run's: numbered on from its last JVM start, written after its windows, each window once.
 * The earlier run is a real results directory, written by the runner's own writers and read back as the runner reads
 * it; the extension's windows are those its schedule names.
 */
class ExtendingTest {

    @TempDir
    Path dir;

    private static final RunManifest.Lab LAB = new RunManifest.Lab("abc", false, "3.27.2", "/jdk", "25.0.3",
            "k6 v1.8.1", "Linux", "CPU", 2, 24000);

    private static PlanFacts plan(List<Integer> users, int window) {
        return new PlanFacts("run", List.of("imperative", "reactive"), users, List.of(10),
                new PlanFacts.Sampling(window, 3, 40, 2, 2, 4), Map.of("boostCpus", 2.0),
                new PlanFacts.Shapes(List.of(250), List.of(), 6, 1000), true, false,
                new PlanFacts.VariantRoles(Map.of(), Map.of(), Map.of()), new PlanFacts.Conduct("", List.of(), null),
                "shared", null, null, null);
    }

    private static RunManifest earlier(PlanFacts plan) {
        return new RunManifest(2, new RunManifest.Progress(true, "completed", "t", "t", null, List.of()),
                new RunManifest.Conditions(LAB, null, List.of(), Map.of(),
                        Map.of("quarkus.thread-pool.max-threads", 200), null, plan),
                new RunManifest.AsRun(List.of(), null, null, List.of(), null, null, null));
    }

    @Test
    void theSamePlanKnobsAndVersionsMayBeExtended() {
        assertThatCode(() -> Extending.requireSame(earlier(plan(List.of(100, 500), 10)), LAB, plan(List.of(100, 500),
                10), Map.of("quarkus.thread-pool.max-threads", 200), Map.of())).doesNotThrowAnyException();
    }

    @Test
    void everyDifferenceIsNamed() {
        RunManifest.Lab newer = new RunManifest.Lab("def", false, "3.27.3", "/jdk", "25.0.3", "k6 v1.8.1", "Linux",
                "CPU", 2, 24000);
        assertThatThrownBy(() -> Extending.requireSame(earlier(plan(List.of(100, 500), 10)), newer,
                plan(List.of(100), 6), Map.of("quarkus.thread-pool.max-threads", 512), Map.of("GOGC", "400")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("users (--levels) was [100, 500], now [100]")
                .hasMessageContaining("--window was 10, now 6")
                .hasMessageContaining("knobs was {quarkus.thread-pool.max-threads=200}")
                .hasMessageContaining("k6's collector (--k6-gogc, --k6-memory-limit) was Go's defaults, now {GOGC=400}")
                .hasMessageContaining("Quarkus was 3.27.2, now 3.27.3");
    }

    /** k6's collector as the earlier run's placement recorded it must be this run's. */
    @Test
    void k6sCollectorMustBeTheEarlierRunsAsItsPlacementRecordedIt() {
        PlanFacts plan = plan(List.of(100), 10);
        RunManifest then = earlier(plan);
        RunManifest recorded = new RunManifest(then.format(), then.progress(), then.conditions(),
                new RunManifest.AsRun(List.of(), null, null, List.of(), null, null, Map.of("load", Map.of("kind",
                        "this machine", "environment", Map.of("GOGC", "400", "GOMEMLIMIT", "8GiB")))));
        Map<String, Object> knobs = Map.of("quarkus.thread-pool.max-threads", 200);
        assertThatCode(() -> Extending.requireSame(recorded, LAB, plan, knobs, Map.of("GOMEMLIMIT", "8GiB", "GOGC",
                "400"))).doesNotThrowAnyException();
        assertThatThrownBy(() -> Extending.requireSame(recorded, LAB, plan, knobs, Map.of("GOMEMLIMIT", "8GiB",
                "GOGC", "100"))).hasMessageContaining("k6's collector (--k6-gogc, --k6-memory-limit) was {GOGC=400,"
                + " GOMEMLIMIT=8GiB}, now {GOGC=100, GOMEMLIMIT=8GiB}");
    }

    @Test
    void aRunWithoutAPlanInItsManifestCannotBeExtended() {
        assertThatThrownBy(() -> Extending.requireSame(earlier(null), LAB, plan(List.of(100), 10), Map.of(),
                Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--extend: the run's manifest has no plan; it cannot be extended");
    }

    @Test
    void anotherPlanIsRefusedWithEveryDifferenceAndWhatToDo() {
        PlanFacts then = PlanFacts.of(run(2), run(2).schedule(), 2000);
        PlanFacts now = PlanFacts.of(run(3), run(3).schedule(), 2000);
        assertThatThrownBy(() -> Extending.requireSame(earlier(then), LAB, now, Map.of(
                "quarkus.thread-pool.max-threads", 200), Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--extend: this run would not measure what the earlier one did: --repetitions was 2, now 3."
                        + " Give the same flags, on the same machine and versions.");
    }

    // ---- the merge --------------------------------------------------------------------------------------------

    /** Imperative and reactive at 10 ms and 100 users, 2 JVM starts of {@code repetitions} each, side by side. */
    private static ExperimentPlan run(int repetitions) {
        return new ExperimentPlan(ExperimentPlan.Mode.RUN, List.of(Variant.IMPERATIVE, Variant.REACTIVE), List.of(),
                Grid.of().and(Axis.USERS, List.of(100)).and(Axis.DELAY_MS, List.of(10)), new Timing(10, 3, 40),
                new ExperimentPlan.Repeats(2, repetitions), WarmUpPolicy.boosted(2, 150, 90, false), OpenModel.NONE,
                false, null, true,
                new Knobs(0.5, "512m", "Serial", 1000, 1000, 5000, 200, false), PrecisionGoal.NONE,
                LoadPlacement.SHARED, Calibration.NONE);
    }

    /** The earlier run as the runner left it: its windows (JVM starts 1 and 2, repetitions 1 to 4) and warm-ups. */
    private RunRecord earlierRun(ExperimentPlan plan) throws IOException {
        new Manifest(dir);
        ResultsWriter results = new ResultsWriter(dir);
        for (Step step : plan.schedule().steps()) {
            if (step instanceof Step.WarmUp warm) {
                results.warmUp(warmUp(warm.jvm().id(), warm.jvm().variant().label(), warm.jvm().start()));
            } else if (step instanceof Step.Measure m) {
                results.add(row(m));
            }
        }
        return RunRecord.read(dir);
    }

    /** The row the runner would write for a window step, its throughput telling its JVM start and repetition. */
    private static WindowResult row(Step.Measure m) {
        WindowResult row = Windows.closed(m.window().variant().label(), m.window().users(),
                1000 * m.window().jvm().start() + m.window().number()).jvm(m.window().jvm().start())
                .repetition(m.window().number()).build();
        assertThat(row.window().id()).as("the fixture names windows as the runner does")
                .isEqualTo(m.window().id().format());
        return row;
    }

    private static WarmUpResult warmUp(String jvm, String variant, int start) {
        return new WarmUpResult(jvm, variant, start, "boosted", 0.5, 2, true, 40, 20, 3, 30.0,
                List.of(new WarmUpResult.Level(100, 10, true, "finished", 0.01, 0.02, 4000)),
                List.of(new CompilerSample(2, 2, 500, 3900, 0, 0, 10, 1000, 5, 1)),
                new WarmUpResult.Ergonomics(Map.of(), Map.of(), List.of(), Map.of(), Map.of()), 60);
    }

    @Test
    void theExtensionsJvmStartsAndRepetitionsContinueFromTheEarlierRunsLast() throws IOException {
        ExperimentPlan plan = run(2);
        RunRecord earlier = earlierRun(plan);
        assertThat(Extending.firstStart(earlier.results())).isEqualTo(3);
        Schedule extension = Extending.schedule(plan, earlier.results());
        assertThat(extension.steps().getFirst()).isInstanceOfSatisfying(Step.StartJvms.class, start ->
                assertThat(start.jvms()).extracting(j -> j.id()).containsExactly("imperative-jvm3", "reactive-jvm3"));
        List<String> ids = extension.steps().stream().filter(s -> s instanceof Step.Measure)
                .map(s -> ((Step.Measure) s).window().id().format()).toList();
        // JVM start 3 of 2 repetitions each: repetitions 5 and 6, after the earlier 1 to 4
        assertThat(ids).containsExactly("imperative-10ms-closed-100-5", "imperative-10ms-closed-100-6",
                "reactive-10ms-closed-100-5", "reactive-10ms-closed-100-6");
        assertThat(earlier.results().windows()).extracting(w -> w.window().id()).doesNotContainAnyElementsOf(ids);
    }

    @Test
    void theExtensionsWindowsAreWrittenAfterTheEarlierRunsEachWindowOnce() throws IOException {
        ExperimentPlan plan = run(2);
        RunRecord earlier = earlierRun(plan);
        List<WindowResult> before = earlier.results().windows();
        assertThat(before).hasSize(8); // 2 variants x 2 JVM starts x 2 repetitions

        extend(plan, earlier);
        RunRecord merged = RunRecord.read(dir);
        List<WindowResult> windows = merged.results().windows();
        assertThat(windows).hasSize(8 + 4);
        assertThat(windows.subList(0, 8)).as("the earlier windows, first and unchanged").isEqualTo(before);
        assertThat(windows).extracting(w -> w.window().id()).doesNotHaveDuplicates();
        assertThat(windows.subList(8, 12)).extracting(WindowResult::variant, WindowResult::jvm,
                WindowResult::repetition, w -> w.load().requestsPerSecond()).containsExactly(
                tuple("imperative", 3, 5, 3005.0),
                tuple("imperative", 3, 6, 3006.0),
                tuple("reactive", 3, 5, 3005.0),
                tuple("reactive", 3, 6, 3006.0));
        assertThat(merged.results().warmUps()).extracting(WarmUpResult::jvm).containsExactly("imperative-jvm1",
                "reactive-jvm1", "reactive-jvm2", "imperative-jvm2", "imperative-jvm3", "reactive-jvm3");

        // and an extension of the extension goes on from JVM start 4, repetition 7
        assertThat(Extending.firstStart(merged.results())).isEqualTo(4);
        extend(plan, merged);
        List<WindowResult> twice = RunRecord.read(dir).results().windows();
        assertThat(twice).hasSize(16).extracting(w -> w.window().id()).doesNotHaveDuplicates()
                .contains("imperative-10ms-closed-100-7", "reactive-10ms-closed-100-8");
        assertThat(twice.subList(0, 12)).isEqualTo(windows);
    }

    /** What Experiment does with an earlier run: its results kept, the extension's schedule measured after them. */
    private void extend(ExperimentPlan plan, RunRecord earlier) {
        ResultsWriter results = ResultsWriter.extending(dir, earlier.results());
        for (Step step : Extending.schedule(plan, earlier.results()).steps()) {
            if (step instanceof Step.WarmUp warm) {
                results.warmUp(warmUp(warm.jvm().id(), warm.jvm().variant().label(), warm.jvm().start()));
            } else if (step instanceof Step.Measure m) {
                results.add(row(m));
            }
        }
    }
}
