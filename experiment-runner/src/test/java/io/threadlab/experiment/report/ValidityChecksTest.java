package io.threadlab.experiment.report;

import io.threadlab.experiment.collect.OpenStep;
import io.threadlab.experiment.collect.WarmUpResult;
import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.testing.Windows;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each validity check of the report, on small runs made to fail it, and on runs that give it nothing to judge, where
 * it must say "not measured" rather than "passed". The clean and flawed runs of {@link ReportTest} cover the rest:
 * each check passing on numbers, and the failures their flaws cause.
 */
class ValidityChecksTest {

    @TempDir
    Path root;

    private int runs;

    // ---- the run as a whole ----------------------------------------------------------------------------------------

    @Test
    void confinementFailsUnconfinedOverItsQuotaOrSizedToTheMachine() throws IOException {
        List<WindowResult> within = List.of(closed("imperative", 100, 1000).build());
        assertThat(Checks.confinement(run(within)).verdict()).isEqualTo(Check.Verdict.PASSED);

        Check unconfined = Checks.confinement(run(within, List.of(), Map.of("confinement", Map.of("method", "none",
                "limits_cpu", false))));
        assertThat(unconfined.verdict()).isEqualTo(Check.Verdict.FAILED);
        assertThat(unconfined.detail()).startsWith("NOT CONFINED");

        Check over = Checks.confinement(run(List.of(closed("imperative", 100, 1000).cpuCores(0.8).build())));
        assertThat(over.verdict()).isEqualTo(Check.Verdict.FAILED);
        assertThat(over.detail()).contains("OVER: imperative closed-100 rep 1 used 0.80 CPU of its 0.5");

        Check sized = Checks.confinement(run(within, List.of(warmUp("imperative", true,
                Map.of("availableProcessors", 2), Map.of("availableProcessors", 2), List.of())), Map.of()));
        assertThat(sized.verdict()).isEqualTo(Check.Verdict.FAILED);
        assertThat(sized.detail()).contains("SIZED TO THE MACHINE, NOT ITS QUOTA: [imperative-jvm1]");
    }

    @Test
    void confinementWithoutAWindowIsNotMeasured() throws IOException {
        assertThat(Checks.confinement(run(List.of())).verdict()).isEqualTo(Check.Verdict.NOT_MEASURED);
    }

    @Test
    void theDurationAndTheStepsWithoutAScheduleAsRunAreNotMeasured() throws IOException {
        Run unscheduled = run(List.of(closed("imperative", 100, 1000).build()), List.of(),
                Map.of("schedule_as_run", List.of()));
        assertThat(Checks.duration(unscheduled).verdict()).isEqualTo(Check.Verdict.NOT_MEASURED);
        Check steps = Checks.stepsWithinCeilings(unscheduled);
        assertThat(steps.verdict()).isEqualTo(Check.Verdict.NOT_MEASURED);
        assertThat(steps.detail()).isEqualTo("the manifest recorded no schedule as run");
    }

    @Test
    void aStepThatPassedItsCeilingFailsItsCheck() throws IOException {
        Check steps = Checks.stepsWithinCeilings(run(List.of(closed("imperative", 100, 1000).build()), List.of(),
                Map.of("schedule_as_run", List.of(step("warm-up", "Warming up imperative (JVM 1)", 0, 14, null),
                        step("window", "imperative-10ms-closed-100-1", 14, 75, "stopped at its ceiling of 60 s")))));
        assertThat(steps.verdict()).isEqualTo(Check.Verdict.FAILED);
        assertThat(steps.detail()).isEqualTo("imperative-10ms-closed-100-1: stopped at its ceiling of 60 s");
    }

    @Test
    void aRunThatStoppedEarlyHasNotShownThatEveryPointWasMeasured() throws IOException {
        Run stopped = run(List.of(closed("imperative", 100, 1000).build()), List.of(), Map.of("completed", false,
                "status", "failed", "failure", "k6 exited"));
        assertThat(Checks.pointsMeasured(stopped).verdict()).isEqualTo(Check.Verdict.NOT_MEASURED);
        assertThat(Checks.pointsMeasured(run(List.of(closed("imperative", 100, 1000).build()))).verdict())
                .isEqualTo(Check.Verdict.PASSED);
    }

