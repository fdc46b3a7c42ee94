package io.threadlab.experiment;

import io.threadlab.experiment.collect.PlanFacts;
import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.ExperimentPlan;
import io.threadlab.experiment.load.Loads;
import io.threadlab.experiment.plan.FanOutMode;
import io.threadlab.experiment.plan.Point;
import io.threadlab.experiment.plan.Step;
import io.threadlab.experiment.plan.Variant;
import io.threadlab.experiment.plan.Window;
import io.threadlab.experiment.plan.WindowId;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static io.threadlab.experiment.PlannedRun.run;
import static io.threadlab.experiment.PlannedRun.windows;
import static org.assertj.core.api.Assertions.assertThat;

/** {@code --fan-out} and {@code --fan-out-mode}: axes of run and map, their windows' names and requests, bad input. */
class FanOutPlanTest {

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
        assertThat(facts.calibration()).as("--no-calibration: none recorded").isNull();
    }

    @Test
    void theMapsOpenModelSharesAreInTheManifestAsTheRunsRatesAre() {
        MapCommand map = new MapCommand();
        new CommandLine(map).parseArgs("--levels", "100", "--delay-ms", "10");
        PlanFacts facts = PlanFacts.of(map.plan(), map.plan().schedule(), 0);
        assertThat(facts.shapes().openModelShares()).containsExactly(0.25, 0.5, 0.75, 0.9, 1.0);
        assertThat(facts.shapes().openModelRates()).isEmpty();
        new CommandLine(map = new MapCommand()).parseArgs("--open-shares", "0.5,1.2");
        assertThat(PlanFacts.of(map.plan(), map.plan().schedule(), 0).shapes().openModelShares())
                .containsExactly(0.5, 1.2);
        assertThat(PlanFacts.of(run("--no-calibration"), run("--no-calibration").schedule(), 0).shapes()
                .openModelShares())
                .isEmpty();
    }

    /**
     * A JVM that fans out is calibrated at one call and, per mode, at the most calls its points make, at users of the
     * one-call calibration's levels or the most the pool has room for: of those whose calls all get a connection and,
     * for workers in parallel, a worker, the nearest to the points' users (100). Pool 1,000 and 200 workers, 8 calls:
     * reactive parallel at 125 users (1,000 ÷ 8; 150 × 8 = 1,200 connections is too many, and 10 users too few to
     * load the quota), sequential at 150; imperative parallel at 22 (200 ÷ 9 workers).
     */
    @Test
    void aJvmThatFansOutIsCalibratedAtItsMostCallsInEachMode() {
        ExperimentPlan plan = run("--levels", "100", "--delay-ms", "10", "--fan-out", "1,4,8",
                "--fan-out-mode", "sequential,parallel", "--calibration-levels", "700,150,10", "--no-open-model",
                "--no-jfr", "--jvm-starts", "2", "--budget", "off", "--pool-size", "1000", "--worker-max", "200");
        List<Window> calibration = windows(plan).stream().filter(Window::calibration).toList();
        // how the JVMs were calibrated, the tries of a window whose compiler was busy included, is in the manifest
        assertThat(PlanFacts.of(plan, plan.schedule(), 0).calibration()).containsEntry("tries", 3)
                .containsEntry("users", List.of(700, 150, 10)).containsEntry("delay_ms", 10)
                .containsEntry("measured_again_while_compiler_above_share_of_quota", 0.02)
                .containsEntry("measured_again_while_compiler_waited_above_share_of_window", 0.05)
                .containsEntry("measured_again_while_slowest_second_below_share_of_fastest", 0.25);
        assertThat(calibration.stream().filter(w -> w.variant().label().equals("reactive"))
                .map(w -> w.id().format())).containsExactly("reactive-10ms-closed-700-cal1",
                "reactive-10ms-closed-150-cal1", "reactive-10ms-closed-10-cal1",
                "reactive-10ms-fan8-closed-125-cal1", "reactive-10ms-fan8-sequential-closed-150-cal1");
        assertThat(calibration.stream().filter(w -> w.variant().label().equals("imperative") && w.fanOut() > 1)
                .map(w -> w.users() + " " + w.path())).containsExactly("22 /api/fanout?n=8&mode=parallel",
                "150 /api/fanout?n=8&mode=sequential");
        // a fan-out path first compiles in its calibration: it may settle as long as a warm-up level, one call's as
        // long as any window
        assertThat(calibration).allSatisfy(w -> assertThat(((Window.Closed) w.load()).settleMaxSeconds())
                .isEqualTo(w.fanOut() > 1 ? plan.warmUp().levelMaxSeconds() : plan.timing().settleMaxSeconds()));
        assertThat(plan.warmUp().levelMaxSeconds()).isGreaterThan(plan.timing().settleMaxSeconds());
        // the second JVM start is predicted from the first's calibration: none of its own
        assertThat(calibration).allMatch(w -> w.number() == 1);
        // without fan-out, one call's calibration alone
        assertThat(windows(run("--levels", "100", "--calibration-levels", "700,150,10", "--jvm-starts", "1",
                "--budget", "off")).stream().filter(Window::calibration)).allMatch(w -> w.fanOut() == 1);
    }

    private static List<String> paths(ExperimentPlan plan, String variant) {
        return windows(plan).stream().filter(w -> w.variant().label().equals(variant) && !w.recorded()
                        && w.number() == 1) // the first repetition's
                .map(w -> w.users() + " " + w.path()).toList();
    }

    @Test
    void theFanOutMistakesRunOnlyWithMoreThanOneCallEachBesideItsReference() {
        List<String> fanOutMistakes = List.of("blocking-join-event-loop", "fanout-worker-starvation",
                "fanout-connection-pool");
        assertThat(run("--mistakes").variants()).extracting(Variant::label).doesNotContainAnyElementsOf(
                fanOutMistakes);
        ExperimentPlan plan = run("--mistakes", "--fan-out", "4", "--levels", "100,500", "--delay-ms", "100",
                "--no-calibration", "--no-open-model", "--budget", "off");
        // the gallery's other mistakes have no fan-out endpoint: only these three, after what they spoil
        assertThat(plan.variants()).extracting(Variant::label).containsExactly("imperative", "reactive",
                "virtual-thread", "blocking-join-event-loop", "fanout-worker-starvation", "fanout-connection-pool");
        assertThat(paths(plan, "blocking-join-event-loop")).containsExactly(
                "100 /mistakes/fanout/blocking-join?n=4&mode=parallel",
                "500 /mistakes/fanout/blocking-join?n=4&mode=parallel");
        assertThat(paths(plan, "reactive")).containsExactly("100 /api/fanout?n=4&mode=parallel",
                "500 /api/fanout?n=4&mode=parallel");
        assertThat(paths(plan, "fanout-connection-pool")).containsExactly("100 /api/fanout?n=4&mode=parallel",
                "500 /api/fanout?n=4&mode=parallel");
        // the starvation is the lesson: driven at 500 users on 200 workers, where the imperative variant is not ...
        assertThat(paths(plan, "fanout-worker-starvation")).containsExactly("100 /api/fanout?n=4&mode=parallel",
                "500 /api/fanout?n=4&mode=parallel");
        // ... which is measured in turn as well, the mistake's reference, though the grid has parallel only
        assertThat(paths(plan, "imperative")).containsExactly("100 /api/fanout?n=4&mode=parallel",
                "100 /api/fanout?n=4&mode=sequential", "500 /api/fanout?n=4&mode=sequential");
        assertThat(plan.fanOutFlags()).anySatisfy(f -> assertThat(f).startsWith("fanout-worker-starvation at")
                .contains("driven", "500 users on 200 workers"))
                .anySatisfy(f -> assertThat(f).startsWith("imperative at").contains("left out"));
        Variant starvation = Variant.fromLabel("fanout-worker-starvation");
        for (Step step : plan.schedule().steps()) {
            if (step instanceof Step.Measure m && m.window().variant() == starvation) {
                // its requests end by the services' 503 or k6's own timeout: the drain fits the step's ceiling
                assertThat(m.ceilingSeconds()).isGreaterThanOrEqualTo(m.window().load().ceilingSeconds()
                        + (int) Loads.DRAIN_PATIENCE.toSeconds());
            }
            if (step instanceof Step.WarmUp w && w.jvm().variant().isMistake()) {
                // no request of one call: they warm up on their first window's and are not calibrated
                assertThat(w.path()).contains("?n=4&mode=parallel");
            }
        }
    }

    @Test
    void aMistakeOfOneModeIsMeasuredAgainstTheOtherAndNotInIt() {
        Variant starvation = Variant.fromLabel("fanout-worker-starvation");
        Point parallel = Point.of(Axis.FAN_OUT, 4).with(Axis.FAN_OUT_MODE, FanOutMode.PARALLEL);
        Point sequential = parallel.with(Axis.FAN_OUT_MODE, FanOutMode.SEQUENTIAL);
        assertThat(starvation.path(parallel)).isEqualTo("/api/fanout?n=4&mode=parallel");
        assertThat(starvation.path(sequential)).isNull();
        assertThat(starvation.path(Point.NONE)).isNull(); // one call: no fan-out, no mistake
        assertThat(starvation.referencePoint(parallel)).isEqualTo(sequential);
        Variant join = Variant.fromLabel("blocking-join-event-loop");
        assertThat(join.path(sequential)).isEqualTo("/mistakes/fanout/blocking-join?n=4&mode=sequential");
        assertThat(join.referencePoint(sequential)).isEqualTo(sequential);
        assertThat(Variant.fromLabel("fanout-connection-pool").properties())
                .containsEntry("quarkus.rest-client.delay.connection-pool-size", "50");
    }

    @Test
    void moreCallsThanAVariantsOwnPoolAreLeftOutForItAndSaidSo() {
        ExperimentPlan plan = run("--mistakes", "--fan-out", "64", "--levels", "10", "--delay-ms", "100",
                "--no-calibration", "--no-open-model", "--budget", "off");
        assertThat(paths(plan, "fanout-connection-pool")).isEmpty();
        assertThat(paths(plan, "virtual-thread")).containsExactly("10 /api/fanout?n=64&mode=parallel");
        assertThat(plan.fanOutFlags()).anySatisfy(f -> assertThat(f).startsWith("fanout-connection-pool at")
                .contains("left out", "connection pool of 50"));
    }

    @Test
    void theMapTakesTheFanOutToo() {
        MapCommand map = new MapCommand();
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
            assertThat(o.err()).contains("--fan-out must be numbers of calls from 1 to 64 (the services'"
                    + " lab.fanout.max-calls), was 0");
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
