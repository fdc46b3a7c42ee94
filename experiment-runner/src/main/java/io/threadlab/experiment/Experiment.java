package io.threadlab.experiment;

import io.threadlab.experiment.collect.Manifest;
import io.threadlab.experiment.collect.ResultsDirectory;
import io.threadlab.experiment.collect.ResultsWriter;
import io.threadlab.experiment.collect.RunManifest;
import io.threadlab.experiment.collect.RunRecord;
import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.plan.Eta;
import io.threadlab.experiment.plan.ExperimentPlan;
import io.threadlab.experiment.plan.Schedule;
import io.threadlab.experiment.plan.Step;
import io.threadlab.experiment.process.PortCheck;
import io.threadlab.experiment.progress.Console;
import io.threadlab.experiment.start.JavaCommand;

import io.threadlab.experiment.start.EngineTarget;

import java.nio.file.Path;
import java.time.Instant;

/**
 * The whole experiment: the schedule's steps carried out one after the other (start, warm up, measure, stop), into a
 * new results directory. Any way out (done, error, Ctrl-C) stops every child process and removes every cgroup,
 * keeping what was measured.
 */
final class Experiment {

    static final int DELAY_PORT = JavaCommand.DELAY_PORT;

    private final ExperimentPlan plan;
    private final Path labHome;
    private final Path outputRoot;
    private final Path javaHome;
    private final String engineName;
    /** The Docker engine of {@code --engine compose}; this machine otherwise. */
    private final EngineTarget target;
    /** The engine whose container runs k6 ({@code --load-host}), or null for k6 on this machine. */
    private final EngineTarget loadHost;
    private final Path jfrSettings;
    private final Console console = new Console();
    private final RunRecord extending;

    private Path dir;
    private Manifest manifest;
    private ResultsWriter results;
    private Rig rig;
    private volatile boolean interrupted;

    /** @param extending an earlier run to add JVM starts to ({@code --extend}), or null for a new run */
    Experiment(ExperimentPlan plan, Path labHome, Path outputRoot, Path javaHome, String engineName,
               EngineTarget target, EngineTarget loadHost, Path jfrSettings, RunRecord extending) {
        this.target = target;
        this.loadHost = loadHost;
        this.extending = extending;
        this.plan = plan;
        this.labHome = labHome;
        this.outputRoot = outputRoot;
        this.javaHome = javaHome;
        this.engineName = engineName;
        this.jfrSettings = jfrSettings;
    }

    static final String PREPARE = "preparing: service builds, k6, the delay service, the database";
    static final String TEAR_DOWN = "stopping the JVMs and cleaning up";

    /** Runs the plan; returns the results directory. Throws after cleaning up if the run failed. */
    Path run() {
        int firstStart = extending == null ? 1 : Extending.firstStart(extending.results());
        Schedule schedule = extending == null ? plan.schedule() : Extending.schedule(plan, extending.results());
        if (target.sameMachine()) {
            PortCheck.requireFree(DELAY_PORT, Rig.DELAY_MODULE);
        }
        if (extending == null) {
            dir = ResultsDirectory.create(outputRoot, Instant.now());
            manifest = new Manifest(dir);
            results = new ResultsWriter(dir);
        } else {
            dir = extending.dir();
            manifest = Manifest.extending(dir, extending.manifest());
            results = ResultsWriter.extending(dir, extending.results());
        }
        String startedAt = Instant.now().toString();
        console.say((extending == null ? "Results go to " : "Extending ") + dir);
        if (plan.precision().active()) {
            console.say(PrecisionOnDemand.announce(plan));
        }
        if (extending == null) { // what the plan's fan-out asks beyond the machine, before anything starts
            plan.fanOutFlags().forEach(flag -> {
                console.warn("fan-out: " + flag);
                manifest.warn("fan-out: " + flag);
            });
        }
        Thread cleanup = new Thread(() -> {
            interrupted = true;
            cleanUp("interrupted", "stopped by a signal (Ctrl-C or SIGTERM)");
        });
        Runtime.getRuntime().addShutdownHook(cleanup);
        try {
            long preparing = System.nanoTime();
            rig = new Rig(plan, labHome, javaHome, jfrSettings, console, dir, manifest, results);
            rig.prepare(schedule, engineName, target, loadHost, extending == null);
            manifest.timeSpent(PREPARE, (System.nanoTime() - preparing) / 1e9);
            Eta eta = new Eta(schedule);
            console.follow(eta);
            StepLoop steps = new StepLoop(rig, manifest, console);
            long runStart = System.nanoTime();
            for (int i = 0; i < schedule.steps().size(); i++) {
                eta.begin(i, System.nanoTime());
                steps.perform(schedule.steps().get(i), runStart);
            }
            eta.begin(schedule.steps().size(), System.nanoTime());
            String stopped = plan.precision().active()
                    ? new PrecisionOnDemand(plan, results, manifest, console).extend(runStart,
                    step -> steps.perform(step, runStart))
                    : "one JVM start of every variant added (no --precision or --budget)";
            if (extending != null) {
                manifest.extended(new RunManifest.Extension(startedAt, Instant.now().toString(),
                        MachineFacts.gitSha(labHome), firstStart, results.windows().stream()
                        .mapToInt(WindowResult::jvm).max().orElse(firstStart), stopped));
            }
            cleanUp("completed", null);
            console.say("Done. Results: " + dir);
            return dir;
        } catch (RuntimeException e) {
            if (interrupted) { // the signal stopped the children; what failed since is its consequence
                throw new ExperimentFailed("interrupted; what was measured is kept in " + dir, e);
            }
            cleanUp("failed", e.getMessage());
            throw new ExperimentFailed("the run failed: " + e.getMessage() + "\nWhat was measured is kept in " + dir, e);
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(cleanup);
            } catch (IllegalStateException e) {
                // already shutting down: the hook is running
            }
        }
    }

    static final class ExperimentFailed extends RuntimeException {
        ExperimentFailed(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** Stops every child, removes every cgroup, and records how the run ended; once, whichever path gets here. */
    private synchronized void cleanUp(String status, String failure) {
        if (manifest == null || manifest.isFinished()) {
            return;
        }
        if (rig != null) {
            long tearing = System.nanoTime();
            rig.tearDown("completed".equals(status));
            manifest.timeSpent(TEAR_DOWN, (System.nanoTime() - tearing) / 1e9);
        }
        manifest.finish(status, failure);
        if (!"completed".equals(status)) {
            System.err.println("Run " + status + (failure == null ? "" : ": " + failure) + ". Processes stopped, cgroups"
                    + " removed; what was measured is kept in " + dir);
        }
    }

}
