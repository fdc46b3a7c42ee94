package io.threadlab.experiment;

import io.threadlab.experiment.collect.Manifest;
import io.threadlab.experiment.progress.Console;
import io.threadlab.experiment.collect.PlanFacts;
import io.threadlab.experiment.collect.ResultsDirectory;
import io.threadlab.experiment.collect.ResultsWriter;
import io.threadlab.experiment.collect.RunManifest;
import io.threadlab.experiment.collect.RunRecord;
import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.confine.ConfinementDetector;
import io.threadlab.experiment.confine.CpuSets;
import io.threadlab.experiment.load.DelayControl;
import io.threadlab.experiment.load.K6;
import io.threadlab.experiment.load.Loads;
import io.threadlab.experiment.load.WarmUp;
import io.threadlab.experiment.load.WindowRunner;
import io.threadlab.experiment.plan.Eta;
import io.threadlab.experiment.plan.ExperimentPlan;
import io.threadlab.experiment.plan.Jvm;
import io.threadlab.experiment.plan.LoadPlacement;
import io.threadlab.experiment.plan.Schedule;
import io.threadlab.experiment.plan.Step;
import io.threadlab.experiment.process.PortCheck;
import io.threadlab.experiment.process.ServiceProcess;
import io.threadlab.experiment.record.DelayHeadroom;
import io.threadlab.experiment.start.ComposeEngine;
import io.threadlab.experiment.start.Engine;
import io.threadlab.experiment.start.JavaCommand;
import io.threadlab.experiment.start.LocalEngine;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.stream.Stream;

/**
 * The whole experiment: the schedule's steps carried out one after the other (start, warm up, measure, stop), into a
 * new results directory. Any way out (done, error, Ctrl-C) stops every child process and removes every cgroup,
 * keeping what was measured.
 */
final class Experiment {

    static final int DELAY_PORT = JavaCommand.DELAY_PORT;
    private static final String DELAY_MODULE = "delay-service";
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(180);

    private final ExperimentPlan plan;
    private final Path labHome;
    private final Path outputRoot;
    private final Path javaHome;
    private final String engineName;
    private final Path jfrSettings;
    private final Console console = new Console();
    private final JavaCommand java;
    private final RunRecord extending;

    private Path dir;
    private Manifest manifest;
    private ResultsWriter results;
    private Engine engine;
    private Loads loads;
    private ServiceProcess delayService;
    private WindowRunner windows;
    private Jvms jvms;
    private CpuSets cpuSets;
    private volatile boolean interrupted;

    /** @param extending an earlier run to add JVM starts to ({@code --extend}), or null for a new run */
    Experiment(ExperimentPlan plan, Path labHome, Path outputRoot, Path javaHome, String engineName, Path jfrSettings,
               RunRecord extending) {
        this.extending = extending;
        this.plan = plan;
        this.labHome = labHome;
        this.outputRoot = outputRoot;
        this.javaHome = javaHome;
        this.engineName = engineName;
        this.jfrSettings = jfrSettings;
        this.java = new JavaCommand(javaHome, labHome);
    }

