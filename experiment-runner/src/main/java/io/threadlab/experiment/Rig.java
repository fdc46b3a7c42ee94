package io.threadlab.experiment;

import io.threadlab.experiment.collect.Manifest;
import io.threadlab.experiment.collect.PlanFacts;
import io.threadlab.experiment.collect.ResultsWriter;
import io.threadlab.experiment.collect.RunManifest;
import io.threadlab.experiment.confine.ConfinementDetector;
import io.threadlab.experiment.confine.CpuSets;
import io.threadlab.experiment.load.WaitControl;
import io.threadlab.experiment.load.ContainerK6;
import io.threadlab.experiment.load.K6;
import io.threadlab.experiment.load.K6Host;
import io.threadlab.experiment.load.LocalK6;
import io.threadlab.experiment.load.Loads;
import io.threadlab.experiment.load.RoundTrip;
import io.threadlab.experiment.load.WarmUp;
import io.threadlab.experiment.load.WindowRunner;
import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.ExperimentPlan;
import io.threadlab.experiment.plan.Jvm;
import io.threadlab.experiment.plan.LoadPlacement;
import io.threadlab.experiment.plan.Schedule;
import io.threadlab.experiment.plan.Step;
import io.threadlab.experiment.predict.Predictions;
import io.threadlab.experiment.process.InheritedOptions;
import io.threadlab.experiment.process.ServiceProcess;
import io.threadlab.experiment.progress.Console;
import io.threadlab.experiment.record.Yardstick;
import io.threadlab.experiment.start.ComposeEngine;
import io.threadlab.experiment.start.Engine;
import io.threadlab.experiment.start.EngineTarget;
import io.threadlab.experiment.start.JavaCommand;
import io.threadlab.experiment.start.LabDatabase;
import io.threadlab.experiment.start.LocalEngine;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.stream.Stream;

/**
 * What a run measures with, wired once: the engine and its confinement, k6, the delay service, the JVMs and the window
 * runner. It is built piece by piece, so that a failure halfway still tears down what was started.
 */
final class Rig implements StepLoop.Performer {

    static final String DELAY_MODULE = "delay-service";
    /** Every run's cgroups are named {@code threadlab-<run>-<process>}; a killed run's empty ones go at start. */
    private static final String GROUP_FAMILY = "threadlab-";
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(180);

    private final ExperimentPlan plan;
    private final Path labHome;
    private final Path javaHome;
    private final Path jfrSettings;
    private final JavaCommand java;
    private final Console console;
    private final Path dir;
    private final Manifest manifest;
    private final ResultsWriter results;

    private Engine engine;
    /** The engine whose container runs k6 ({@code --load-host}), or null for k6 on this machine. */
    private EngineTarget loadHost;
    private Loads loads;
    private ServiceProcess delayService;
    private LabDatabase database;
    /** The database's ready file lives here, outside the results; removed at the end. */
    private Path databaseWork;
    private WindowRunner windows;
    private Jvms jvms;
    private CpuSets cpuSets;
    /** The machine's own speed, timed from before the first JVM to the end of the run. */
    private Yardstick yardstick;
    /** JVMs whose warm-up passed its ceiling, or that stopped answering: their windows are marked lost. */
    private final Map<Jvm, String> lost = new HashMap<>();

    Rig(ExperimentPlan plan, Path labHome, Path javaHome, Path jfrSettings, Console console, Path dir,
        Manifest manifest, ResultsWriter results) {
        this.plan = plan;
        this.labHome = labHome;
        this.javaHome = javaHome;
        this.jfrSettings = jfrSettings;
        this.java = new JavaCommand(javaHome, labHome);
        this.console = console;
        this.dir = dir;
        this.manifest = manifest;
        this.results = results;
    }

