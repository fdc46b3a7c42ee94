package io.threadlab.experiment;

import io.threadlab.experiment.analyse.ThreadAnalysis;
import io.threadlab.experiment.analyse.jmc.JmcTiming;
import io.threadlab.experiment.collect.PlanFacts;
import io.threadlab.experiment.collect.RunManifest;
import io.threadlab.experiment.collect.RunRecord;
import io.threadlab.experiment.load.K6;
import io.threadlab.experiment.load.WindowRunner;
import io.threadlab.experiment.plan.PrecisionGoal;
import io.threadlab.experiment.start.EngineTarget;
import io.threadlab.experiment.start.JavaCommand;
import io.threadlab.experiment.start.LabDatabase;
import io.threadlab.experiment.plan.Defaults;
import io.threadlab.experiment.plan.ExperimentPlan;
import io.threadlab.experiment.plan.Knobs;
import io.threadlab.experiment.plan.OpenModel;
import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.Grid;
import io.threadlab.experiment.plan.Variant;
import io.threadlab.experiment.report.Report;
import io.threadlab.experiment.report.TimeSpent;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code ./experiment}: the lab's one command. */
@Command(name = "experiment", mixinStandardHelpOptions = true, version = "quarkus-thread-lab 1.0",
        description = "Worker threads vs event loop vs virtual threads in Quarkus, measured.",
        subcommands = {ExperimentCommand.Run.class, ExperimentCommand.MapCommand.class, ExperimentCommand.Analyze.class,
                ExperimentCommand.ReportCommand.class, PredictCommand.class, PublishCommand.class,
                FindingsCommand.class})
public final class ExperimentCommand {

    public static void main(String[] args) {
        System.exit(execute(args));
    }