    // ---- the warm-up ---------------------------------------------------------------------------------------------

    @Test
    void theWarmUpChecksWithoutWarmUpsOrWindowsAreNotMeasured() throws IOException {
        List<Check> noWarmUp = WarmUpChecks.of(run(List.of(closed("imperative", 100, 1000).build())));
        assertThat(noWarmUp.get(0).verdict()).as(noWarmUp.get(0).name()).isEqualTo(Check.Verdict.NOT_MEASURED);
        assertThat(noWarmUp.get(1).verdict()).as(noWarmUp.get(1).name()).isEqualTo(Check.Verdict.NOT_MEASURED);
        assertThat(noWarmUp.get(2).verdict()).as(noWarmUp.get(2).name()).isEqualTo(Check.Verdict.PASSED);

        // sizes read before the boost only: nothing to compare them with
        List<Check> noWindow = WarmUpChecks.of(run(List.of(), List.of(warmUp("imperative", true,
                Map.of("availableProcessors", 1), Map.of(), List.of())), Map.of()));
        assertThat(noWindow.get(0).verdict()).as(noWindow.get(0).name()).isEqualTo(Check.Verdict.PASSED);
        assertThat(noWindow.get(1).verdict()).as(noWindow.get(1).name()).isEqualTo(Check.Verdict.NOT_MEASURED);
        assertThat(noWindow.get(2).verdict()).as(noWindow.get(2).name()).isEqualTo(Check.Verdict.NOT_MEASURED);
    }

    // ---- the spread ----------------------------------------------------------------------------------------------

    @Test
    void jvmStartsFurtherApartThanTheTargetFailAndOneJvmStartIsNotMeasured() throws IOException {
        // JVM start 1 ran 1,000 req/s twice, JVM start 2 1,200: 20 % apart
        Check apart = spread(run(List.of(closed("imperative", 100, 1000).build(),
                closed("imperative", 100, 1000).repetition(2).build(),
                closed("imperative", 100, 1200).jvm(2).repetition(3).build(),
                closed("imperative", 100, 1200).jvm(2).repetition(4).build())), "JVM starts agree");
        assertThat(apart.verdict()).isEqualTo(Check.Verdict.FAILED);
        assertThat(apart.detail()).startsWith("APART: [imperative@100]; ").contains("imperative@100 20.0 %");

        Check oneStart = spread(run(List.of(closed("imperative", 100, 1000).build(),
                closed("imperative", 100, 1200).repetition(2).build())), "JVM starts agree");
        assertThat(oneStart.verdict()).isEqualTo(Check.Verdict.NOT_MEASURED);
        assertThat(oneStart.detail()).isEqualTo("one JVM start per variant");
    }

    @Test
    void jvmStartsApartSayWhatTheMachinesYardstickMeasuredUnderEach() throws IOException {
        // the slower start's windows took the yardstick 1,500 µs, the faster's 1,000: the machine was slower then
        Check slowerMachine = spread(run(List.of(closed("imperative", 100, 1000).yardstick(1500).build(),
                closed("imperative", 100, 1000).repetition(2).yardstick(1500).build(),
                closed("imperative", 100, 1200).jvm(2).repetition(3).yardstick(1000).build(),
                closed("imperative", 100, 1200).jvm(2).repetition(4).yardstick(1000).build())), "JVM starts agree");
        assertThat(slowerMachine.detail()).startsWith("APART: [imperative@100 (its slower JVM start met the machine"
                + " 1.50× slower)]; ");

        // the same machine under both: the text says so, and claims nothing of the machine
        Check sameMachine = spread(run(List.of(closed("imperative", 100, 1000).yardstick(1040).build(),
                closed("imperative", 100, 1000).repetition(2).yardstick(1040).build(),
                closed("imperative", 100, 1200).jvm(2).repetition(3).yardstick(1000).build(),
                closed("imperative", 100, 1200).jvm(2).repetition(4).yardstick(1000).build())), "JVM starts agree");
        assertThat(sameMachine.detail()).startsWith("APART: [imperative@100 (the machine within 15 % under both JVM"
                + " starts: 1.04×)]; ").doesNotContain("slower");

        // a window without the yardstick: nothing said of the machine
        Check untimed = spread(run(List.of(closed("imperative", 100, 1000).build(),
                closed("imperative", 100, 1200).jvm(2).repetition(2).yardstick(1000).build())), "JVM starts agree");
        assertThat(untimed.detail()).startsWith("APART: [imperative@100]; ");
    }

