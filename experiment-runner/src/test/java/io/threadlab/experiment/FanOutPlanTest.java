package io.threadlab.experiment;

import io.threadlab.experiment.collect.PlanFacts;
import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.ExperimentPlan;
import io.threadlab.experiment.plan.FanOutMode;
import io.threadlab.experiment.plan.Step;
import io.threadlab.experiment.plan.Window;
import io.threadlab.experiment.plan.WindowId;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code --fan-out} and {@code --fan-out-mode}: axes of run and map, their windows' names and requests, bad input. */
class FanOutPlanTest {

    private static List<Window> windows(ExperimentPlan plan) {
        return plan.schedule().steps().stream().filter(s -> s instanceof Step.Measure).map(s -> ((Step.Measure) s)
                .window()).toList();
    }

    private static ExperimentPlan run(String... args) {
        ExperimentCommand.Run run = new ExperimentCommand.Run();
        new CommandLine(run).parseArgs(args);
        return run.plan();
    }

    @Test
    void withoutFanOutTheWindowsAreTodaysGetApiAndNamedAsBefore() {
        ExperimentPlan plan = run("--levels", "100,500", "--delay-ms", "100", "--no-calibration");
        assertThat(plan.grid().axes()).doesNotContain(Axis.FAN_OUT, Axis.FAN_OUT_MODE);
        assertThat(windows(plan)).extracting(Window::path).containsOnly("/api");
        assertThat(windows(plan).getFirst().id().format()).isEqualTo("imperative-100ms-closed-100-1");
        assertThat(plan.fanOutFlags()).isEmpty();
    }

    @Test
    void fanOutAndItsModeAreAxesWhoseWindowsCallTheFanOutPathOneCallMeasuredOnce() {
        ExperimentPlan plan = run("--levels", "100,500", "--delay-ms", "100", "--fan-out", "1,4",
                "--fan-out-mode", "sequential,parallel", "--no-calibration", "--no-open-model", "--no-jfr",
                "--jvm-starts", "1", "--budget", "off");
        List<Window> reactive = windows(plan).stream().filter(w -> w.variant().label().equals("reactive")).toList();
        assertThat(reactive).extracting(Window::path).containsExactly("/api",
                "/api/fanout?n=4&mode=sequential", "/api/fanout?n=4&mode=parallel", "/api",
                "/api/fanout?n=4&mode=sequential", "/api/fanout?n=4&mode=parallel");
        assertThat(reactive).extracting(w -> w.id().format()).containsExactly("reactive-100ms-closed-100-1",
                "reactive-100ms-fan4-sequential-closed-100-1", "reactive-100ms-fan4-closed-100-1",
                "reactive-100ms-closed-500-1", "reactive-100ms-fan4-sequential-closed-500-1",
                "reactive-100ms-fan4-closed-500-1");
        for (Window w : reactive) { // the name reads back as the point, its quiet values aside
            WindowId parsed = WindowId.parse(w.id().format()).orElseThrow();
            assertThat(parsed.at().get(Axis.FAN_OUT)).isEqualTo(w.fanOut() == 1 ? null : w.fanOut());
            assertThat(parsed.at().get(Axis.FAN_OUT_MODE)).isEqualTo(
                    w.at().get(Axis.FAN_OUT_MODE) == FanOutMode.SEQUENTIAL ? FanOutMode.SEQUENTIAL : null);
        }
        // 500 users on 200 workers, each waiting for 4 calls queued behind it: left out, and said so
        List<String> imperative = windows(plan).stream().filter(w -> w.variant().label().equals("imperative"))
                .map(Window::path).toList();
        assertThat(imperative).containsExactly("/api", "/api/fanout?n=4&mode=sequential",
                "/api/fanout?n=4&mode=parallel", "/api", "/api/fanout?n=4&mode=sequential");
        assertThat(plan.fanOutFlags()).anySatisfy(f -> assertThat(f).startsWith("imperative at").contains("left out")
                .contains("500 users on 200 workers"));
        PlanFacts facts = PlanFacts.of(plan, plan.schedule(), 0);
        assertThat(facts.fanOut()).containsEntry("calls", List.of(1, 4))
                .containsEntry("modes", List.of("sequential", "parallel"))
                .containsEntry("lab.fanout.max-calls", ExperimentPlan.MAX_FAN_OUT);
    }

    @Test
    void theMapTakesTheFanOutToo() {
        ExperimentCommand.MapCommand map = new ExperimentCommand.MapCommand();
        new CommandLine(map).parseArgs("--levels", "10,100", "--delay-ms", "100", "--fan-out", "8");
        ExperimentPlan plan = map.plan();
        assertThat(plan.grid().values(Axis.FAN_OUT)).containsExactly(8);
        assertThat(plan.grid().values(Axis.FAN_OUT_MODE)).containsExactly(FanOutMode.PARALLEL);
    }

    @Test
    void theDelayServicesLoadAndTheConnectionsInFlightAreFlaggedBeforeTheRunStarts() {
        ExperimentPlan plan = run("--levels", "100", "--delay-ms", "10", "--fan-out", "16", "--pool-size", "1000",
                "--no-calibration");
        assertThat(plan.fanOutFlags()).anySatisfy(f -> assertThat(f).contains("1,600 connections in flight"))
                .anySatisfy(f -> assertThat(f).contains("160,000 calls/s").contains("(10,000/s)"));
    }

    @Test
    void badFanOutIsAUsageErrorThatSaysWhy() {
        assertThat(execute("run", "--fan-out", "0", "--output", "target/never-fan")).satisfies(o -> {
            assertThat(o.exit()).isEqualTo(2);
            assertThat(o.err()).contains("--fan-out must be numbers of calls from 1 to 64, was [0]");
        });
        assertThat(execute("run", "--fan-out", "1,65", "--output", "target/never-fan").err())
                .contains("--fan-out must be numbers of calls from 1 to 64 (the services' lab.fanout.max-calls),"
                        + " was [1, 65]");
        Outcome pool = execute("run", "--fan-out", "8", "--pool-size", "4", "--output", "target/never-fan");
        assertThat(pool.exit()).isEqualTo(2);
        assertThat(pool.err()).contains("--fan-out 8 is more calls than the delay client's connection pool holds (4");
        Outcome mode = execute("run", "--fan-out", "4", "--fan-out-mode", "diagonal", "--output", "target/never-fan");
        assertThat(mode.exit()).isEqualTo(2);
        assertThat(mode.err()).contains("--fan-out-mode takes parallel or sequential, was 'diagonal'");
        Outcome alone = execute("run", "--fan-out-mode", "sequential", "--output", "target/never-fan");
        assertThat(alone.exit()).isEqualTo(2);
        assertThat(alone.err()).contains("needs --fan-out above 1");
        Outcome words = execute("run", "--fan-out", "many", "--output", "target/never-fan");
        assertThat(words.exit()).isEqualTo(2);
    }

    private record Outcome(int exit, String err) {
    }

    private static Outcome execute(String... args) {
        PrintStream err = System.err;
        PrintStream out = System.out;
        ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
        try {
            System.setErr(new PrintStream(errBytes, true, StandardCharsets.UTF_8));
            System.setOut(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
            int exit = ExperimentCommand.execute(args);
            return new Outcome(exit, errBytes.toString(StandardCharsets.UTF_8));
        } finally {
            System.setErr(err);
            System.setOut(out);
        }
    }
}
