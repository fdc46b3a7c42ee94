package io.threadlab.experiment;

import io.threadlab.experiment.collect.PlanFacts;
import io.threadlab.experiment.collect.RunManifest;
import io.threadlab.experiment.load.WindowRunner;
import io.threadlab.experiment.plan.Calibration;
import io.threadlab.experiment.plan.ExperimentPlan;
import io.threadlab.experiment.plan.Step;
import io.threadlab.experiment.plan.Variant;
import io.threadlab.experiment.plan.WarmUpPolicy;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ExperimentCommandTest {

    private record Outcome(int exit, String err, String out) {
    }

    private Outcome execute(String... args) {
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
        ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(outBytes, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(errBytes, true, StandardCharsets.UTF_8));
            int exit = ExperimentCommand.execute(args);
            return new Outcome(exit, errBytes.toString(StandardCharsets.UTF_8), outBytes.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
    }

    @Test
    void aCommandThatDoesNotExistIsAUsageErrorEvenBesideHelp() {
        Outcome outcome = execute("findigns", "--help");
        assertThat(outcome.exit()).isEqualTo(2);
        assertThat(outcome.err()).contains("no such command: findigns").contains("findings").contains("publish");
        assertThat(execute().exit()).isEqualTo(2);
        assertThat(execute("findings", "--help").exit()).isZero();
    }

    @Test
    void anUnknownVariantIsAUsageErrorThatNamesTheChoices() {
        Outcome outcome = execute("run", "--variants", "imperative,async");
        assertThat(outcome.exit()).isEqualTo(2);
        assertThat(outcome.err()).contains("unknown variant 'async'").contains("Usage:");
    }

    @Test
    void anUnknownFlagOrAMalformedNumberIsAUsageError() {
        assertThat(execute("run", "--turbo").exit()).isEqualTo(2);
        assertThat(execute("run", "--levels", "many").exit()).isEqualTo(2);
        assertThat(execute("run", "--gc", "Epsilon").err()).contains("--gc must be one of");
    }

    @Test
    void theComposeEngineFailsFastWithoutDockerAndAnUnknownEngineIsAUsageError() {
        assertThat(execute("run", "--engine", "kubernetes").exit()).isEqualTo(2);
        boolean dockerAnswers;
        try {
            io.threadlab.experiment.process.ComposeCli.requireEngine();
            dockerAnswers = true;
        } catch (IllegalStateException e) {
            dockerAnswers = false;
        }
        Assumptions.assumeFalse(dockerAnswers, "the no-Docker check needs a machine without a running Docker engine");
        Outcome outcome = execute("run", "--engine", "compose", "--output", "target/never");
        assertThat(outcome.exit()).isEqualTo(1);
        assertThat(outcome.err()).contains("--engine compose needs Docker with the compose plugin and a running engine")
                .contains("run without --engine");
        assertThat(Path.of("target/never")).doesNotExist(); // nothing made before failing
    }

    @Test
    void anotherEngineThatCannotServeIsAUsageErrorBeforeAnythingIsMade() {
        Outcome unreachableServices = execute("run", "--load-host", "tcp://10.0.0.8:2375", "--output", "target/never");
        assertThat(unreachableServices.exit()).isEqualTo(2);
        assertThat(unreachableServices.err()).contains("k6 on the Docker engine at tcp://10.0.0.8:2375 cannot reach"
                + " services on this machine's loopback (--engine local)");
        assertThat(execute("run", "--load-host", "", "--output", "target/never").err())
                .contains("--load-host names no engine");
        Outcome pinned = execute("run", "--load-host", "unix:///var/run/docker.sock", "--load-cpus", "separate",
                "--output", "target/never");
        assertThat(pinned.exit()).isEqualTo(2);
        assertThat(pinned.err()).contains("--load-cpus separate");
        assertThat(execute("run", "--docker-host", "tcp://127.0.0.1:2375").err())
                .contains("add --engine compose");
        boolean dockerCli;
        try {
            io.threadlab.experiment.process.ComposeCli.requireCli();
            dockerCli = true;
        } catch (IllegalStateException e) {
            dockerCli = false;
        }
        Assumptions.assumeTrue(dockerCli, "the checks of another engine ask the docker CLI, which is not installed");
        Outcome unreachable = execute("run", "--engine", "compose", "--docker-host", "tcp://127.0.0.1:1",
                "--output", "target/never");
        assertThat(unreachable.exit()).as(unreachable.err()).isEqualTo(2);
        assertThat(unreachable.err()).contains("the Docker engine at tcp://127.0.0.1:1 does not answer");
        Outcome noContext = execute("run", "--engine", "compose", "--docker-context", "threadlab-no-such-context",
                "--output", "target/never");
        assertThat(noContext.exit()).as(noContext.err()).isEqualTo(2);
        assertThat(noContext.err()).contains("there is no Docker context 'threadlab-no-such-context'");
        Outcome noLoadEngine = execute("run", "--load-host", "tcp://127.0.0.1:1", "--output", "target/never");
        assertThat(noLoadEngine.exit()).as(noLoadEngine.err()).isEqualTo(2);
        assertThat(noLoadEngine.err()).contains("the Docker engine at tcp://127.0.0.1:1 does not answer");
        assertThat(Path.of("target/never")).doesNotExist(); // nothing made before failing
    }

    @Test
    void helpIsThereForEveryCommand() {
        Outcome top = execute("--help");
        assertThat(top.exit()).isZero();
        assertThat(top.out()).contains("run");
        Outcome run = execute("run", "--help");
        assertThat(run.exit()).isZero();
        assertThat(run.out()).contains("--quick", "--cpus", "--levels", "--repetitions", "--heap", "--gc", "--engine");
        assertThat(execute("analyze", "--help").exit()).isZero();
        assertThat(execute("report", "--help").exit()).isZero();
        assertThat(execute("report", "no/such/dir").exit()).isEqualTo(2);
    }

    @Test
    void analyzeOfAFileThatIsNoRecordingSaysSoAndWritesNothing(@TempDir Path dir) throws IOException {
        Path readme = Files.writeString(dir.resolve("README.md"), "# not a flight recording\n");
        Outcome outcome = execute("analyze", readme.toString());
        assertThat(outcome.exit()).isEqualTo(1);
        assertThat(outcome.err()).contains("README.md: not a readable JFR recording",
                "nothing written: no recording could be read");
        try (var files = Files.list(dir)) {
            assertThat(files).containsExactly(readme);
        }
    }

    @Test
    void theManifestRecordsTheOpenModelsUserCapOfEachMode() {
        RunCommand run = new RunCommand();
        new CommandLine(run).parseArgs("--levels", "100,500");
        assertThat(WindowRunner.openModelMaxUsers(run.plan())).as("fixed rates: each of two overlapping steps 1,000")
                .isEqualTo(2000);
        MapCommand map = new MapCommand();
        new CommandLine(map).parseArgs("--levels", "10,3000");
        assertThat(WindowRunner.openModelMaxUsers(map.plan())).as("shares of the closed peak: the ceiling")
                .isEqualTo(8000);
    }

    @Test
    void theManifestRecordsTheWarmUpsScrapesOfTheMetricsPath() {
        RunCommand run = new RunCommand();
        new CommandLine(run).parseArgs("--levels", "100,500");
        ExperimentPlan plan = run.plan();
        assertThat(PlanFacts.of(plan, plan.schedule(), 0).warmUp()).containsEntry("boostedScrapesPerSample", 10)
                .containsEntry("hotScrapes", 60).containsEntry("sampleSeconds", 2);
    }

    @Test
    void quickShortensThePipelineButKeepsItsShapeAndExplicitFlagsWin() {
        int machine = Runtime.getRuntime().availableProcessors();
        RunCommand run = new RunCommand();
        new CommandLine(run).parseArgs("--quick", "--levels", "50,200", "--window", "7");
        ExperimentPlan plan = run.plan();
        assertThat(plan.variants()).extracting(Variant::label).containsExactly("imperative", "reactive",
                "virtual-thread");
        assertThat(plan.jvmStarts()).isEqualTo(1);
        assertThat(plan.repetitionsPerJvm()).isEqualTo(1);
        assertThat(plan.repetitions()).isEqualTo(1);
        assertThat(plan.timing().windowSeconds()).isEqualTo(7);
        assertThat(plan.timing().settleSeconds()).isEqualTo(1);
        assertThat(plan.levels()).containsExactly(50, 200);
        assertThat(plan.warmUp()).isEqualTo(new WarmUpPolicy(machine, 2, 2, 30, 4, 12, 0.02, 0.10));
        assertThat(plan.jfrWindows()).isTrue();
        assertThat(plan.open().rates()).containsExactly(500, 2000);
        assertThat(plan.open().stepSeconds()).isEqualTo(3);
        assertThat(plan.sideBySide()).isTrue();

        RunCommand more = new RunCommand();
        new CommandLine(more).parseArgs("--quick", "--jvm-starts", "2", "--repetitions", "3",
                "--warmup-level-max", "20");
        assertThat(more.plan().repetitions()).isEqualTo(6);
        assertThat(more.plan().warmUp().levelMaxSeconds()).isEqualTo(20);
    }

    @Test
    void theDefaultsAreTwoJvmStartsOfOneRepetitionEachCalibratedThenMoreStartsUntilDecidedWithinFifteenMinutes() {
        RunCommand full = new RunCommand();
        new CommandLine(full).parseArgs();
        ExperimentPlan plan = full.plan();
        assertThat(plan.jvmStarts()).isEqualTo(2);
        assertThat(plan.repetitionsPerJvm()).isEqualTo(1);
        assertThat(plan.repetitions()).isEqualTo(2);
        assertThat(plan.timing().windowSeconds()).isEqualTo(6);
        assertThat(plan.timing().settleSeconds()).isEqualTo(3);
        assertThat(plan.levels()).containsExactly(100, 500);
        assertThat(plan.delays()).containsExactly(10);
        assertThat(plan.knobs().cpuQuota()).isEqualTo(0.5);
        assertThat(plan.warmUp()).isEqualTo(WarmUpPolicy.boosted(Runtime.getRuntime().availableProcessors(), 300, 90,
                false));
        assertThat(plan.open().any()).as("the run's open model is asked for with --open-rates").isFalse();
        assertThat(plan.calibration()).isEqualTo(new Calibration(4, Calibration.TRIES, List.of(
                new Calibration.Stage(10, List.of(700, 300, 150, 10)), new Calibration.Stage(50, List.of(900, 400)))));
        // the schedule measures both stages right after the first JVM start's warm-up, and none after the second's
        assertThat(plan.schedule().steps().stream().filter(st -> st instanceof Step.Measure m
                && m.window().calibration()).map(st -> ((Step.Measure) st).window().id().toString()).toList())
                .contains("imperative-50ms-closed-900-cal1", "reactive-50ms-closed-400-cal1")
                .noneMatch(id -> id.endsWith("cal2"));
        assertThat(plan.precision().active()).isTrue();
        assertThat(plan.precision().halfWidth()).isNull();
        assertThat(plan.precision().budget()).hasMinutes(15);
        assertThat(plan.timeToPeak()).isFalse();
        assertThat(plan.sideBySide()).isTrue();
        RunCommand fixed = new RunCommand();
        new CommandLine(fixed).parseArgs("--budget", "off");
        assertThat(fixed.plan().precision().active()).isFalse();
    }

    @Test
    void theCalibrationTakesAListOfUsersPerDelayAndALastListForTheDelaysBeyond() {
        RunCommand one = new RunCommand();
        new CommandLine(one).parseArgs("--calibration-delay-ms", "10");
        assertThat(one.plan().calibration().stages()).containsExactly(new Calibration.Stage(10,
                List.of(700, 300, 150, 10)));
        RunCommand three = new RunCommand();
        new CommandLine(three).parseArgs("--calibration-delay-ms", "10,30,60", "--calibration-levels", "500,100/800");
        assertThat(three.plan().calibration().stages()).containsExactly(new Calibration.Stage(10, List.of(500, 100)),
                new Calibration.Stage(30, List.of(800)), new Calibration.Stage(60, List.of(800)));
        Outcome tooMany = execute("run", "--calibration-delay-ms", "10", "--calibration-levels", "500,100/800/900");
        assertThat(tooMany.exit()).isEqualTo(2);
        assertThat(tooMany.err()).contains("--calibration-levels gives 3 lists of users");
        assertThat(execute("run", "--calibration-delay-ms", "10,10").err()).contains("names a delay twice");
        assertThat(execute("run", "--calibration-delay-ms", "10,6000").err()).contains("not below the client's read"
                + " timeout");
    }

    @Test
    void timeToPeakAndTheComposeEngineShapeTheSchedule() {
        RunCommand run = new RunCommand();
        new CommandLine(run).parseArgs("--time-to-peak", "--time-to-peak-max", "300", "--engine", "compose",
                "--warmup-cpus", "0.5");
        ExperimentPlan plan = run.plan();
        assertThat(plan.timeToPeak()).isTrue();
        assertThat(plan.timeToPeakCeiling()).isEqualTo(300);
        assertThat(plan.sideBySide()).as("containers: one JVM per service at a time").isFalse();
        assertThat(plan.warmUp().boosts(0.5)).isFalse();
        assertThat(plan.schedule().steps().getLast()).isInstanceOfSatisfying(Step.TimeToPeak.class,
                peak -> assertThat(peak.policy().levelMaxSeconds()).isEqualTo(300));
    }

    @Test
    void aWarmUpQuotaBelowTheExperimentsOrAboveTheMachineIsAUsageErrorBeforeAnythingStarts() {
        Path output = Path.of("target/never-warmup-cpus");
        Outcome below = execute("run", "--warmup-cpus", "0.2", "--output", output.toString());
        assertThat(below.exit()).isEqualTo(2);
        assertThat(below.err()).contains("--warmup-cpus must lie between the experiment's quota (--cpus 0.5)",
                "was 0.2", "Usage:");
        // one more CPU than this machine has, whatever machine runs the test
        String tooMany = String.valueOf(Runtime.getRuntime().availableProcessors() + 1);
        Outcome above = execute("run", "--warmup-cpus", tooMany, "--output", output.toString());
        assertThat(above.exit()).isEqualTo(2);
        assertThat(above.err()).contains("--warmup-cpus must lie between", "this machine's "
                + Runtime.getRuntime().availableProcessors() + " CPUs", "was " + tooMany);
        assertThat(output).doesNotExist();
    }

    @Test
    void aWarmUpLevelShorterThanItsJudgedWindowIsAUsageErrorThatSaysWhatItGot() {
        Path output = Path.of("target/never-warmup-level");
        // quick judges a level over two 2-s samples: 2 s cannot hold one
        Outcome outcome = execute("run", "--quick", "--warmup-level-max", "2", "--output", output.toString());
        assertThat(outcome.exit()).isEqualTo(2);
        assertThat(outcome.err()).contains("a level held 4 to 2 s (--warmup-level-max)", "samples of 2 s", "Usage:");
        assertThat(output).doesNotExist();
    }

    @Test
    void theMistakesChooseTheirOwnVariantsAndCannotBeCombinedWithVariants() {
        Outcome both = execute("run", "--mistakes", "--variants", "reactive", "--output", "target/never-mistakes");
        assertThat(both.exit()).isEqualTo(2);
        assertThat(both.err()).contains("--mistakes chooses its own variants; use either it or --variants");
        assertThat(Path.of("target/never-mistakes")).doesNotExist();

        RunCommand run = new RunCommand();
        new CommandLine(run).parseArgs("--mistakes");
        ExperimentPlan plan = run.plan();
        assertThat(plan.variants()).isEqualTo(Variant.mistakesWithTheirReferences(plan.grid()));
        assertThat(plan.variants()).extracting(Variant::label).startsWith("imperative", "reactive",
                "virtual-thread", "cpu-on-worker").contains("blocking-event-loop", "pinned-class-init");
        assertThat(plan.jvmStarts()).isEqualTo(1);
        assertThat(plan.repetitionsPerJvm()).isEqualTo(3);
    }

    @Test
    void zeroRepetitionsIsAUsageErrorThatNamesTheFlag() {
        Outcome outcome = execute("run", "--repetitions", "0", "--output", "target/never-repetitions");
        assertThat(outcome.exit()).isEqualTo(2);
        assertThat(outcome.err()).contains("--repetitions").doesNotContain("--repetitions-per-jvm");
    }

    @Test
    void aTimeToPeakCeilingBelowItsMinimumIsRejectedWithTheFlagsName() {
        RunCommand run = new RunCommand();
        new CommandLine(run).parseArgs("--time-to-peak", "--time-to-peak-max", "10");
        assertThatThrownBy(run::plan).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--time-to-peak-max");
    }

    @Test
    void papercutsAreUsageErrorsThatNameTheFlagAtFault() {
        Outcome renamed = execute("run", "--no-open", "--output", "target/never-no-open");
        assertThat(renamed.exit()).isEqualTo(2);
        assertThat(renamed.err()).contains("--no-open is now --no-open-model");
        int machine = Runtime.getRuntime().availableProcessors();
        Outcome cpus = execute("run", "--cpus", String.valueOf(machine + 5), "--output", "target/never-cpus");
        assertThat(cpus.exit()).isEqualTo(2);
        // the flag at fault, not the warm-up's quota that follows from it
        assertThat(cpus.err().lines().findFirst().orElseThrow()).isEqualTo("experiment: --cpus " + (machine + 5.0)
                + " is more than this machine's " + machine + " CPUs");
        Outcome delay = execute("run", "--delay-ms", "10,6000", "--output", "target/never-delay");
        assertThat(delay.exit()).isEqualTo(2);
        assertThat(delay.err()).contains("--delay-ms 6000 is not below the client's read timeout");
        assertThat(execute("run", "--cpus", "0.5,1", "--output", "target/never-axes").err())
                .contains("./experiment map takes several");
    }

    @Test
    void precisionOnDemandIsParsedAndABudgetBelowOneBlockIsRefusedBeforeAnythingStarts() {
        RunCommand run = new RunCommand();
        new CommandLine(run).parseArgs("--precision", "10%", "--budget", "1h30m", "--max-jvm-starts", "6");
        ExperimentPlan plan = run.plan();
        assertThat(plan.precision().active()).isTrue();
        assertThat(plan.precision().halfWidth()).isEqualTo(0.10);
        assertThat(plan.precision().budget()).hasMinutes(90);
        assertThat(plan.precision().maxJvmStarts()).isEqualTo(6);
        // one more JVM start of a variant: start, warm up, calibrate, its repetitions, stop
        List<Step> block = plan.block(3, List.of(Variant.REACTIVE));
        assertThat(block).first().isInstanceOf(Step.StartJvms.class);
        assertThat(block).last().isInstanceOf(Step.StopJvms.class);
        assertThat(block.stream().filter(s -> s instanceof Step.Measure).map(s -> ((Step.Measure) s).window())
                .filter(w -> !w.calibration()).map(w -> w.number()).distinct()).containsExactly(3);
        assertThat(block.stream().filter(s -> s instanceof Step.Measure).map(s -> ((Step.Measure) s).window())
                .map(w -> w.variant())).containsOnly(Variant.REACTIVE);
        Outcome small = execute("run", "--budget", "90s", "--output", "target/never-budget");
        assertThat(small.exit()).isEqualTo(2);
        assertThat(small.err()).contains("--budget PT1M30S is less than one more JVM start of a variant");
        assertThat(execute("run", "--precision", "ten", "--output", "target/never-p").err())
                .contains("--precision must be a half-width like 10% or 0.1, was 'ten'");
        assertThat(execute("run", "--budget", "soon", "--output", "target/never-b").err())
                .contains("--budget must be a duration like 30m");
        assertThat(execute("map", "--precision", "10%").exit()).isEqualTo(2); // map has no such flag
        assertThat(execute("run", "--load-cpus", "elsewhere", "--output", "target/never-l").err())
                .contains("--load-cpus must be shared, separate or compare");
    }

    @Test
    void anExtensionMustMeasureWhatTheEarlierRunDid() {
        Outcome missing = execute("run", "--extend", "target/no-such-run");
        assertThat(missing.exit()).isEqualTo(2);
        assertThat(missing.err()).contains("--extend: ").contains("is not a directory");
    }

    @Test
    void aRunThatWentOnWithoutSomePointsExitsThree() {
        RunManifest whole = manifest(List.of("k6 used 80 % of its CPU at 500 users"));
        RunManifest lost = manifest(List.of(RunManifest.POINT_LOST + "reactive-d10-u3000-jvm1-rep1: no answer: k6"));
        assertThat(Pipeline.exitCode(whole, 0, 0)).isZero();
        assertThat(Pipeline.exitCode(lost, 0, 0)).isEqualTo(Pipeline.POINTS_LOST);
        assertThat(lost.lostPoints()).containsExactly("reactive-d10-u3000-jvm1-rep1: no answer: k6");
        // a report or analysis that could not be written is the failure to say first
        assertThat(Pipeline.exitCode(lost, 0, 1)).isEqualTo(1);
        assertThat(Pipeline.exitCode(whole, 1, 0)).isEqualTo(1);
    }

    private static RunManifest manifest(List<String> warnings) {
        return new RunManifest(RunManifest.FORMAT,
                new RunManifest.Progress(true, "completed", "t", "t", null, warnings),
                new RunManifest.Conditions(null, null, List.of(), Map.of(), Map.of(), null, null),
                new RunManifest.AsRun(List.of(), null, null, List.of(), null, null, null));
    }
}