    @Test
    void aRatioWithoutAnIntervalOrWiderThanTheTargetFailsAndOneVariantIsNotMeasured() throws IOException {
        Check single = spread(run(List.of(closed("imperative", 100, 1000).build(),
                closed("reactive", 100, 3000).build())), "ratio's 95 % CI half-width");
        assertThat(single.verdict()).isEqualTo(Check.Verdict.FAILED);
        assertThat(single.detail()).contains("NO INTERVAL (one repetition): [reactive/imperative@100]");

        // two JVM starts each; reactive's windows 1,500 and 4,500 within each: an interval, and a wide one
        List<WindowResult> wide = new ArrayList<>();
        for (int rep = 1; rep <= 4; rep++) {
            int jvm = rep <= 2 ? 1 : 2;
            wide.add(closed("imperative", 100, 1000).jvm(jvm).repetition(rep).build());
            wide.add(closed("reactive", 100, rep % 2 == 1 ? 1500 : 4500).jvm(jvm).repetition(rep).build());
        }
        Check wider = spread(run(wide), "ratio's 95 % CI half-width");
        assertThat(wider.verdict()).isEqualTo(Check.Verdict.FAILED);
        assertThat(wider.detail()).startsWith("WIDER: [reactive/imperative@100]; ").doesNotContain("NO INTERVAL");

        Check oneVariant = spread(run(List.of(closed("imperative", 100, 1000).build(),
                closed("imperative", 100, 1000).repetition(2).build())), "ratio's 95 % CI half-width");
        assertThat(oneVariant.verdict()).isEqualTo(Check.Verdict.NOT_MEASURED);
        assertThat(oneVariant.detail()).isEqualTo("one variant: no ratio");
    }

    @Test
    void aRecordingThatCostsMoreThanTheTargetFailsAndNoRecordedTwinIsNotMeasured() throws IOException {
        Check costly = spread(run(List.of(closed("imperative", 100, 1000).build(),
                closed("imperative", 100, 900).recorded().build())), "The detailed recording costs");
        assertThat(costly.verdict()).isEqualTo(Check.Verdict.FAILED);
        assertThat(costly.detail()).contains("imperative@100 0.90×");

        Check none = spread(run(List.of(closed("imperative", 100, 1000).build())), "The detailed recording costs");
        assertThat(none.verdict()).isEqualTo(Check.Verdict.NOT_MEASURED);
    }

    @Test
    void withOnlyTheOpenModelNoCellCheckHasAnythingToJudge() throws IOException {
        Run open = run(List.of(Windows.open("reactive", List.of(new OpenStep(250, 1500, 250, 5.0, 8.0, 12.0,
                30.0, 0))).build()));
        for (String check : List.of("throughput CV", "only ever rise", "JVM starts agree")) {
            assertThat(spread(open, check).verdict()).as(check).isEqualTo(Check.Verdict.NOT_MEASURED);
        }
        assertThat(StalledWindows.check(open).verdict()).isEqualTo(Check.Verdict.NOT_MEASURED);
    }

    // ---- the instruments, errors -------------------------------------------------------------------------------

