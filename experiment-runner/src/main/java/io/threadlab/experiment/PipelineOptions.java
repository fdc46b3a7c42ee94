package io.threadlab.experiment;

import io.threadlab.experiment.confine.CpuSets;
import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.Calibration;
import io.threadlab.experiment.plan.Defaults;
import io.threadlab.experiment.plan.LoadPlacement;
import io.threadlab.experiment.plan.Timing;
import io.threadlab.experiment.plan.Variant;
import io.threadlab.experiment.plan.WarmUpPolicy;
import io.threadlab.experiment.process.ComposeCli;
import io.threadlab.experiment.start.EngineTarget;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The options {@code run} and {@code map} share beyond the axes' ({@link AxisOptions}, read by {@link PlanAxes}): the
 * timing of windows, the warm-up, calibration, recording, engine and output. Each resolves its default from
 * {@link Defaults} for the mode.
 */
final class PipelineOptions {

    /** The command this mixin is part of: run or map, whose axes' options {@link AxisOptions} added. */
    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Option(names = "--variants", split = ",", paramLabel = "NAME", description = "Variants to run, in order "
            + "(default: the three models, imperative,reactive,virtual-thread; also imperative-rest, the control, and"
            + " any of the mistakes).")
    List<String> variants;

    @Option(names = "--window", paramLabel = "SECONDS", description = "Length of each measured window (default: "
            + Defaults.WINDOW + "; quick: " + Defaults.QUICK_WINDOW + "; map: " + Defaults.MAP_WINDOW + "). A calibration"
            + " window keeps its own: " + Defaults.CALIBRATION_WINDOW + "; quick: " + Defaults.QUICK_CALIBRATION_WINDOW
            + "; map: " + Defaults.MAP_CALIBRATION_WINDOW + ".")
    Integer windowSeconds;

    @Option(names = "--settle", paramLabel = "SECONDS", description = "Least load before each window, not measured: it"
            + " goes on until the JVM's compiler is quiet and every user has been answered (default: " + Defaults.SETTLE
            + "; quick: " + Defaults.QUICK_SETTLE + "; map: " + Defaults.MAP_SETTLE + ").")
    Integer settleSeconds;

    @Option(names = "--settle-max", paramLabel = "SECONDS", description = "Ceiling of that load: a window whose "
            + "compiler is still busy then is measured anyway, and its compiler share says so (default: "
            + Defaults.SETTLE_MAX + "; quick: " + Defaults.QUICK_SETTLE_MAX + "; map: " + Defaults.MAP_SETTLE_MAX + ").")
    Integer settleMaxSeconds;

    @Option(names = "--warmup-cpus", paramLabel = "CPUS", description = "CPU quota while a JVM's compile queue drains, "
            + "before each level is proven at the experiment's quota; at least --cpus, at most this machine's CPUs "
            + "(default: this machine's CPUs; equal to --cpus: no boost).")
    Double warmupCpus;

    @Option(names = "--warmup-boost-max", paramLabel = "SECONDS", description = "Ceiling of the boosts together: the"
            + " first, and a level's second where its compile queue filled again at the quota (default: "
            + Defaults.BOOST_MAX + "; quick: " + Defaults.QUICK_BOOST_MAX + ").")
    Integer warmupBoostMax;

    @Option(names = "--warmup-level-max", paramLabel = "SECONDS", description = "Ceiling of proving one level at the "
            + "quota; a JVM whose compiler is still busy then is marked not finished (default: " + Defaults.LEVEL_MAX
            + "; quick: " + Defaults.QUICK_LEVEL_MAX + "; map: " + Defaults.MAP_LEVEL_MAX + ").")
    Integer warmupLevelMax;

    @Option(names = "--no-jfr", description = "Skip the recorded twin windows (and so the thread analysis).")
    boolean noJfr;

    @Option(names = "--jfr-settings", paramLabel = "FILE", description = "JFR settings of the recorded twin windows "
            + "(default: jfr/threads.jfc, what the thread analysis needs).")
    Path jfrSettings;

    @Option(names = "--calibration-levels", paramLabel = "USERS[/USERS...]", description = "Users each JVM is"
            + " calibrated at right after its warm-up, for the capacity model that predicts its later windows before"
            + " they are measured: a list per calibration delay, the lists separated by / (default: run: "
            + Defaults.CALIBRATION_LEVELS + "; quick: " + Defaults.QUICK_CALIBRATION_LEVELS + "; map: "
            + Defaults.MAP_CALIBRATION_LEVELS + ").")
    String calibrationLevels;

