package io.threadlab.experiment;

import io.threadlab.experiment.collect.Manifest;
import io.threadlab.experiment.collect.ResultsDirectory;
import io.threadlab.experiment.collect.ResultsWriter;
import io.threadlab.experiment.confine.Confinement;
import io.threadlab.experiment.confine.ConfinementDetector;
import io.threadlab.experiment.load.K6;
import io.threadlab.experiment.load.Loads;
import io.threadlab.experiment.load.WarmUp;
import io.threadlab.experiment.load.WindowRunner;
import io.threadlab.experiment.plan.Eta;
import io.threadlab.experiment.plan.ExperimentPlan;
import io.threadlab.experiment.plan.Jvm;
import io.threadlab.experiment.plan.Schedule;
import io.threadlab.experiment.plan.Step;
import io.threadlab.experiment.record.DelayHeadroom;
import io.threadlab.experiment.record.Recorder;
import io.threadlab.experiment.start.ComposeEngine;
import io.threadlab.experiment.start.Engine;
import io.threadlab.experiment.start.LocalEngine;
import io.threadlab.experiment.start.PortCheck;
import io.threadlab.experiment.start.Processes;
import io.threadlab.experiment.start.RunningJvm;
import io.threadlab.experiment.start.ServiceJars;
import io.threadlab.experiment.start.ServiceProcess;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The whole experiment: confine, start, warm up, then the schedule's windows, collected into a new results
 * directory. The plan is a schedule of steps (see {@link ExperimentPlan}); this class carries them out. Any way out
 * (done, error, Ctrl-C) stops every child process and removes every cgroup, keeping what was measured.
 */
final class Experiment {

    static final int DELAY_PORT = 8090;
    private static final String DELAY_MODULE = "delay-service";
    private static final String COMPILER_RECORDING = "compiler";
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(180);

    private final ExperimentPlan plan;
    private final Path labHome;
    private final Path outputRoot;
    private final Path javaHome;
    private final String engineName;
    private final Path jfrSettings;
    private final Console console = new Console();
    private final Map<Jvm, RunningJvm> jvms = new LinkedHashMap<>();

    private Path dir;
    private Path repositories;
    private Manifest manifest;
    private ResultsWriter results;
    private Engine engine;
    private Confinement confinement;
    private Recorder recorder;
    private Loads loads;
    private ServiceProcess delayService;
    private WindowRunner windows;
    private WarmUp warmUps;
    private volatile boolean interrupted;

    /**
     * @param engineName  "local" (JVMs in cgroups) or "compose" (containers)
     * @param jfrSettings the recorded twins' JFR settings
     */
    Experiment(ExperimentPlan plan, Path labHome, Path outputRoot, Path javaHome, String engineName,
               Path jfrSettings) {
        this.plan = plan;
        this.labHome = labHome;
        this.outputRoot = outputRoot;
        this.javaHome = javaHome;
        this.engineName = engineName;
        this.jfrSettings = jfrSettings;
    }