    @Test
    void aLateDelayServiceFailsItsCheckAndOneThatMeasuredNothingIsNotMeasured() throws IOException {
        // asked for 10 ms, served 20: more than 30 % and a millisecond late
        Check late = HeadroomChecks.delayService(run(List.of(closed("imperative", 100, 1000).delayServed(20)
                .build())));
        assertThat(late.verdict()).isEqualTo(Check.Verdict.FAILED);
        assertThat(late.detail()).contains("asked for 10 ms, served 20.0 ms on average in the worst window");

        Check unmeasured = HeadroomChecks.delayService(run(List.of(closed("imperative", 100, 1000)
                .delayServed(Double.NaN).build())));
        assertThat(unmeasured.verdict()).isEqualTo(Check.Verdict.NOT_MEASURED);
        assertThat(HeadroomChecks.delayService(run(List.of())).verdict()).isEqualTo(Check.Verdict.NOT_MEASURED);
    }

    @Test
    void k6ShortOfCpuFailsItsCheckAndAnUnknownMachineIsNotMeasured() throws IOException {
        // 2 CPUs, the variant and the delay service 0.1 each: 1.8 left, of which k6 took 1.7
        Check shortOfCpu = HeadroomChecks.k6(run(List.of(closed("imperative", 100, 1000).k6Cores(1.7).build())));
        assertThat(shortOfCpu.verdict()).isEqualTo(Check.Verdict.FAILED);
        assertThat(shortOfCpu.detail()).contains("SHORT in 1 windows: imperative closed-100 rep 1");

        Check unknown = HeadroomChecks.k6(run(List.of(closed("imperative", 100, 1000).build()), List.of(),
                Map.of("lab", Map.of("runner_java_version", "25.0.1"))));
        assertThat(unknown.verdict()).isEqualTo(Check.Verdict.NOT_MEASURED);
        assertThat(HeadroomChecks.k6(run(List.of())).verdict()).isEqualTo(Check.Verdict.NOT_MEASURED);
    }

    @Test
    void k6CountingMoreThanTheDownstreamServedPlusWhatWasInFlightFailsItsCheck() throws IOException {
        // 10 s at 3,000 req/s: k6 counted 30,000. 3,000 users, read 0.01 s apart, k6's 0.1 s of batching: up to
        // 3,000 + 330 + 1 apart.
        WindowResult lagged = closed("reactive", 3_000, 3_000).served(24_000, 0.01).build();
        WindowResult inFlight = closed("virtual-thread", 3_000, 3_000).served(27_100, 0.01).build();
        Check failed = HeadroomChecks.counts(run(List.of(lagged, inFlight)));
        assertThat(failed.verdict()).isEqualTo(Check.Verdict.FAILED);
        assertThat(failed.detail()).contains("1 of 2 windows agree", "APART in reactive closed-3000 rep 1",
                "k6 counted 30,000 answers, the delay service 24,000 requests served: 6,000 apart (+25 %)");

        Check passed = HeadroomChecks.counts(run(List.of(inFlight)));
        assertThat(passed.verdict()).isEqualTo(Check.Verdict.PASSED);
        assertThat(passed.detail()).contains("1 of 1 windows agree", "2,900 apart", "at most 3,331 (3,000 users");

        // no independent count (the database's, an old results.json, the open model): not measured, never passed
        Check none = HeadroomChecks.counts(run(List.of(Windows.open("imperative", List.of(
                new OpenStep(1000, 6000, 1000, 6.0, 10.0, 15.0, 40.0, 0))).build())));
        assertThat(none.verdict()).isEqualTo(Check.Verdict.NOT_MEASURED);
        assertThat(HeadroomChecks.counts(run(List.of())).verdict()).isEqualTo(Check.Verdict.NOT_MEASURED);
    }