    /**
     * Builds everything the schedule needs and starts the delay service.
     *
     * @param loadHost the engine whose container runs k6 ({@code --load-host}), or null for k6 on this machine
     * @param describe whether to write the machine and the plan into the manifest (an extension keeps the one it was
     *                 checked against)
     */
    void prepare(Schedule schedule, String engineName, EngineTarget target, EngineTarget loadHost, boolean describe) {
        this.loadHost = loadHost;
        engine = engineName.equals("compose") ? new ComposeEngine(labHome, plan.knobs(), plan.delays().getFirst(),
                plan.database(), target)
                : new LocalEngine(ConfinementDetector.forThisMachine(GROUP_FAMILY + dir.getFileName()).detect(),
                javaHome, jfrSettings, labHome, console::say);
        List<String> abandoned = engine.confinement().removeAbandoned(GROUP_FAMILY);
        if (!abandoned.isEmpty()) {
            console.say("Removed " + abandoned.size() + " empty cgroups an earlier, killed run left: " + abandoned);
        }
        List<String> inherited = InheritedOptions.found(System.getenv());
        if (!inherited.isEmpty()) {
            warn(InheritedOptions.warning(inherited));
        }
        ConfinementDetector.unconfinedReason(engine.confinement()).ifPresent(reason -> warn("NOT CONFINED: " + reason
                + ". The variants run on all " + Runtime.getRuntime().availableProcessors() + " CPUs, not "
                + plan.knobs().cpuQuota() + "; results are not comparable to a 0.5-CPU container."));
        List<Jvm> all = Stream.concat(schedule.steps().stream().filter(s -> s instanceof Step.StartJvms)
                .flatMap(s -> ((Step.StartJvms) s).jvms().stream()), schedule.steps().stream()
                .filter(s -> s instanceof Step.TimeToPeak).map(s -> ((Step.TimeToPeak) s).jvm())).distinct().toList();
        List<String> modules = new ArrayList<>(List.of(DELAY_MODULE));
        plan.variants().stream().map(v -> v.module()).distinct().forEach(modules::add);
        if (plan.usesDatabase()) {
            modules.add(LabDatabase.MODULE);
        }
        // k6 first: a machine that cannot get it learns so before a minute of builds, not after
        K6 local = loadHost == null ? K6.locate(labHome.resolve(".tools")) : null;
        engine.prepare(modules, all);
        MachineFacts.requireOnePlatform(labHome, modules);

        Map<String, String> runtime = plan.knobs().k6Environment();
        K6Host k6 = loadHost == null ? new LocalK6(local, labHome, engine.confinement(), runtime)
                : ContainerK6.prepare(loadHost, labHome, dir.getFileName().toString(), runtime);
        loads = new Loads(k6, dir.resolve("k6"));
        if (describe) {
            describe(MachineFacts.collect(labHome, javaHome, k6.version(), DELAY_MODULE),
                    PlanFacts.of(plan, schedule, WindowRunner.openModelMaxUsers(plan)));
        }
        console.say("Confinement: " + engine.confinement().method() + ", variants at " + plan.knobs().cpuQuota()
                + " CPU; " + k6.version() + (loadHost == null ? "" : " in a container on " + loadHost.describe())
                + "; " + schedule.steps().size() + " steps, " + all.size() + " JVMs");

        if (plan.placement() != LoadPlacement.SHARED) {
            cpuSets = CpuSets.forThisMachine(GROUP_FAMILY + dir.getFileName()).orElseThrow(() ->
                    new IllegalStateException("no cgroup v1 cpuset here for --load-cpus " + plan.placement()));
            loads.onStart(cpuSets::joinLoad);
        }
        yardstick = Yardstick.start();
        delayService = startDelayService();
        if (cpuSets != null) {
            cpuSets.joinLoad(delayService.pid());
        }
        boolean loadAlone = !recordPlacement();
        WaitControl waits = new WaitControl(delayService, plan.delays().getFirst());
        if (plan.usesDatabase()) {
            database = startDatabase();
            waits.database(database::setWait);
        }
        // k6 on the services' cores is a ceiling the predictions name; elsewhere, or on a CPU of its own, it is not
        double sharedCores = loadAlone || plan.placement() != LoadPlacement.SHARED ? Double.NaN
                : Runtime.getRuntime().availableProcessors();
        windows = new WindowRunner(loads, engine.recorder(), engine.confinement(), delayService, waits, results,
                manifest, console, dir, plan, cpuSets, Predictions.from(results.windows(), sharedCores), database,
                loadAlone, yardstick);
        jvms = new Jvms(plan, engine, java, loads, new WarmUp(loads, engine.confinement(), console, cpuSets,
                delayService, engine.recorder()), results, manifest, console, dir, cpuSets, waits);
    }