    @Option(names = "--calibration-delay-ms", split = ",", paramLabel = "MS", description = "The downstream delays of"
            + " the calibration windows, each with its own list of --calibration-levels: the first the CPU curve's,"
            + " a longer one what more calls in flight cost (default: run and map: .env's delay, then "
            + Defaults.CALIBRATION_MORE_DELAYS + ", as many as the lists of --calibration-levels; quick: .env's"
            + " delay).")
    List<Integer> calibrationDelays;

    @Option(names = "--no-calibration", description = "No calibration, and so no predictions.")
    boolean noCalibration;

    @Option(names = "--confine-delay-service", description = "Give the delay service the same CPU quota (default: "
            + "unconfined, its headroom measured).")
    boolean confineDelayService;

    @Option(names = "--load-cpus", paramLabel = "MODE", description = "Where k6 and the delay service run during the"
            + " measured windows: shared (every CPU, with the variants), separate (a CPU of their own, cgroup v1"
            + " cpusets), or compare (alternating by pairs of repetitions, to measure both in one run) (default: "
            + Defaults.LOAD_CPUS + ").")
    String loadCpus = Defaults.LOAD_CPUS;

    @Option(names = "--output", paramLabel = "DIR", description = "Where run directories go (default: results).")
    Path output = Path.of("results");

    @Option(names = "--engine", paramLabel = "ENGINE", description = "local: JVMs on this machine, each in its CPU "
            + "group (default); compose: the containers of compose.yaml (needs a running Docker engine).")
    String engine = "local";

    @Option(names = "--docker-host", paramLabel = "URL", description = "With --engine compose: the Docker engine to"
            + " run the services on, as DOCKER_HOST names one (tcp://HOST:2375, ssh://USER@HOST) (default: DOCKER_HOST,"
            + " else this machine's engine).")
    String dockerHost;

    @Option(names = "--docker-context", paramLabel = "NAME", description = "With --engine compose: the docker context"
            + " whose engine runs the services (default: DOCKER_CONTEXT, else this machine's engine).")
    String dockerContext;

    @Option(names = "--load-host", paramLabel = "URL", description = "Run k6 in a container on this Docker engine"
            + " (tcp://HOST:2375, ssh://USER@HOST), on its host's network, so that the load has a machine of its own"
            + " (default: k6 as a process on this machine).")
    String loadHost;

    /** The chosen variants, or the default run's. */
    List<Variant> chosenVariants() {
        return (variants != null ? variants.stream().map(Variant::fromLabel).distinct().toList() : Variant.defaults());
    }

    /** The axes' flags this command line gave, read by their declarations. */
    PlanAxes axes() {
        boolean map = spec.name().equals("map");
        return new PlanAxes(AxisOptions.given(spec, map ? AxisOptions.Command.MAP : AxisOptions.Command.RUN), map);
    }

    /** What each JVM is calibrated at, after its warm-up. */
    Calibration calibration(Defaults defaults) {
        if (noCalibration) {
            return Calibration.NONE;
        }
        String levels = calibrationLevels != null ? calibrationLevels : defaults.calibration().levels();
        if (levels == null || levels.isBlank()) {
            return Calibration.NONE;
        }
        List<Integer> delays = calibrationDelays;
        if (delays == null) { // the first delay's, then the mode's longer ones: as many as the lists of users given
            Set<Integer> chosen = new LinkedHashSet<>(List.of(firstDelay()));
            chosen.addAll(Defaults.integers(defaults.calibration().moreDelays()));
            delays = List.copyOf(chosen);
            if (calibrationLevels != null) {
                delays = delays.subList(0, Math.min(delays.size(), calibrationLevels.split("/").length));
            }
        }
        if (calibrationLevels == null) { // the default lists: one per delay asked, the last one for any beyond
            List<String> lists = List.of(levels.split("/"));
            levels = String.join("/", lists.subList(0, Math.min(lists.size(), delays.size())));
        }
        return new Calibration(defaults.calibration().windowSeconds(), defaults.calibration().tries(),
                Calibration.stages(delays, levels));
    }

    /** The calibration's first delay: .env's downstream delay, or the first --delay-ms without .env. */
    private int firstDelay() {
        String env = LabSettings.read().get(Axis.DELAY_MS.envKey());
        if (env != null) {
            return Integer.parseInt(env.trim());
        }
        List<Integer> given = axes().delays();
        if (given == null) {
            throw new IllegalArgumentException("no .env found (the lab's settings, at the checkout's root) and no"
                    + " --delay-ms given: run ./experiment from the lab's checkout");
        }
        return given.getFirst();
    }

    Timing timing(Defaults defaults) {
        return new Timing(or(windowSeconds, defaults.windowSeconds()), or(settleSeconds, defaults.settleSeconds()),
                or(settleMaxSeconds, defaults.settleMaxSeconds()));
    }