    static int execute(String... args) {
        CommandLine cli = new CommandLine(new ExperimentCommand());
        // A word that names no command is an error, even beside --help (picocli would print the main usage, exit 0).
        if (args.length == 0 || !args[0].startsWith("-") && !cli.getSubcommands().containsKey(args[0])) {
            cli.getErr().println("experiment: " + (args.length == 0 ? "no command given"
                    : "no such command: " + args[0]) + "; the commands are " + String.join(", ",
                    cli.getSubcommands().keySet()));
            cli.usage(cli.getErr());
            return 2;
        }
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            if (e instanceof IllegalArgumentException) { // bad input found after parsing: usage error
                commandLine.getErr().println("experiment: " + e.getMessage());
                commandLine.usage(commandLine.getErr());
                return 2;
            }
            commandLine.getErr().println("experiment: " + e.getMessage());
            return 1;
        });
        return cli.execute(args);
    }

    @Command(name = "run", mixinStandardHelpOptions = true, sortOptions = false,
            defaultValueProvider = LabSettings.class,
            description = {"Run the experiment: each variant in its own CPU group at the quota, warmed up until its "
                    + "compiler has finished, under k6 load, with recorded twins for the thread analysis. Writes "
                    + "results/<UTC timestamp>/.",
                    "Defaults: the three models x " + Defaults.JVM_STARTS + " JVM starts x " + Defaults.REPETITIONS
                            + " repetition x closed model at " + Defaults.LEVELS + " users, each JVM calibrated at "
                            + Defaults.CALIBRATION_LEVELS + " users (.env's delay, then "
                            + Defaults.CALIBRATION_MORE_DELAYS + " ms), recorded twins; more JVM starts until every"
                            + " headline ratio is decided, within " + Defaults.BUDGET + "."})
    static final class Run implements Callable<Integer> {

        @Mixin
        PipelineOptions options;

        @Option(names = "--quick", description = "A smoke run of the same pipeline: one JVM start, one repetition, short"
                + " windows and warm-ups (the compiler will not have finished). Explicit flags win.")
        boolean quick;

        @Option(names = "--mistakes", description = "Run the gallery of common mistakes, each beside the correct "
                + "variant it spoils (default for it: " + Defaults.MISTAKES_JVM_STARTS + " JVM start, "
                + Defaults.MISTAKES_REPETITIONS + " repetitions).")
        boolean mistakes;

        @Option(names = "--levels", split = ",", paramLabel = "USERS",
                description = "Closed-model load levels, in concurrent users (default: " + Defaults.LEVELS + ").")
        List<Integer> levels;

        @Option(names = "--jvm-starts", paramLabel = "N", description = "JVM starts per variant: the JVM start is a "
                + "source of variance of its own (default: " + Defaults.JVM_STARTS + "; quick: 1).")
        Integer jvmStarts;

        @Option(names = "--repetitions", paramLabel = "N", description = "Repetitions of every plain window per JVM "
                + "start, the variant order rotated each time (default: " + Defaults.REPETITIONS + "; quick: 1).")
        Integer repetitions;

        @Option(names = "--time-to-peak", description = "Also start each variant once more under continuous load at "
                + "the quota from its start, and follow it until its compiler has finished.")
        boolean timeToPeak;

        @Option(names = "--time-to-peak-max", paramLabel = "SECONDS", description = "Ceiling of each time to peak "
                + "(default: " + Defaults.TIME_TO_PEAK_MAX + ").")
        int timeToPeakMax = Defaults.TIME_TO_PEAK_MAX;

        @Option(names = "--open-rates", split = ",", paramLabel = "REQ_PER_S", description = "Open-model arrival-rate "
                + "steps, measured in the first repetition at every delay (default: " + Defaults.OPEN_RATES
                + "; quick: " + Defaults.QUICK_OPEN_RATES + ").")
        List<Integer> openRates;

        @Option(names = "--open-step", paramLabel = "SECONDS", description = "Length of each open-model step (default: "
                + Defaults.OPEN_STEP + "; quick: " + Defaults.QUICK_OPEN_STEP + ").")
        Integer openStepSeconds;

        @Option(names = "--no-open-model", description = "Skip the open-model steps.")
        boolean noOpenModel;

        @Option(names = "--no-open", hidden = true, description = "Renamed: --no-open-model.")
        boolean noOpen;

        @Option(names = "--precision", paramLabel = "HALF_WIDTH", description = "Add JVM starts, one at a time, of the"
                + " variant that most narrows the widest headline ratio still to do, until every headline ratio is"
                + " decided (its interval excludes 1) and within this half-width, e.g. 10%% (default: decided is"
                + " enough).")
        String precision;

        @Option(names = "--budget", paramLabel = "DURATION", description = "Add JVM starts only while the next one"
                + " ends within this time of the run's (or the extension's) start, e.g. 30m or 1h30m; off: the plan"
                + " as given (default: " + Defaults.BUDGET + "; quick and mistakes: off).")
        String budget;

        @Option(names = "--max-jvm-starts", paramLabel = "N", description = "Ceiling of JVM starts per variant for"
                + " --precision and --budget (default: " + PrecisionGoal.DEFAULT_MAX_JVM_STARTS + ").")
        int maxJvmStarts = PrecisionGoal.DEFAULT_MAX_JVM_STARTS;

        @Option(names = "--extend", paramLabel = "RESULTS_DIR", description = "Add JVM starts to an earlier run "
                + "(one of every variant, or as --precision and --budget ask), after checking from its manifest that the plan,"
                + " versions and knobs are the same; its analysis and report are made again.")
        Path extend;

        @Override
        public Integer call() {
            ExperimentPlan plan = plan();
            if (extend == null) {
                return execute(plan, options, !options.noJfr);
            }
            RunRecord earlier;
            try {
                earlier = RunRecord.read(extend);
            } catch (java.io.IOException e) {
                throw new IllegalArgumentException("--extend: " + e.getMessage());
            }
            Path labHome = LabHome.find();
            Extending.requireSame(earlier.manifest(), MachineFacts.collect(labHome,
                            Path.of(System.getProperty("java.home")), K6.locate(labHome.resolve(".tools")).version(),
                            "delay-service"), PlanFacts.of(plan, plan.schedule(), WindowRunner.openModelMaxUsers(plan)),
                    plan.knobs().serviceSettings(JavaCommand.delayUrl(), LabDatabase.url()));
            return execute(plan, options, !options.noJfr, earlier);
        }

        ExperimentPlan plan() {
            if (noOpen) {
                throw new IllegalArgumentException("--no-open is now --no-open-model: it skips the open model's steps"
                        + " (the runner never opens a browser)");
            }
            if (mistakes && options.variants != null) {
                throw new IllegalArgumentException("--mistakes chooses its own variants; use either it or --variants");
            }
            for (var axis : List.of(options.cpus == null ? List.of() : options.cpus, options.workerMax == null
                    ? List.of() : options.workerMax, options.poolSizes(0))) {
                if (axis.size() > 1) {
                    throw new IllegalArgumentException("run takes one value per knob (--cpus, --worker-max,"
                            + " --pool-size); ./experiment map takes several");
                }
            }
            options.requireEngine();
            Defaults defaults = defaults();
            Knobs knobs = options.knobs(null);
            OpenModel open = noOpenModel ? OpenModel.NONE : new OpenModel(openRates != null ? openRates
                    : Defaults.integers(defaults.openRates()), List.of(),
                    PipelineOptions.or(openStepSeconds, defaults.openStepSeconds()));
            Grid grid = options.withFanOut(options.withDownstreams(Grid.of().and(Axis.USERS, levels != null ? levels
                    : Defaults.integers(defaults.levels()))).and(Axis.DELAY_MS, options.delays));
            List<Variant> chosen = mistakes ? Variant.mistakesWithTheirReferences(grid) : options.chosenVariants();
            return new ExperimentPlan(ExperimentPlan.Mode.RUN, chosen, List.of(), grid, options.timing(defaults),
                    PipelineOptions.or(jvmStarts, defaults.jvmStarts()),
                    PipelineOptions.or(repetitions, defaults.repetitions()),
                    options.warmUp(defaults, quick, knobs.cpuQuota()), open, !options.noJfr, timeToPeak, timeToPeakMax,
                    !options.engine.equals("compose"), knobs, goal(defaults), options.placement(),
                    options.calibration(defaults), options.database());
        }

        private Defaults defaults() {
            return quick ? Defaults.QUICK : mistakes ? Defaults.MISTAKES : Defaults.RUN;
        }

        /**
         * Precision on demand within the mode's budget by default ({@code --budget off}: the plan as given); a run
         * that also measures the time to peak keeps its plan unless asked.
         */
        private PrecisionGoal goal(Defaults defaults) {
            String within = budget != null ? budget : timeToPeak ? "" : defaults.budget();
            boolean off = within.isBlank() || within.equalsIgnoreCase("off");
            if (off && precision == null) {
                return PrecisionGoal.NONE;
            }
            return new PrecisionGoal(precision == null ? null : PrecisionGoal.parseHalfWidth(precision),
                    off ? null : PrecisionGoal.parseBudget(within), maxJvmStarts);
        }
    }

    @Command(name = "map", mixinStandardHelpOptions = true, sortOptions = false,
            defaultValueProvider = LabSettings.class,
            description = {"The regime map: every variant at every point of a grid of users and downstream delays, "
                    + "each ceiling (CPU, workers, connections, users) predicted from first principles and shown "
                    + "beside the measurement; the open model at every delay, with its SLO capacity. Same pipeline "
                    + "and results layout as run.",
                    "Defaults: the three models, " + Defaults.MAP_DELAYS + " ms x " + Defaults.MAP_LEVELS
                            + " users, one JVM start, one window per point."})
    static final class MapCommand implements Callable<Integer> {

        @Mixin
        PipelineOptions options;

        @Option(names = "--quick", description = "A smoke map: " + "20,200 users x 1,100 ms, short windows.")
        boolean quick;

        @Option(names = "--levels", split = ",", paramLabel = "USERS",
                description = "Users of the grid (default: " + Defaults.MAP_LEVELS + ").")
        List<Integer> levels;

        @Option(names = "--open-shares", split = ",", paramLabel = "SHARE", description = "Open-model steps as shares of"
                + " the highest closed-model throughput at each delay (default: " + Defaults.MAP_OPEN_SHARES + ").")
        List<Double> openShares;

        @Option(names = "--open-step", paramLabel = "SECONDS", description = "Length of each open-model step (default: "
                + Defaults.MAP_OPEN_STEP + ").")
        Integer openStepSeconds;

        @Option(names = "--no-open-model", description = "Skip the open model.")
        boolean noOpenModel;

        @Option(names = "--recorded", description = "Record a twin with JFR at the highest users of every delay (for "
                + "the thread analysis; adds a window per delay and variant).")
        boolean recorded;

        @Override
        public Integer call() {
            return execute(plan(), options, recorded && !options.noJfr);
        }

        ExperimentPlan plan() {
            options.requireEngine();
            Defaults defaults = quick ? Defaults.QUICK_MAP : Defaults.MAP;
            List<Integer> users = (levels != null ? levels : Defaults.integers(defaults.levels())).stream().sorted()
                    .toList();
            // By default the pool never caps the users, nor their parallel calls: the most users × the most calls.
            int top = users.getLast() * (options.fanOut == null ? 1 : Collections.max(options.fanOut));
            Knobs knobs = options.knobs(top);
            OpenModel open = noOpenModel ? OpenModel.NONE : new OpenModel(List.of(), openShares != null ? openShares
                    : Defaults.decimals(defaults.openShares()), PipelineOptions.or(openStepSeconds,
                    defaults.openStepSeconds()));
            Grid grid = options.withFanOut(options.withDownstreams(Grid.of().and(Axis.USERS, users)).and(
                    Axis.DELAY_MS, (options.delays != null ? options.delays : Defaults.integers(defaults.delays()))
                            .stream().sorted().toList()));
            return new ExperimentPlan(ExperimentPlan.Mode.MAP, options.chosenVariants(), options.setups(top), grid,
                    options.timing(defaults), 1, 1, options.warmUp(defaults, quick, knobs.cpuQuota()), open,
                    recorded && !options.noJfr, false, Defaults.TIME_TO_PEAK_MAX, !options.engine.equals("compose"),
                    knobs, PrecisionGoal.NONE, options.placement(), options.calibration(defaults), options.database());
        }
    }

    /** Runs a plan through the pipeline, then the analysis (when anything was recorded) and the report. */
    static int execute(ExperimentPlan plan, PipelineOptions options, boolean recorded) {
        return execute(plan, options, recorded, null);
    }

    static int execute(ExperimentPlan plan, PipelineOptions options, boolean recorded, RunRecord extending) {
        if (plan.precision().budget() != null && plan.precision().budget().toSeconds() < plan.blockSeconds()) {
            throw new IllegalArgumentException(String.format(java.util.Locale.ROOT, "--budget %s is less than one"
                    + " more JVM start of a variant (about %d min by the plan's estimate)",
                    plan.precision().budget(), Math.round(plan.blockSeconds() / 60.0)));
        }
        EngineTarget target = options.engineTarget(System.getenv()); // fail fast, before anything is made
        if (target.remote()) {
            System.out.println("Services on " + target.describe());
        }
        EngineTarget loadHost = options.loadTarget(target);
        if (loadHost != null) {
            System.out.println("k6 in a container on " + loadHost.describe());
        }
        Path labHome = LabHome.find();
        Path javaHome = Path.of(System.getProperty("java.home"));
        Path settings = options.jfrSettings(labHome);
        Path dir = new Experiment(plan, labHome, options.output.isAbsolute() ? options.output
                : labHome.resolve(options.output), javaHome, options.engine, target, loadHost, settings, extending).run();
        int analysed = 0;
        long analysing = System.nanoTime();
        if (!recorded) {
            System.out.println("Thread analysis: none (no recorded windows)");
        } else {
            analysed = Analyze.analyse(dir);
        }
        long reporting = System.nanoTime();
        int reported = ReportCommand.report(dir);
        Map<String, Double> after = new LinkedHashMap<>();
        after.put("thread analysis", (reporting - analysing) / 1e9);
        after.put("report", (System.nanoTime() - reporting) / 1e9);
        RunManifest manifest;
        try {
            manifest = RunRecord.read(dir).manifest();
        } catch (java.io.IOException e) {
            System.err.println("experiment: cannot read back " + dir + " to say where the time went: " + e.getMessage());
            return 1;
        }
        System.out.println(TimeSpent.line(TimeSpent.of(manifest, after)));
        List<String> lost = manifest.lostPoints();
        if (!lost.isEmpty()) {
            System.err.printf(java.util.Locale.ROOT, "experiment: %d point%s not measured (each named in the report's"
                    + " checks, with why): %s%n", lost.size(), lost.size() == 1 ? "" : "s", String.join("; ", lost));
        }
        return exitCode(manifest, analysed, reported);
    }

    /** A run that ended with points it could not measure is no success, even with the rest of it written. */
    static final int POINTS_LOST = 3;

    /**
     * 0 when everything planned was measured, analysed and reported; 1 when the analysis or the report failed;
     * {@value #POINTS_LOST} when the run went on past points it could not measure (a step past its ceiling, a
     * service or k6 that stopped answering), so that a script or CI sees it without reading the report.
     */
    static int exitCode(RunManifest manifest, int analysed, int reported) {
        int written = Math.max(analysed, reported);
        if (written != 0) {
            return written;
        }
        return manifest.lostPoints().isEmpty() ? 0 : POINTS_LOST;
    }

    @Command(name = "analyze", mixinStandardHelpOptions = true,
            description = {"Thread-behaviour analysis of JFR recordings: per thread group (worker pool, event loops, "
                    + "virtual threads, carriers, ...) socket I/O, parks, CPU samples, pinning; verdicts per variant; "
                    + "a thread-lane picture per variant. Runs by itself at the end of `run`.",
                    "Writes analysis.json, analysis.md and lanes-<variant>.svg/.png into the results directory "
                            + "(or <recording>.analysis.* beside a single recording), only when it read a recording."})
    static final class Analyze implements Callable<Integer> {

        @Parameters(paramLabel = "RESULTS_DIR|RECORDING.jfr", description = "A results directory or one recording.")
        Path target;

        @Option(names = "--delay-port", paramLabel = "PORT", description = "The delay service's port, which marks "
                + "downstream socket I/O (default: 8090).")
        int delayPort = Experiment.DELAY_PORT;

        @Option(names = "--database-port", paramLabel = "PORT", description = "The database's port, which marks "
                + "its socket I/O, where the run's manifest does not name it (default: " + LabDatabase.PORT + ").")
        int databasePort = LabDatabase.PORT;

        @Override
        public Integer call() {
            if (!Files.exists(target)) {
                throw new IllegalArgumentException("no such results directory or recording: " + target);
            }
            return analyse(target, delayPort, databasePort);
        }

        static int analyse(Path target) {
            return analyse(target, Experiment.DELAY_PORT, LabDatabase.PORT);
        }

        /** Exit 0 when every recording was analysed, 1 when any could not be (the others are still written). */
        static int analyse(Path target, int delayPort, int databasePort) {
            ThreadAnalysis.Outcome outcome = new ThreadAnalysis(delayPort, databasePort).analyse(target);
            outcome.failures().forEach(f -> System.err.println("experiment analyze: " + f));
            if (outcome.analyses().isEmpty()) {
                System.err.println("experiment analyze: nothing written: no recording could be read");
                return 1;
            }
            System.out.println();
            System.out.print(ThreadAnalysis.table(outcome.analyses()));
            outcome.lanes().values().forEach(svg -> System.out.println("Thread lanes: " + svg));
            System.out.println(JmcTiming.line(outcome.jmc()));
            System.out.println("Analysis: " + outcome.markdown() + " and " + outcome.json());
            return outcome.failures().isEmpty() ? 0 : 1;
        }
    }

    @Command(name = "report", mixinStandardHelpOptions = true,
            description = {"Statistics and charts of a results directory: report.md and a self-contained report.html "
                    + "(no network needed to open it), plus charts/*.svg. Needs no running service. Runs by itself at "
                    + "the end of `run` and `map`."})
    static final class ReportCommand implements Callable<Integer> {

        @Parameters(paramLabel = "RESULTS_DIR", description = "A results directory written by `run` or `map`.")
        Path dir;

        @Override
        public Integer call() {
            if (!Files.isDirectory(dir)) {
                throw new IllegalArgumentException("no such results directory: " + dir);
            }
            return report(dir);
        }

        static int report(Path dir) {
            try {
                Report.Written written = Report.write(dir);
                System.out.println("Report: " + written.html() + " (and " + written.markdown().getFileName() + ")");
                return 0;
            } catch (java.io.IOException | RuntimeException e) { // a report that cannot be made is no usage error
                System.err.println("experiment report: " + e.getMessage());
                return 1;
            }
        }
    }
}
