package io.threadlab.experiment;

import io.threadlab.experiment.collect.Manifest;
import io.threadlab.experiment.collect.ResultsWriter;
import io.threadlab.experiment.collect.WarmUpResult;
import io.threadlab.experiment.confine.CpuSets;
import io.threadlab.experiment.load.Loads;
import io.threadlab.experiment.load.WaitControl;
import io.threadlab.experiment.load.WarmUp;
import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.ExperimentPlan;
import io.threadlab.experiment.plan.Jvm;
import io.threadlab.experiment.plan.Step;
import io.threadlab.experiment.process.ServiceProcess;
import io.threadlab.experiment.progress.Console;
import io.threadlab.experiment.start.Engine;
import io.threadlab.experiment.start.JavaCommand;
import io.threadlab.experiment.start.RunningJvm;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * The run's JVMs, from start to stop: each started in its own CPU group from its first instruction, warmed up until
 * its compiler has finished (with what it sized itself to checked before and after the boost), followed from its
 * start for a time to peak, and stopped once its load has drained, its compiler recording kept.
 */
final class Jvms {

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(180);
    /**
     * How long a JVM whose warm-up was lost is recorded under its load: an event loop that joins its calls waits out
     * the client's timeouts (6 s in the lab) each time, and the analysis names a blocking join from three such waits.
     */
    static final Duration LOST_WARM_UP_RECORDING = Duration.ofSeconds(20);

    private final ExperimentPlan plan;
    private final Engine engine;
    private final JavaCommand java;
    private final Loads loads;
    private final WarmUp warmUps;
    private final ResultsWriter results;
    private final Manifest manifest;
    private final Console console;
    private final Path dir;
    private final CpuSets cpuSets;
    private final WaitControl waits;
    private final Map<Jvm, RunningJvm> running = new LinkedHashMap<>();

    Jvms(ExperimentPlan plan, Engine engine, JavaCommand java, Loads loads, WarmUp warmUps, ResultsWriter results,
         Manifest manifest, Console console, Path dir, CpuSets cpuSets, WaitControl waits) {
        this.waits = waits;
        this.plan = plan;
        this.engine = engine;
        this.java = java;
        this.loads = loads;
        this.warmUps = warmUps;
        this.results = results;
        this.manifest = manifest;
        this.console = console;
        this.dir = dir;
        this.cpuSets = cpuSets;
    }

    RunningJvm get(Jvm jvm) {
        return running.get(jvm);
    }

    void stopAll() {
        List.copyOf(running.keySet()).forEach(this::stop);
    }

    /** Each JVM in its own CPU group from its first instruction; started side by side, then awaited. */
    void start(List<Jvm> toStart) {
        toStart.forEach(this::startOne);
        toStart.forEach(jvm -> running.get(jvm).service().awaitReady(READY_TIMEOUT));
    }

    private RunningJvm startOne(Jvm jvm) {
        long started = System.nanoTime();
        Path repository = engine.compilerRepository(jvm);
        ServiceProcess service = engine.start(jvm.variant().module(), jvm.port(), jvm.id(),
                OptionalDouble.of(plan.knobsOf(jvm).cpuQuota()), java.variant(jvm, plan.knobsOf(jvm), repository),
                dir.resolve("logs/" + jvm.id() + ".log"));
        RunningJvm started1 = new RunningJvm(jvm, service, jvm.id(), repository, started);
        running.put(jvm, started1);
        if (cpuSets != null) {
            cpuSets.joinServices(service.pid());
        }
        if (!engine.facts().isEmpty()) {
            manifest.containers(engine.facts());
        }
        return started1;
    }

    void warmUp(Step.WarmUp step) {
        RunningJvm jvm = running.get(step.jvm());
        if (step.at().has(Axis.DELAY_MS)) {
            waits.set(step.downstream(), step.at().get(Axis.DELAY_MS));
        }
        WarmUpResult outcome = warmUps.run(jvm, step.levels(), step.path(), step.delayCallsPerRequest(),
                step.policy(), jvm.jvm().id() + "-warmup", plan.knobsOf(step.jvm()).cpuQuota());
        results.warmUp(outcome);
        checkRuntime(outcome, plan.knobsOf(step.jvm()).cpuQuota());
        console.say(String.format(Locale.ROOT, "%s warm-up %s after %.0f s (boost %.0f s; %s)", jvm.jvm(),
                outcome.finished() ? "finished" : "NOT FINISHED", outcome.seconds(), outcome.boostSeconds(),
                String.join(", ", outcome.levels().stream().map(l -> l.users() + " users " + (l.finished()
                        ? String.format(Locale.ROOT, "quiet in %.0f s", l.seconds()) : "not quiet: " + l.reason()))
                        .toList())));
        List<String> unfinished = outcome.levels().stream().filter(l -> !l.finished())
                .map(l -> l.users() + " users: " + l.reason()).toList();
        if (!unfinished.isEmpty()) {
            warn(jvm.jvm() + ": the compiler had not finished when its warm-up gave up (" + unfinished
                    + "); its windows measure the JIT too, and no ratio involving it is a finding");
        }
    }

