package io.threadlab.experiment;

import io.threadlab.experiment.plan.ExperimentPlan;
import io.threadlab.experiment.plan.Step;
import io.threadlab.experiment.plan.Window;
import picocli.CommandLine;

import java.util.List;

/** What {@code ./experiment run} with these arguments would plan, and its measured windows, without running it. */
final class PlannedRun {

    private PlannedRun() {
    }

    static ExperimentPlan run(String... args) {
        RunCommand run = new RunCommand();
        new CommandLine(run).parseArgs(args);
        return run.plan();
    }

    static List<Window> windows(ExperimentPlan plan) {
        return plan.schedule().steps().stream().filter(s -> s instanceof Step.Measure).map(s -> ((Step.Measure) s)
                .window()).toList();
    }
}