    @Override
    public void perform(Step step) {
        switch (step) {
            case Step.StartJvms start -> jvms.start(start.jvms());
            case Step.WarmUp warm -> {
                if (!lost.containsKey(warm.jvm())) {
                    jvms.warmUp(warm);
                }
            }
            case Step.Measure measure -> {
                Jvm jvm = measure.window().jvm();
                if (lost.containsKey(jvm)) {
                    pointLost(measure, jvm + " " + lost.get(jvm));
                } else {
                    windows.measure(jvms.get(jvm), measure.window());
                }
            }
            case Step.StopJvms stop -> stop.jvms().forEach(jvms::stop);
            case Step.TimeToPeak peak -> jvms.timeToPeak(peak);
        }
    }

    /**
     * After a step passed its ceiling, or its service stopped answering: a lost warm-up's JVM is recorded under its
     * load, its load is ended (k6 stopped, whatever is in flight), and what it was to measure is marked lost. JVMs
     * that did not start within theirs end the run; a JVM whose warm-up hung is not measured, nor one that no longer
     * answers its health check after a lost window (its later windows would each wait out their reads); a JVM that
     * would not stop is killed.
     */
    @Override
    public void timedOut(Step step, String why) {
        if (step instanceof Step.WarmUp warm) {
            jvms.recordLostWarmUp(warm.jvm()); // under its load: what it was doing is why it was lost
        }
        loads.abort();
        switch (step) {
            case Step.StartJvms start -> throw new IllegalStateException("the JVMs did not start: " + why);
            case Step.WarmUp warm -> lost.put(warm.jvm(), "did not finish its warm-up (" + why + ")");
            case Step.Measure measure -> {
                pointLost(measure, why);
                Jvm jvm = measure.window().jvm();
                if (jvms.get(jvm).service().tryGet("/q/health/live", Duration.ofSeconds(10)).isEmpty()) {
                    lost.put(jvm, "stopped answering after " + measure.window().id() + " (" + why + ")");
                }
            }
            case Step.StopJvms stop -> stop.jvms().forEach(jvms::kill);
            case Step.TimeToPeak peak -> jvms.kill(peak.jvm());
        }
    }

    private void pointLost(Step.Measure measure, String why) {
        warn(RunManifest.POINT_LOST + measure.window().id() + ": " + why);
    }

    /**
     * Stops every child and removes every cgroup. After a completed run the JVMs stop one by one, each load drained
     * and each compiler recording kept; otherwise the engine stops them all at once.
     */
    void tearDown(boolean completed) {
        if (!completed && loads != null) {
            loads.abort(); // k6 first: its users would otherwise meet the JVMs stopping, thousands of errors in its log
        }
        if (completed && jvms != null) {
            jvms.stopAll();
            if (loads.abandoned() > 0) {
                manifest.warn(loads.abandoned() + " requests were still in flight when a load's drain gave up");
            }
        }
        if (database != null) {
            database.close(); // before the engine removes its group, which must be empty by then
        }
        if (databaseWork != null) {
            try (Stream<Path> files = Files.walk(databaseWork)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            } catch (IOException e) {
                console.warn("could not remove " + databaseWork + ": " + e.getMessage());
            }
        }
        if (loads != null) {
            loads.host().removeAll();
        }
        if (engine != null) {
            engine.cleanUp();
        }
        if (cpuSets != null) {
            cpuSets.removeAll(); // after the processes in them are gone
        }
        if (yardstick != null) {
            yardstick.close();
        }
    }