    /** Runs the plan; returns the results directory. Throws after cleaning up if the run failed. */
    Path run() {
        int firstStart = extending == null ? 1 : extending.results().windows().stream()
                .mapToInt(WindowResult::jvm).max().orElse(0) + 1;
        Schedule schedule = extending == null ? plan.schedule() : new Schedule(plan.block(firstStart));
        PortCheck.requireFree(DELAY_PORT, DELAY_MODULE);
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
        Thread cleanup = new Thread(() -> {
            interrupted = true;
            cleanUp("interrupted", "stopped by a signal (Ctrl-C or SIGTERM)");
        });
        Runtime.getRuntime().addShutdownHook(cleanup);
        try {
            prepare(schedule);
            Eta eta = new Eta(schedule);
            console.follow(eta);
            long runStart = System.nanoTime();
            for (int i = 0; i < schedule.steps().size(); i++) {
                eta.begin(i, System.nanoTime());
                perform(schedule.steps().get(i), runStart);
            }
            eta.begin(schedule.steps().size(), System.nanoTime());
            int lastStart = extending == null ? plan.jvmStarts() : firstStart;
            String stopped = plan.precision().active()
                    ? new PrecisionOnDemand(plan, results, manifest, console).extend(lastStart, runStart,
                    step -> perform(step, runStart))
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

    /** One step, announced, carried out, and recorded in the manifest as it ran. */
    private void perform(Step step, long runStart) {
        long stepStart = System.nanoTime();
        if (!(step instanceof Step.Measure)) { // a window announces itself with its result
            console.say(step.describe());
        }
        perform(step);
        manifest.stepDone(new RunManifest.StepAsRun(step.kind(), step.describe(), tenths(stepStart - runStart),
                tenths(System.nanoTime() - stepStart)));
    }

    private void perform(Step step) {
        switch (step) {
            case Step.StartJvms start -> jvms.start(start.jvms());
            case Step.WarmUp warm -> jvms.warmUp(warm);
            case Step.Measure measure -> windows.measure(jvms.get(measure.window().jvm()), measure.window());
            case Step.StopJvms stop -> stop.jvms().forEach(jvms::stop);
            case Step.TimeToPeak peak -> jvms.timeToPeak(peak);
        }
    }

    private void prepare(Schedule schedule) {
        engine = engineName.equals("compose") ? new ComposeEngine(labHome, plan.knobs(), plan.delays().getFirst())
                : new LocalEngine(ConfinementDetector.forThisMachine("threadlab-" + dir.getFileName()).detect(),
                javaHome, jfrSettings, labHome, console::say);
        ConfinementDetector.unconfinedReason(engine.confinement()).ifPresent(reason -> warn("NOT CONFINED: " + reason
                + ". The variants run on all " + Runtime.getRuntime().availableProcessors() + " CPUs, not "
                + plan.knobs().cpuQuota() + "; results are not comparable to a 0.5-CPU container."));
        List<Jvm> all = Stream.concat(schedule.steps().stream().filter(s -> s instanceof Step.StartJvms)
                .flatMap(s -> ((Step.StartJvms) s).jvms().stream()), schedule.steps().stream()
                .filter(s -> s instanceof Step.TimeToPeak).map(s -> ((Step.TimeToPeak) s).jvm())).distinct().toList();
        List<String> modules = new ArrayList<>(List.of(DELAY_MODULE));
        plan.variants().stream().map(v -> v.module()).distinct().forEach(modules::add);
        engine.prepare(modules, all);

        K6 k6 = K6.locate(labHome.resolve(".tools"));
        loads = new Loads(k6, labHome, dir.resolve("k6"), engine.confinement());
        if (extending == null) { // an extension keeps the manifest it was checked against (Extending)
            describe(MachineFacts.collect(labHome, javaHome, k6.version(), DELAY_MODULE),
                    PlanFacts.of(plan, schedule, WindowRunner.openModelMaxUsers(plan)));
        }
        console.say("Confinement: " + engine.confinement().method() + ", variants at " + plan.knobs().cpuQuota()
                + " CPU; " + k6.version() + "; " + schedule.steps().size() + " steps, " + all.size() + " JVMs");

        if (plan.placement() != LoadPlacement.SHARED) {
            cpuSets = CpuSets.forThisMachine("threadlab-" + dir.getFileName()).orElseThrow(() ->
                    new IllegalStateException("no cgroup v1 cpuset here for --load-cpus " + plan.placement()));
            loads.onStart(cpuSets::joinLoad);
        }
        delayService = startDelayService();
        if (cpuSets != null) {
            cpuSets.joinLoad(delayService.pid());
        }
        DelayControl delay = new DelayControl(delayService, plan.delays().getFirst());
        windows = new WindowRunner(loads, engine.recorder(), engine.confinement(), delayService, delay, results,
                manifest, console, dir, plan, cpuSets);
        jvms = new Jvms(plan, engine, java, loads, new WarmUp(loads, engine.confinement(), console,
                () -> DelayHeadroom.read(delayService.get("/q/metrics")).count(), cpuSets), results, manifest, console,
                dir, cpuSets);
    }

    private void describe(RunManifest.Lab lab, PlanFacts facts) {
        manifest.describe(lab,
                new RunManifest.Confinement(engine.name(), engine.confinement().method(),
                        engine.confinement().limits(), plan.knobs().cpuQuota(), plan.warmUp().boostCpus(),
                        plan.knobs().confineDelayService() ? String.valueOf(plan.knobs().cpuQuota()) : "none",
                        "cgroup CPU usage of each window <= quota + 5 %, availableProcessors and the rest of"
                                + " /lab/runtime reported by each JVM before and after its warm-up's boost",
                        plan.placement().name().toLowerCase(), "the rest"),
                plan.knobs().jvmFlags(), LabSettings.read(), plan.knobs().serviceSettings(JavaCommand.delayUrl()),
                new RunManifest.JfrSettings(labHome.relativize(jfrSettings.toAbsolutePath().normalize()).toString(),
                        "jfr/compiler.jfc (compiler events only, from each JVM's start to its end)"), facts);
    }

    private ServiceProcess startDelayService() {
        OptionalDouble quota = plan.knobs().confineDelayService()
                ? OptionalDouble.of(plan.knobs().cpuQuota()) : OptionalDouble.empty();
        console.say("Starting the delay service" + (quota.isPresent() ? " (confined)" : " (unconfined, measured)"));
        ServiceProcess service = engine.start(DELAY_MODULE, DELAY_PORT, "delay", quota,
                java.delayService(plan.knobs(), plan.delays().getFirst()), dir.resolve("logs/delay-service.log"));
        service.awaitReady(READY_TIMEOUT);
        return service;
    }

    private void warn(String warning) {
        console.warn(warning);
        manifest.warn(warning);
    }

    /** Stops every child, removes every cgroup, and records how the run ended; once, whichever path gets here. */
    private synchronized void cleanUp(String status, String failure) {
        if (manifest == null || manifest.isFinished()) {
            return;
        }
        if ("completed".equals(status) && jvms != null) {
            jvms.stopAll();
            if (loads.abandoned() > 0) {
                manifest.warn(loads.abandoned() + " requests were still in flight when a load's drain gave up");
            }
        }
        if (engine != null) {
            engine.cleanUp();
        }
        if (cpuSets != null) {
            cpuSets.removeAll(); // after the processes in them are gone
        }
        manifest.finish(status, failure);
        if (!"completed".equals(status)) {
            System.err.println("Run " + status + (failure == null ? "" : ": " + failure) + ". Processes stopped, cgroups"
                    + " removed; what was measured is kept in " + dir);
        }
    }

    private static double tenths(long nanos) {
        return Math.round(nanos / 1e8) / 10.0;
    }
}
