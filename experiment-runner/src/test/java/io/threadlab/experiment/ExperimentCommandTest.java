package io.threadlab.experiment;

import io.threadlab.experiment.plan.ExperimentPlan;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

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
            io.threadlab.experiment.start.ComposeCli.requireEngine();
            dockerAnswers = true;
        } catch (IllegalStateException e) {
            dockerAnswers = false;
        }
        Assumptions.assumeFalse(dockerAnswers, "the no-Docker check needs a machine without a running Docker engine");
        Outcome outcome = execute("run", "--engine", "compose", "--output", "target/never");
        assertThat(outcome.exit()).isEqualTo(1);
        assertThat(outcome.err()).contains("--engine compose needs Docker with the compose plugin and a running engine")
                .contains("run without --engine");
        assertThat(java.nio.file.Path.of("target/never")).doesNotExist(); // nothing made before failing
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
    void quickShortensThePipelineButKeepsItsShapeAndExplicitFlagsWin() {
        ExperimentCommand.Run run = new ExperimentCommand.Run();
        new CommandLine(run).parseArgs("--quick", "--levels", "50,200", "--window", "7");
        ExperimentPlan plan = run.plan();
        assertThat(plan.variants()).hasSize(3);
        assertThat(plan.repetitions()).isEqualTo(1);
        assertThat(plan.windowSeconds()).isEqualTo(7);
        assertThat(plan.levels()).containsExactly(50, 200);
        assertThat(plan.warmUp().vus()).isEqualTo(200);
        assertThat(plan.jfrWindows()).isTrue();
        assertThat(plan.settleSeconds()).isEqualTo(1);
        assertThat(plan.openRates()).isNotEmpty();

        ExperimentCommand.Run full = new ExperimentCommand.Run();
        new CommandLine(full).parseArgs();
        assertThat(full.plan().repetitions()).isEqualTo(3);
        assertThat(full.plan().levels()).containsExactly(100, 500);
        assertThat(full.plan().knobs().cpuQuota()).isEqualTo(0.5);
    }
}