    /** Runs the plan; returns the results directory. Throws after cleaning up if the run failed. */
    Path run() {
        Schedule schedule = plan.schedule();
        requirePortsFree(schedule);
        dir = ResultsDirectory.create(outputRoot, Instant.now());
        manifest = new Manifest(dir);
        results = new ResultsWriter(dir);
        console.say("Results go to " + dir);

        Thread cleanup = new Thread(() -> {
            interrupted = true;
            cleanUp("interrupted", "stopped by a signal (Ctrl-C or SIGTERM)");
        });
        Runtime.getRuntime().addShutdownHook(cleanup);
        try {
            prepare(schedule);
            Eta eta = new Eta(schedule);
            console.follow(eta);
            delayService = startDelayService();
            windows = new WindowRunner(loads, recorder, confinement, delayService, results, manifest, console, dir,
                    plan.knobs().cpuQuota(), openModelMaxUsers(), plan.topLevel(), plan.settleMaxSeconds());
            warmUps = new WarmUp(loads, confinement, console,
                    () -> DelayHeadroom.read(delayService.get("/q/metrics")).count(), plan.knobs().cpuQuota());
            List<Map<String, Object>> asRun = new ArrayList<>();
            long runStart = System.nanoTime();
            for (int i = 0; i < schedule.steps().size(); i++) {
                long stepStart = System.nanoTime();
                eta.begin(i, stepStart);
                Step step = schedule.steps().get(i);
                if (!(step instanceof Step.Measure)) { // a window announces itself with its result
                    console.say(step.describe());
                }
                perform(step);
                asRun.add(Map.of("kind", step.kind(), "what", step.describe(), "started_at_seconds",
                        Math.round((stepStart - runStart) / 1e8) / 10.0, "seconds",
                        Math.round((System.nanoTime() - stepStart) / 1e8) / 10.0));
                manifest.put("schedule_as_run", asRun);
            }
            eta.begin(schedule.steps().size(), System.nanoTime());
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

    private void perform(Step step) {
        switch (step) {
            case Step.StartJvms start -> startJvms(start.jvms());
            case Step.WarmUp warm -> warmUp(warm);
            case Step.Measure measure -> windows.measure(jvms.get(measure.window().jvm()), measure.window());
            case Step.StopJvms stop -> stop.jvms().forEach(this::stopJvm);
            case Step.TimeToPeak peak -> timeToPeak(peak);
        }
    }

    /** Every port the schedule will listen on, checked before anything is made. */
    private void requirePortsFree(Schedule schedule) {
        Set<Jvm> all = new LinkedHashSet<>();
        for (Step step : schedule.steps()) {
            switch (step) {
                case Step.StartJvms start -> all.addAll(start.jvms());
                case Step.TimeToPeak peak -> all.add(peak.jvm());
                default -> {
                }
            }
        }
        if (engineName.equals("local")) {
            all.forEach(jvm -> PortCheck.requireFree(jvm.port(), jvm.variant().module()));
        }
        PortCheck.requireFree(DELAY_PORT, DELAY_MODULE);
    }

    private void prepare(Schedule schedule) {
        engine = engineName.equals("compose") ? new ComposeEngine(labHome, plan.knobs())
                : new LocalEngine(ConfinementDetector.forThisMachine("threadlab-" + dir.getFileName()).detect(),
                javaHome, jfrSettings);
        confinement = engine.confinement();
        recorder = engine.recorder();
        ConfinementDetector.unconfinedReason(confinement).ifPresent(reason -> warn("NOT CONFINED: " + reason
                + ". The variants run on all " + Runtime.getRuntime().availableProcessors() + " CPUs, not "
                + plan.knobs().cpuQuota() + "; results are not comparable to a 0.5-CPU container."));

        List<String> modules = new ArrayList<>(List.of(DELAY_MODULE));
        plan.variants().stream().map(v -> v.module()).distinct().forEach(modules::add);
        ServiceJars jars = new ServiceJars(labHome);
        List<String> stale = engine instanceof ComposeEngine ? List.of() : jars.stale(modules); // compose builds images
        if (!stale.isEmpty()) {
            console.say("Building " + stale + " (missing or older than their sources)...");
            jars.build(stale);
        }
        K6 k6 = K6.locate(labHome.resolve(".tools"));
        loads = new Loads(k6, labHome, dir.resolve("k6"), confinement);
        try {
            repositories = Files.createTempDirectory("threadlab-jfr-repositories-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }

        manifest.put("lab", MachineFacts.collect(labHome, javaHome, k6.version(), DELAY_MODULE));
        manifest.put("confinement", Map.of(
                "engine", engine.name(),
                "method", confinement.method(),
                "limits_cpu", confinement.limits(),
                "variant_cpu_quota", plan.knobs().cpuQuota(),
                "warm_up_cpu_quota", plan.warmUp().boostCpus(),
                "delay_service_cpu_quota", plan.knobs().confineDelayService() ? plan.knobs().cpuQuota() : "none",
                "verified_by", "cgroup CPU usage of each window <= quota + 5 %, availableProcessors and the rest of"
                        + " /lab/runtime reported by each JVM before and after its warm-up's boost"));
        manifest.put("jvm_flags", plan.knobs().jvmFlags());
        manifest.put("settings_file", LabSettings.read());
        manifest.put("knobs", plan.knobs().serviceSettings(delayUrl()));
        manifest.put("jfr_settings", Map.of("recorded_windows", labHome.relativize(jfrSettings.toAbsolutePath()
                .normalize()).toString(), "every_jvm", "jfr/compiler.jfc (compiler events only, from each JVM's start"
                + " to its end)"));
        manifest.put("plan", planFacts(schedule));
        console.say("Confinement: " + confinement.method() + ", variants at " + plan.knobs().cpuQuota() + " CPU; "
                + k6.version() + "; " + schedule.steps().size() + " steps, " + plan.jvms().size() + " JVMs");
    }

    private Map<String, Object> planFacts(Schedule schedule) {
        Map<String, Object> facts = new LinkedHashMap<>();
        facts.put("variants", plan.variants().stream().map(v -> v.label()).toList());
        facts.put("closed_model_vus", plan.levels());
        facts.put("window_seconds", plan.windowSeconds());
        facts.put("settle_seconds", plan.settleSeconds());
        facts.put("settle_max_seconds", plan.settleMaxSeconds());
        facts.put("jvm_starts", plan.jvmStarts());
        facts.put("repetitions_per_jvm", plan.repetitionsPerJvm());
        facts.put("repetitions", plan.repetitions());
        facts.put("warm_up", plan.warmUp());
        facts.put("open_model_rates", plan.openRates());
        facts.put("open_model_step_seconds", plan.openStepSeconds());
        facts.put("open_model_max_vus", openModelMaxUsers());
        facts.put("jfr_windows", plan.jfrWindows());
        facts.put("time_to_peak", plan.timeToPeak());
        Map<String, String> mistakes = new LinkedHashMap<>();
        plan.variants().stream().filter(v -> v.role() == io.threadlab.experiment.plan.Variant.Role.MISTAKE)
                .forEach(v -> mistakes.put(v.label(), v.spoils()));
        facts.put("mistakes", mistakes);
        // A variant's own settings (the mistake's pool of 50, native access) beside the knobs every variant shares
        Map<String, Object> overrides = new LinkedHashMap<>();
        plan.variants().stream().filter(v -> !v.properties().isEmpty() || !v.jvmOptions().isEmpty())
                .forEach(v -> overrides.put(v.label(), Map.of("properties", v.properties(),
                        "jvm_options", v.jvmOptions())));
        facts.put("variant_overrides", overrides);
        Map<String, String> roles = new LinkedHashMap<>();
        plan.variants().forEach(v -> roles.put(v.label(), v.role().name()));
        facts.put("roles", roles);
        facts.put("jvms", plan.sideBySide()
                ? "every JVM started and warmed up before the first window; repetitions rotate the variant order and"
                + " alternate between JVM starts"
                : "JVM starts in rounds (one container per service at a time); repetitions rotate the variant order");
        facts.put("schedule", schedule.describe());
        return facts;
    }

    private String delayUrl() {
        return "http://127.0.0.1:" + DELAY_PORT;
    }

    private ServiceProcess startDelayService() {
        OptionalDouble quota = plan.knobs().confineDelayService()
                ? OptionalDouble.of(plan.knobs().cpuQuota()) : OptionalDouble.empty();
        console.say("Starting the delay service" + (quota.isPresent() ? " (confined)" : " (unconfined, measured)"));
        List<String> java = new ArrayList<>(List.of(javaHome.resolve("bin/java").toString()));
        java.addAll(plan.knobs().jvmFlags());
        java.addAll(List.of("-jar", new ServiceJars(labHome).jar(DELAY_MODULE).toString()));
        ServiceProcess service = engine.start(DELAY_MODULE, DELAY_PORT, "delay", quota, java,
                dir.resolve("logs/delay-service.log"));
        service.awaitReady(READY_TIMEOUT);
        return service;
    }

    /**
     * A JVM's command: the knobs every variant gets, the variant's own settings, its port, and the compiler recording
     * that its warm-up follows live (written to a repository of its own, outside the results).
     */
    private List<String> javaCommand(Jvm jvm, Path repository) {
        List<String> command = new ArrayList<>(List.of(javaHome.resolve("bin/java").toString()));
        command.addAll(plan.knobs().jvmFlags());
        command.addAll(jvm.variant().jvmOptions());
        command.add("-XX:StartFlightRecording=name=" + COMPILER_RECORDING + ",settings="
                + labHome.resolve("jfr/compiler.jfc"));
        command.add("-XX:FlightRecorderOptions=repository=" + repository);
        command.addAll(plan.knobs().variantProperties(delayUrl()));
        jvm.variant().properties().forEach((k, v) -> command.add("-D" + k + "=" + v));
        command.add("-Dquarkus.http.port=" + jvm.port());
        command.addAll(List.of("-jar", new ServiceJars(labHome).jar(jvm.variant().module()).toString()));
        return command;
    }

    /** Each JVM in its own CPU group from its first instruction; started side by side, then awaited. */
    private void startJvms(List<Jvm> toStart) {
        for (Jvm jvm : toStart) {
            startJvm(jvm);
        }
        for (Jvm jvm : toStart) {
            jvms.get(jvm).service().awaitReady(READY_TIMEOUT);
        }
    }

    private RunningJvm startJvm(Jvm jvm) {
        Path repository = repositories.resolve(jvm.id());
        try {
            Files.createDirectories(repository);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        long started = System.nanoTime();
        ServiceProcess service = engine.start(jvm.variant().module(), jvm.port(), jvm.id(),
                OptionalDouble.of(plan.knobs().cpuQuota()), javaCommand(jvm, repository),
                dir.resolve("logs/" + jvm.id() + ".log"));
        RunningJvm running = new RunningJvm(jvm, service, jvm.id(),
                engine instanceof LocalEngine ? repository : null, started);
        jvms.put(jvm, running);
        if (engine instanceof ComposeEngine compose) {
            // what each container really got (image, user, cgroup, quota read back), beside the quota asked for
            manifest.put("containers", compose.facts());
        }
        return running;
    }

    private void warmUp(Step.WarmUp step) {
        RunningJvm jvm = jvms.get(step.jvm());
        WarmUp.Outcome outcome = warmUps.run(jvm, step.levels(), step.policy(), jvm.jvm().id() + "-warmup");
        results.warmUp(outcome);
        checkRuntime(outcome);
        console.say(String.format(Locale.ROOT, "%s warm-up %s after %.0f s (boost %.0f s; %s)", jvm.jvm(),
                outcome.finished() ? "finished" : "NOT FINISHED", outcome.seconds(), outcome.boostSeconds(),
                String.join(", ", outcome.levels().stream().map(l -> l.users() + " users " + (l.finished()
                        ? String.format(Locale.ROOT, "quiet in %.0f s", l.seconds()) : "not quiet: " + l.reason()))
                        .toList())));
        if (!outcome.finished()) {
            warn(jvm.jvm() + ": the compiler had not finished when its warm-up gave up ("
                    + outcome.levels().stream().filter(l -> !l.finished()).map(l -> l.users() + " users: " + l.reason())
                    .toList() + "); its windows measure the JIT too, and no ratio involving it is a finding");
        }
    }

    /** The JVM must have sized itself to the quota, and kept that through the boost. */
    private void checkRuntime(WarmUp.Outcome outcome) {
        int expected = (int) Math.ceil(plan.knobs().cpuQuota());
        Object seen = outcome.runtimeBefore().get("availableProcessors");
        if (confinement.limits() && !Integer.valueOf(expected).equals(seen)) {
            warn(outcome.jvm() + " sees availableProcessors=" + seen + ", not " + expected + ": the JVM did not start"
                    + " inside its CPU group, so it sized itself to the whole machine.");
        }
        if (!outcome.ergonomicsChanged().isEmpty()) {
            warn(outcome.jvm() + " reported other sizes after its warm-up's boost than before: "
                    + outcome.ergonomicsChanged());
        }
    }

    private void timeToPeak(Step.TimeToPeak step) {
        RunningJvm jvm = startJvm(step.jvm());
        jvm.service().awaitReady(READY_TIMEOUT);
        WarmUp.Outcome outcome = warmUps.run(jvm, List.of(step.users()), step.policy(),
                jvm.jvm().id() + "-time-to-peak");
        results.timeToPeak(outcome);
        console.say(String.format(Locale.ROOT, "%s reached its peak at the quota %s", jvm.jvm().variant(),
                outcome.secondsToPeak() == null ? "NOT within " + step.policy().levelMaxSeconds() + " s"
                        : String.format(Locale.ROOT, "%.0f s after its JVM started", outcome.secondsToPeak())));
        stopJvm(step.jvm());
    }

    /** Keeps the JVM's compiler recording (its whole life: warm-up, settles, windows), then stops the JVM. */
    private void stopJvm(Jvm jvm) {
        RunningJvm running = jvms.remove(jvm);
        if (running == null) {
            return;
        }
        try {
            recorder.dumpStartupRecording(running.service(), COMPILER_RECORDING,
                    dir.resolve("jfr/compiler/" + jvm.id() + ".jfr"));
        } catch (RuntimeException e) {
            manifest.warn("could not keep the compiler recording of " + jvm + ": " + e.getMessage());
        }
        running.close();
    }

    /** Users k6 may hold at once in the open model: enough that only a saturated service makes it drop iterations. */
    private int openModelMaxUsers() {
        return Math.max(1000, plan.topLevel());
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
        if ("completed".equals(status)) {
            List.copyOf(jvms.keySet()).forEach(this::stopJvm);
        }
        Processes.stopAll();
        if (engine != null) {
            engine.cleanUp();
        }
        deleteRepositories();
        manifest.finish(status, failure);
        if (!"completed".equals(status)) {
            System.err.println("Run " + status + (failure == null ? "" : ": " + failure) + ". Processes stopped, cgroups"
                    + " removed; what was measured is kept in " + dir);
        }
    }

    private void deleteRepositories() {
        if (repositories == null) {
            return;
        }
        try (Stream<Path> files = Files.walk(repositories)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            System.err.println("WARNING: could not remove " + repositories + ": " + e.getMessage());
        }
    }
}