    /**
     * Records a JVM whose warm-up was lost (it stopped answering the runner, or hung), under the load it still has:
     * its points will not be measured, and this recording, jfr/{jvm}-lost-warm-up.jfr, is what can still say why (the
     * thread analysis and JMC's rules read it with the windows'). Where it cannot be taken, a warning says so; the
     * run goes on either way.
     */
    void recordLostWarmUp(Jvm jvm) {
        RunningJvm lost = running.get(jvm);
        if (lost == null) {
            return;
        }
        Path file = dir.resolve("jfr/" + jvm.id() + "-lost-warm-up.jfr");
        try {
            Files.createDirectories(file.getParent());
            engine.recorder().start(lost.service(), file);
            try {
                Thread.sleep(LOST_WARM_UP_RECORDING.toMillis());
            } finally {
                engine.recorder().stop(lost.service(), file);
            }
            console.say(jvm + ": recorded for " + LOST_WARM_UP_RECORDING.toSeconds() + " s under its load after its"
                    + " warm-up was lost: " + dir.relativize(file));
        } catch (IOException | RuntimeException e) {
            warn("could not record " + jvm + " after its warm-up was lost: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            warn("the recording of " + jvm + " after its warm-up was lost was cut short: " + file);
        }
    }

    /** The JVM must have sized itself to the quota, and kept that through the boost. */
    private void checkRuntime(WarmUpResult outcome, double quota) {
        int expected = (int) Math.ceil(quota);
        Object seen = outcome.before("availableProcessors");
        if (engine.confinement().limits() && !Integer.valueOf(expected).equals(seen)) {
            warn(outcome.jvm() + " sees availableProcessors=" + seen + ", not " + expected + ": the JVM did not start"
                    + " inside its CPU group, so it sized itself to the whole machine.");
        }
        if (!outcome.ergonomicsChanged().isEmpty()) {
            warn(outcome.jvm() + " reported other sizes after its warm-up's boost than before: "
                    + outcome.ergonomicsChanged() + "; a boost is fair only where the JVM kept what it chose at the"
                    + " quota, so its warm-up is not finished, and no ratio involving it is a finding");
        }
    }

    void timeToPeak(Step.TimeToPeak step) {
        RunningJvm jvm = startOne(step.jvm());
        jvm.service().awaitReady(READY_TIMEOUT);
        WarmUpResult outcome = warmUps.run(jvm, List.of(step.users()), step.jvm().variant().path(), 1, step.policy(),
                jvm.jvm().id() + "-time-to-peak", plan.knobs().cpuQuota());
        results.timeToPeak(outcome);
        console.say(String.format(Locale.ROOT, "%s reached its peak at the quota %s", jvm.jvm().variant(),
                outcome.secondsToPeak() == null ? "NOT within " + step.policy().levelMaxSeconds() + " s"
                        : String.format(Locale.ROOT, "%.0f s after its JVM started", outcome.secondsToPeak())));
        stop(step.jvm());
    }

    /** Stops a JVM at once, its load too: after a step that would not end. */
    void kill(Jvm jvm) {
        RunningJvm stopping = running.remove(jvm);
        if (stopping != null) {
            stopping.close();
        }
    }

    /** Keeps the JVM's compiler recording (its whole life: warm-up, settles, windows), then stops the JVM. */
    void stop(Jvm jvm) {
        RunningJvm stopping = running.remove(jvm);
        if (stopping == null) {
            return;
        }
        loads.endOn(stopping); // its load drains first: a JVM never stops under requests in flight
        try {
            engine.recorder().dumpStartupRecording(stopping.service(), JavaCommand.COMPILER_RECORDING,
                    dir.resolve("jfr/compiler/" + jvm.id() + ".jfr"));
        } catch (RuntimeException e) {
            manifest.warn("could not keep the compiler recording of " + jvm + ": " + e.getMessage());
        }
        stopping.close();
    }

    private void warn(String warning) {
        console.warn(warning);
        manifest.warn(warning);
    }
}