    @Test
    void aWindowOnASlowerMachineFailsTheMachinesCheckAndUntimedWindowsAreNotMeasured() throws IOException {
        WindowResult fast = closed("imperative", 100, 1000).yardstick(1000).build();
        WindowResult near = closed("reactive", 100, 3000).yardstick(1140).build();
        WindowResult slow = closed("virtual-thread", 100, 2000).yardstick(1420).build();
        Check failed = HeadroomChecks.machine(run(List.of(fast, near, slow)));
        assertThat(failed.verdict()).isEqualTo(Check.Verdict.FAILED);
        assertThat(failed.detail()).isEqualTo("2 of 3 windows within 15 % of the fastest, 1000 CPU-µs a piece;"
                + " SLOWER in virtual-thread closed-100 rep 1 1.42×");

        Check passed = HeadroomChecks.machine(run(List.of(fast, near)));
        assertThat(passed.verdict()).isEqualTo(Check.Verdict.PASSED);
        assertThat(passed.detail()).isEqualTo("2 of 2 windows within 15 % of the fastest, 1000 CPU-µs a piece");

        // untimed windows (results from before the yardstick): never passed for them
        WindowResult untimed = closed("virtual-thread", 100, 2000).build();
        Check some = HeadroomChecks.machine(run(List.of(fast, untimed)));
        assertThat(some.verdict()).isEqualTo(Check.Verdict.NOT_MEASURED);
        assertThat(some.detail()).endsWith("; not timed in 1 windows");
        assertThat(HeadroomChecks.machine(run(List.of(fast, slow, untimed))).verdict())
                .isEqualTo(Check.Verdict.FAILED);
        assertThat(HeadroomChecks.machine(run(List.of(untimed))).detail())
                .isEqualTo("no window timed the machine (its results are from before the lab did)");
        assertThat(HeadroomChecks.machine(run(List.of())).verdict()).isEqualTo(Check.Verdict.NOT_MEASURED);
    }

    @Test
    void aWindowWhoseK6WasNotReadIsNeverCountedAsHavingHadRoom() throws IOException {
        WindowResult read = closed("imperative", 100, 1000).k6Cores(0.5).build();
        WindowResult unread = closed("reactive", 100, 1000).k6Cores(Double.NaN).build();
        assertThat(HeadroomChecks.k6(run(List.of(read))).verdict()).isEqualTo(Check.Verdict.PASSED);

        Check some = HeadroomChecks.k6(run(List.of(read, unread)));
        assertThat(some.verdict()).isEqualTo(Check.Verdict.NOT_MEASURED);
        assertThat(some.detail()).contains("k6 used at most 0.50 CPU", "k6's CPU not read in 1 of 2 windows: reactive");
        Check none = HeadroomChecks.k6(run(List.of(unread)));
        assertThat(none.verdict()).isEqualTo(Check.Verdict.NOT_MEASURED);
        assertThat(unread.headroom(2, false).enough()).isFalse();
        assertThat(unread.headroom(2, false).describe()).isEqualTo("k6's CPU was not read: its headroom is not"
                + " measured");
        // one window short of room still fails the check, whatever else was not read
        WindowResult shortOfCpu = closed("imperative", 500, 1000).k6Cores(1.7).build();
        assertThat(HeadroomChecks.k6(run(List.of(shortOfCpu, unread))).verdict()).isEqualTo(Check.Verdict.FAILED);
    }

    @Test
    void k6OnAMachineOfItsOwnIsWeighedAgainstThatMachineAlone() throws IOException {
        // 1.5 of the 1.8 CPUs the variant and the delay service left on a shared machine: short (83 %). With the
        // services on another machine, k6 had all 2 of its own: 75 %, enough.
        List<WindowResult> windows = List.of(closed("imperative", 100, 1000).k6Cores(1.5).build());
        assertThat(HeadroomChecks.k6(run(windows)).verdict()).isEqualTo(Check.Verdict.FAILED);
        Check alone = HeadroomChecks.k6(run(windows, List.of(), Map.of("placement", Map.of("services",
                Map.of("kind", "another Docker engine", "endpoint", "tcp://10.0.0.9:2375"), "same_machine", false))));
        assertThat(alone.verdict()).as(alone.detail()).isEqualTo(Check.Verdict.PASSED);
        assertThat(alone.detail()).contains("k6 used 1.50 CPU of the 2.00 left to it (75 %)");
        // the one rule: the landscape's points and the live console weigh it the same way
        assertThat(windows.getFirst().headroom(2, true).enough()).isTrue();
        assertThat(windows.getFirst().headroom(2, false).enough()).isFalse();
        assertThat(io.threadlab.experiment.report.landscape.Landscape.of(windows, 2, true).outcomes())
                .allSatisfy(o -> assertThat(o.headroom()).hasValueSatisfying(h -> assertThat(h.enough()).isTrue()));
        Check loopbackEngine = HeadroomChecks.k6(run(windows, List.of(), Map.of("placement", Map.of("services",
                Map.of("kind", "another Docker engine", "endpoint", "tcp://127.0.0.1:23750"), "same_machine", true))));
        assertThat(loopbackEngine.verdict()).as("an engine on this machine shares its CPUs")
                .isEqualTo(Check.Verdict.FAILED);
    }