    private void describe(RunManifest.Lab lab, PlanFacts facts) {
        manifest.describe(lab,
                new RunManifest.Confinement(engine.name(), engine.confinement().method(),
                        engine.confinement().limits(), plan.knobs().cpuQuota(), plan.warmUp().boostCpus(),
                        plan.knobs().confineDelayService() ? String.valueOf(plan.knobs().cpuQuota()) : "none",
                        "cgroup CPU usage of each window <= quota + 5 %, availableProcessors and the rest of"
                                + " /lab/runtime reported by each JVM before and after its warm-up's boost",
                        plan.placement().name().toLowerCase(), "the rest", quotas(plan)),
                plan.knobs().jvmFlags(), LabSettings.read(), plan.knobs().serviceSettings(JavaCommand.delayUrl(), LabDatabase.url()),
                new RunManifest.JfrSettings(labHome.relativize(jfrSettings.toAbsolutePath().normalize()).toString(),
                        "jfr/compiler.jfc (compiler events only, from each JVM's start to its end)"), facts);
    }

    /** Every quota a JVM of the plan runs at: the run's own, then any other a setup gives (a map's several --cpus). */
    static List<Double> quotas(ExperimentPlan plan) {
        return Stream.concat(Stream.of(plan.knobs().cpuQuota()), plan.setups().stream()
                .filter(s -> s.has(Axis.CPUS)).map(s -> s.get(Axis.CPUS))).distinct().toList();
    }

    /**
     * Where each part runs, and the wire between k6 and the services, measured before any JVM starts (nothing else
     * is on it then): the report names where the load came from and what the network added to each latency.
     * Whether the services run on this machine, beside k6.
     */
    private boolean recordPlacement() {
        RoundTrip wire = loads.roundTrip(engine.address(), JavaCommand.DELAY_PORT);
        Map<String, Object> placement = new LinkedHashMap<>();
        Map<String, Object> services = engine.where();
        placement.put("services", services);
        if (plan.usesDatabase()) {
            placement.put("database", "with the services");
        }
        placement.put("load", loads.host().where());
        placement.put("yardstick", Yardstick.facts());
        boolean sameMachine = loadHost == null ? Boolean.TRUE.equals(services.get("same_machine"))
                : sameMachine(engine.address(), Boolean.TRUE.equals(services.get("same_machine")), loadHost);
        placement.put("same_machine", sameMachine);
        placement.put("round_trip", wire.facts());
        manifest.placement(placement);
        console.say(String.format(Locale.ROOT, "Round trip to the services (%s): median %.3f ms, p99 %.3f"
                + " ms over %d TCP connects%s", engine.address(), wire.medianMs(), wire.p99Ms(), wire.samples(),
                loadHost == null ? "" : ", timed by k6 in its container"));
        return sameMachine;
    }

    /**
     * Whether k6's container shares a machine with the services: both engines on this one (loopback or a local
     * socket), or both reached at the same address.
     */
    static boolean sameMachine(String servicesAddress, boolean servicesHere, EngineTarget loadHost) {
        return servicesHere ? loadHost.sameMachine() : !loadHost.sameMachine()
                && servicesAddress.equals(loadHost.address());
    }

    /** The lab's PostgreSQL in a CPU group of its own, its data loaded, before any JVM is warmed up. */
    private LabDatabase startDatabase() {
        console.say("Starting the lab's PostgreSQL (" + plan.database() + ")");
        try {
            databaseWork = Files.createTempDirectory("threadlab-database-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make a directory for the database's ready file", e);
        }
        LabDatabase started = LabDatabase.start(engine, java::database, plan.database(), databaseWork,
                dir.resolve("logs/database.log"));
        manifest.database(started.facts());
        console.say("PostgreSQL " + started.facts().get("version") + " ready after "
                + started.facts().get("ready_after_seconds") + " s, data loaded: " + started.facts().get("rows"));
        return started;
    }

    private ServiceProcess startDelayService() {
        OptionalDouble quota = plan.knobs().confineDelayService()
                ? OptionalDouble.of(plan.knobs().cpuQuota()) : OptionalDouble.empty();
        console.say("Starting the delay service" + (quota.isPresent() ? " (confined)" : " (unconfined, measured)"));
        ServiceProcess service = engine.start(DELAY_MODULE, JavaCommand.DELAY_PORT, "delay", quota,
                java.delayService(plan.knobs(), plan.delays().getFirst()), dir.resolve("logs/delay-service.log"));
        service.awaitReady(READY_TIMEOUT);
        return service;
    }

    private void warn(String warning) {
        console.warn(warning);
        manifest.warn(warning);
    }
}
