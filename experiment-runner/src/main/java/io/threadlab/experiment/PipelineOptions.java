package io.threadlab.experiment;

import io.threadlab.experiment.confine.CpuSets;
import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.Calibration;
import io.threadlab.experiment.plan.Database;
import io.threadlab.experiment.plan.Defaults;
import io.threadlab.experiment.plan.Downstream;
import io.threadlab.experiment.plan.ExperimentPlan;
import io.threadlab.experiment.plan.FanOutMode;
import io.threadlab.experiment.plan.Grid;
import io.threadlab.experiment.plan.Point;
import io.threadlab.experiment.plan.LoadPlacement;
import io.threadlab.experiment.plan.Knobs;
import io.threadlab.experiment.plan.Timing;
import io.threadlab.experiment.plan.Variant;
import io.threadlab.experiment.plan.WarmUpPolicy;
import io.threadlab.experiment.process.ComposeCli;
import io.threadlab.experiment.start.EngineTarget;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The options {@code run} and {@code map} share: the knobs every variant gets (defaults from .env), the timing of
 * windows, the warm-up, recording, engine and output. Each resolves its default from {@link Defaults} for the mode.
 */
final class PipelineOptions {

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

    @Option(names = "--warmup-boost-max", paramLabel = "SECONDS", description = "Ceiling of the boost (default: "
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

    @Option(names = "--cpus", split = ",", paramLabel = "CPUS", description = "CPU quota per variant (default from "
            + ".env: ${DEFAULT-VALUE}); map: several values, each a JVM of its own.")
    List<Double> cpus;

    @Option(names = "--heap", paramLabel = "SIZE", description = "-Xms and -Xmx of every service (default from .env: "
            + "${DEFAULT-VALUE}).")
    String heap;

    @Option(names = "--gc", paramLabel = "GC", description = "Serial, Parallel, G1 or Z for every service (default from "
            + ".env: ${DEFAULT-VALUE}; Serial is what the JVM picks at 1 CPU anyway).")
    String gc;

    @Option(names = "--pool-size", split = ",", paramLabel = "N", description = "REST-client connection pool (default: "
            + "run: from .env, LAB_CONNECTION_POOL_SIZE; map: the largest number of users times the largest --fan-out,"
            + " so that the pool never caps them; several values, each a JVM of its own).")
    List<Integer> poolSize;

    @Option(names = "--worker-max", split = ",", paramLabel = "N", description = "Worker pool maximum (default from "
            + ".env: ${DEFAULT-VALUE}); map: several values (e.g. 200,512,800), each a JVM of its own, for the"
            + " variants whose requests run on workers.")
    List<Integer> workerMax;

    @Option(names = "--connect-timeout-ms", paramLabel = "MS", description = "Client connect timeout (default from "
            + ".env: ${DEFAULT-VALUE}).")
    Integer connectTimeoutMs;

    @Option(names = "--read-timeout-ms", paramLabel = "MS", description = "Client read timeout (default from .env: "
            + "${DEFAULT-VALUE}); every delay must be below it.")
    Integer readTimeoutMs;

    @Option(names = "--delay-ms", split = ",", paramLabel = "MS", description = "Downstream delays, each measured on the "
            + "same warm JVMs: the delay service is told the wait before each window (default: run: from .env, "
            + "${DEFAULT-VALUE}; map: " + Defaults.MAP_DELAYS + ").")
    List<Integer> delays;

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

    @Option(names = "--downstream", split = ",", paramLabel = "KIND", description = "What the requests wait on, a list:"
            + " http (the delay service) and db (the lab's PostgreSQL through a pool; the delay is then the query's"
            + " server-side wait, 0: the query alone) (default: http).")
    List<String> downstreams;

    @Option(names = "--fan-out", split = ",", paramLabel = "N", description = "Calls to the delay service per request,"
            + " a list, each measured on the same warm JVMs: 1 is GET /api, more is GET /api/fanout?n=N, from 1 to "
            + ExperimentPlan.MAX_FAN_OUT + " and at most the connection pool (default: 1).")
    List<Integer> fanOut;

    @Option(names = "--fan-out-mode", split = ",", paramLabel = "MODE", description = "How a request makes its"
            + " calls, a list: parallel (all at once) and sequential (one after another) (default: parallel).")
    List<String> fanOutModes;

    @Option(names = "--db-pool-size", split = ",", paramLabel = "N", description = "The database pool of every variant"
            + " (default from .env: ${DEFAULT-VALUE}); map: several values, each a JVM of its own.")
    List<Integer> dbPoolSize;

    @Option(names = "--db-cpus", paramLabel = "CPUS", description = "The database's CPU quota (default from .env:"
            + " ${DEFAULT-VALUE}).")
    Double dbCpus;

    @Option(names = "--db-max-connections", paramLabel = "N", description = "PostgreSQL's max_connections (default"
            + " from .env: ${DEFAULT-VALUE}).")
    Integer dbMaxConnections;

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

    /**
     * The run's own knobs: the first value of every axis.
     *
     * @param poolDefault the pool when none is given (the map's: its most users); null: .env's
     */
    Knobs knobs(Integer poolDefault) {
        int machine = Runtime.getRuntime().availableProcessors();
        requireSettings();
        if (poolSize == null && poolDefault == null) {
            throw new IllegalArgumentException("no .env found (the lab's settings, at the checkout's root) and no"
                    + " --pool-size given: run ./experiment from the lab's checkout");
        }
        for (double c : cpus) {
            if (c > machine) {
                throw new IllegalArgumentException(String.format(Locale.ROOT, "--cpus %s is more than this machine's %d"
                        + " CPUs", c, machine));
            }
        }
        Knobs.DatabasePool pool = null;
        if (usesDatabase()) {
            if (dbPoolSize == null || dbPoolSize.isEmpty()) {
                throw new IllegalArgumentException("--downstream db needs --db-pool-size (from .env: LAB_DB_POOL_SIZE)");
            }
            // a request waits for a pooled connection as long as it would for the delay service's answer
            pool = new Knobs.DatabasePool(dbPoolSize.getFirst(), readTimeoutMs);
        }
        return new Knobs(cpus.getFirst(), heap, gc, poolSizes(poolDefault).getFirst(), connectTimeoutMs,
                readTimeoutMs, workerMax.getFirst(), confineDelayService, pool);
    }

    List<Integer> poolSizes(Integer poolDefault) {
        return poolSize != null && !poolSize.isEmpty() ? poolSize : List.of(poolDefault);
    }

    /** The map's JVMs: every combination of the JVM axes given more than one value (the others: the run's knobs). */
    List<Point> setups(Integer poolDefault) {
        return Grid.of().and(Axis.CPUS, several(cpus)).and(Axis.WORKER_MAX, several(workerMax))
                .and(Axis.POOL_SIZE, several(poolSizes(poolDefault)))
                .and(Axis.DB_POOL_SIZE, usesDatabase() ? several(dbPoolSize) : List.of()).points().stream()
                .filter(p -> !p.isEmpty()).toList();
    }

    /** The downstreams asked for, the delay service's alone by default. */
    List<Downstream> downstreams() {
        List<Downstream> kinds = downstreams == null ? List.of(Downstream.HTTP)
                : downstreams.stream().map(Downstream::parse).distinct().toList();
        if (kinds.isEmpty()) {
            throw new IllegalArgumentException("--downstream takes http, db or both");
        }
        return kinds;
    }

    boolean usesDatabase() {
        return downstreams().contains(Downstream.DB);
    }

    /**
     * The grid's downstream axis: left out where the delay service is the only downstream, so that such a run's
     * windows are named and reported as they always were.
     */
    Grid withDownstreams(Grid grid) {
        return downstreams().equals(List.of(Downstream.HTTP)) ? grid : grid.and(Axis.DOWNSTREAM, downstreams());
    }

    /**
     * The grid's fan-out axes, innermost: left out at one call in parallel (the default), so that such a run's windows
     * are named, requested and reported as they always were.
     */
    Grid withFanOut(Grid grid) {
        List<Integer> calls = fanOut == null ? List.of(1) : fanOut;
        List<FanOutMode> modes = fanOutModes == null ? List.of(FanOutMode.PARALLEL)
                : fanOutModes.stream().map(FanOutMode::parse).distinct().toList();
        if (calls.isEmpty() || modes.isEmpty()) {
            throw new IllegalArgumentException("--fan-out and --fan-out-mode take at least one value");
        }
        if (calls.stream().anyMatch(n -> n < 1)) {
            throw new IllegalArgumentException("--fan-out must be numbers of calls from 1 to "
                    + ExperimentPlan.MAX_FAN_OUT + ", was " + calls);
        }
        if (calls.equals(List.of(1)) && fanOutModes != null && !modes.equals(List.of(FanOutMode.PARALLEL))) {
            throw new IllegalArgumentException("--fan-out-mode " + csv(fanOutModes) + " needs --fan-out above 1:"
                    + " one call is one call in either mode");
        }
        return calls.equals(List.of(1)) ? grid : grid.and(Axis.FAN_OUT, calls).and(Axis.FAN_OUT_MODE, modes);
    }

    /** The lab's PostgreSQL, where a window waits on it: its quota and settings, from .env or their flags. */
    Database database() {
        if (!usesDatabase()) {
            return null;
        }
        Map<String, String> env = LabSettings.read();
        if (dbCpus == null || dbMaxConnections == null || !env.containsKey("LAB_DB_SHARED_BUFFERS")
                || !env.containsKey("LAB_DB_FSYNC")) {
            throw new IllegalArgumentException("--downstream db needs the database's settings from .env"
                    + " (LAB_DB_CPUS, LAB_DB_MAX_CONNECTIONS, LAB_DB_SHARED_BUFFERS, LAB_DB_FSYNC) or --db-cpus and"
                    + " --db-max-connections: run ./experiment from the lab's checkout");
        }
        int machine = Runtime.getRuntime().availableProcessors();
        if (dbCpus > machine) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "--db-cpus %s is more than this machine's %d"
                    + " CPUs", dbCpus, machine));
        }
        return new Database(dbCpus, dbMaxConnections, env.get("LAB_DB_SHARED_BUFFERS"),
                !env.get("LAB_DB_FSYNC").equalsIgnoreCase("off"));
    }

    private static <T> List<T> several(List<T> values) {
        return values.size() > 1 ? values : List.of();
    }

    /** What each JVM is calibrated at, after its warm-up. */
    Calibration calibration(Defaults defaults) {
        if (noCalibration) {
            return Calibration.NONE;
        }
        String levels = calibrationLevels != null ? calibrationLevels : defaults.calibrationLevels();
        if (levels == null || levels.isBlank()) {
            return Calibration.NONE;
        }
        requireSettings();
        List<Integer> delays = calibrationDelays;
        if (delays == null) { // the first delay's, then the mode's longer ones: as many as the lists of users given
            Set<Integer> chosen = new LinkedHashSet<>(List.of(firstDelay()));
            chosen.addAll(Defaults.integers(defaults.moreCalibrationDelays()));
            delays = List.copyOf(chosen);
            if (calibrationLevels != null) {
                delays = delays.subList(0, Math.min(delays.size(), calibrationLevels.split("/").length));
            }
        }
        if (calibrationLevels == null) { // the default lists: one per delay asked, the last one for any beyond
            List<String> lists = List.of(levels.split("/"));
            levels = String.join("/", lists.subList(0, Math.min(lists.size(), delays.size())));
        }
        return new Calibration(defaults.calibrationWindowSeconds(), defaults.calibrationTries(),
                Calibration.stages(delays, levels));
    }

    /** The calibration's first delay: .env's downstream delay, or the first --delay-ms without .env. */
    private int firstDelay() {
        String env = LabSettings.read().get("LAB_DELAY_MS");
        return env != null ? Integer.parseInt(env.trim()) : delays.getFirst();
    }

    /**
     * The knobs' defaults come from .env, and only from there: without it (a jar run outside the lab's checkout),
     * every knob must be given.
     */
    private void requireSettings() {
        List<String> missing = new java.util.ArrayList<>();
        if (cpus == null) missing.add("--cpus");
        if (heap == null) missing.add("--heap");
        if (gc == null) missing.add("--gc");
        if (workerMax == null) missing.add("--worker-max");
        if (connectTimeoutMs == null) missing.add("--connect-timeout-ms");
        if (readTimeoutMs == null) missing.add("--read-timeout-ms");
        if (delays == null && calibrationDelays == null && LabSettings.read().get("LAB_DELAY_MS") == null) {
            missing.add("--delay-ms");
        }
        if (!missing.isEmpty()) {
            throw new IllegalArgumentException("no .env found (the lab's settings, at the checkout's root) and no "
                    + String.join(", ", missing) + " given: run ./experiment from the lab's checkout");
        }
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