    @Test
    void k6InAContainerOnAMachineOfItsOwnIsWeighedAgainstThatMachinesCoresNotTheRunnersOrTheServices()
            throws IOException {
        // 1.5 CPU: short on the runner's 2 cores shared with the services; enough on a 4-core load host of its own;
        // short again on a 1-core one, though the runner's machine has 2
        List<WindowResult> windows = List.of(closed("imperative", 100, 1000).k6Cores(1.5).build());
        Map<String, Object> services = Map.of("kind", "another Docker engine", "endpoint", "tcp://10.0.0.9:2375");
        Check bigHost = HeadroomChecks.k6(run(windows, List.of(), Map.of("placement", Map.of("services", services,
                "load", Map.of("kind", "a container on a Docker engine", "endpoint", "tcp://10.0.0.7:2375",
                        "cores", 4), "same_machine", false))));
        assertThat(bigHost.verdict()).as(bigHost.detail()).isEqualTo(Check.Verdict.PASSED);
        assertThat(bigHost.detail()).contains("k6 used 1.50 CPU of the 4.00 left to it (38 %)");
        Check smallHost = HeadroomChecks.k6(run(windows, List.of(), Map.of("placement", Map.of("services", services,
                "load", Map.of("kind", "a container on a Docker engine", "endpoint", "tcp://10.0.0.7:2375",
                        "cores", 1), "same_machine", false))));
        assertThat(smallHost.verdict()).as(smallHost.detail()).isEqualTo(Check.Verdict.FAILED);
    }

    @Test
    void withOnlyAMistakesWindowsTheErrorsOfTheVariantsAreNotMeasured() throws IOException {
        Run mistakeOnly = run(List.of(closed("blocking-event-loop", 100, 200).errors(3, Map.of("timeout", 3L))
                .build()), List.of(), Map.of("plan", Map.of("mode", "run", "delays_ms", List.of(10),
                "variants", List.of("blocking-event-loop"), "closed_model_vus", List.of(100),
                "mistakes", Map.of("blocking-event-loop", "reactive"))));
        assertThat(Failures.check(mistakeOnly).verdict()).isEqualTo(Check.Verdict.NOT_MEASURED);
    }

    // ---- the fixture -------------------------------------------------------------------------------------------

    private static Check spread(Run run, String named) {
        return SpreadChecks.of(run, Cell.all(run), new Ratios(run)).stream().filter(c -> c.name().contains(named))
                .findFirst().orElseThrow(() -> new AssertionError("no check named like " + named));
    }

    private static Windows closed(String variant, int users, double rps) {
        return Windows.closed(variant, users, rps);
    }

    private Run run(List<WindowResult> windows) throws IOException {
        return run(windows, List.of(), Map.of());
    }

    private Run run(List<WindowResult> windows, List<WarmUpResult> warmUps, Map<String, Object> changed)
            throws IOException {
        return Run.read(SmallRuns.write(Files.createDirectories(root.resolve("run-" + ++runs)), windows, warmUps,
                changed, null));
    }

    private static Map<String, Object> step(String kind, String what, double startedAt, double seconds,
                                            String outcome) {
        return SmallRuns.step(kind, what, startedAt, seconds, outcome);
    }

    private static WarmUpResult warmUp(String variant, boolean finished, Map<String, Object> before,
                                       Map<String, Object> after, List<String> changed) {
        return SmallRuns.warmUp(variant, finished, before, after, changed);
    }
}