    WarmUpPolicy warmUp(Defaults defaults, boolean quick, double quota) {
        int machine = Runtime.getRuntime().availableProcessors();
        double boost = warmupCpus != null ? warmupCpus : machine;
        if (boost < quota || boost > machine) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "--warmup-cpus must lie between the"
                    + " experiment's quota (--cpus %s) and this machine's %d CPUs, was %s", quota, machine, boost));
        }
        return WarmUpPolicy.boosted(boost, or(warmupBoostMax, defaults.warmUpBoostMaxSeconds()),
                or(warmupLevelMax, defaults.warmUpLevelMaxSeconds()), quick);
    }

    LoadPlacement placement() {
        LoadPlacement placement = LoadPlacement.parse(loadCpus);
        if (placement != LoadPlacement.SHARED && (!engine.equals("local") || !CpuSets.availableHere())) {
            throw new IllegalArgumentException("--load-cpus " + loadCpus + " needs --engine local and a writable cgroup"
                    + " v1 cpuset (/sys/fs/cgroup/cpuset) on a machine with at least 2 CPUs");
        }
        return placement;
    }

    void requireEngine() {
        if (!engine.equals("local") && !engine.equals("compose")) {
            throw new IllegalArgumentException("--engine must be local or compose, was '" + engine + "'");
        }
        if (!engine.equals("compose") && (dockerHost != null || dockerContext != null)) {
            throw new IllegalArgumentException("--docker-host and --docker-context name the engine of --engine"
                    + " compose; add --engine compose");
        }
    }

    /**
     * The engine {@code --engine compose} runs the services on, resolved and checked (it answers, and holds a
     * container to a CPU quota) before anything is made; this machine for {@code --engine local}.
     */
    EngineTarget engineTarget(Map<String, String> environment) {
        if (!engine.equals("compose")) {
            return EngineTarget.thisMachine();
        }
        String host = dockerHost != null ? dockerHost : environment.get("DOCKER_HOST");
        String context = dockerContext != null ? dockerContext : environment.get("DOCKER_CONTEXT");
        if (dockerHost != null && dockerContext == null) {
            context = null; // the flag names the engine; a context from the environment does not compete with it
        } else if (dockerContext != null && dockerHost == null) {
            host = null;
        }
        if ((host == null || host.isBlank()) && (context == null || context.isBlank() || context.equals("default"))) {
            ComposeCli.requireEngine(); // this machine's engine, as before: no engine is exit 1
            return EngineTarget.resolve(null, null, ComposeCli::check);
        }
        ComposeCli.requireCli();
        EngineTarget target = EngineTarget.resolve(host, context, ComposeCli::check);
        ComposeCli.requirePlugin();
        return target;
    }

    /**
     * The engine {@code --load-host} names, resolved and checked (it answers) before anything is made; null for k6 on
     * this machine. Its k6 must reach the services' published ports, so services on this machine's loopback (the
     * local engine, or an engine here) cannot be loaded from another machine.
     */
    EngineTarget loadTarget(EngineTarget services) {
        if (loadHost == null) {
            return null;
        }
        if (loadHost.isBlank()) {
            throw new IllegalArgumentException("--load-host names no engine: give its URL (tcp://HOST:2375,"
                    + " ssh://USER@HOST, unix:///PATH)");
        }
        if (LoadPlacement.parse(loadCpus) != LoadPlacement.SHARED) {
            throw new IllegalArgumentException("--load-cpus " + loadCpus + " places k6 on this machine's CPUs; with"
                    + " --load-host k6 runs on another engine's machine: leave --load-cpus out");
        }
        if (!EngineTarget.onThisMachine(loadHost) && services.sameMachine()) {
            throw new IllegalArgumentException("k6 on the Docker engine at " + loadHost + " cannot reach services on"
                    + " this machine's loopback (" + (engine.equals("compose") ? "this machine's engine"
                    : "--engine local") + "): run them on an engine both machines reach (--engine compose"
                    + " --docker-host tcp://HOST:2375), or leave --load-host out");
        }
        ComposeCli.requireCli();
        return EngineTarget.forLoad(loadHost, ComposeCli::check);
    }

    Path jfrSettings(Path labHome) {
        Path settings = jfrSettings != null ? jfrSettings.toAbsolutePath() : labHome.resolve("jfr/threads.jfc");
        if (!Files.isRegularFile(settings)) {
            throw new IllegalArgumentException("--jfr-settings: no such file " + settings);
        }
        return settings;
    }

    static String csv(List<?> values) {
        return values.stream().map(String::valueOf).collect(Collectors.joining(","));
    }

    static int or(Integer given, int fallback) {
        return given != null ? given : fallback;
    }
}
