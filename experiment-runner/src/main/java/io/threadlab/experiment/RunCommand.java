package io.threadlab.experiment;

import io.threadlab.experiment.collect.PlanFacts;
import io.threadlab.experiment.collect.RunRecord;
import io.threadlab.experiment.load.K6;
import io.threadlab.experiment.load.WindowRunner;
import io.threadlab.experiment.plan.Burst;
import io.threadlab.experiment.plan.PrecisionGoal;
import io.threadlab.experiment.start.JavaCommand;
import io.threadlab.experiment.start.LabDatabase;
import io.threadlab.experiment.plan.Defaults;
import io.threadlab.experiment.plan.ExperimentPlan;
import io.threadlab.experiment.plan.Knobs;
import io.threadlab.experiment.plan.OpenModel;
import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.Grid;
import io.threadlab.experiment.plan.Variant;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code ./experiment run}: the experiment, from its plan to its report. */
@Command(name = "run", mixinStandardHelpOptions = true, sortOptions = false, modelTransformer = RunCommand.Axes.class,
        description = {"Run the experiment: each variant in its own CPU group at the quota, warmed up until its "
                + "compiler has finished, under k6 load, with recorded twins for the thread analysis. Writes "
                + "results/<UTC timestamp>/.",
                "Defaults: the three models x " + Defaults.JVM_STARTS + " JVM starts x " + Defaults.REPETITIONS
                        + " repetition x closed model at " + Defaults.LEVELS + " users, each JVM calibrated at "
                        + Defaults.CALIBRATION_LEVELS + " users (.env's delay, then "
                        + Defaults.CALIBRATION_MORE_DELAYS + " ms), recorded twins; more JVM starts until every"
                        + " headline ratio is decided, within " + Defaults.BUDGET + "."})
final class RunCommand implements Callable<Integer> {

    /** The axes' options, with run's own defaults of the users. */
    static final class Axes implements CommandLine.IModelTransformer {
        @Override
        public CommandLine.Model.CommandSpec transform(CommandLine.Model.CommandSpec spec) {
            AxisOptions.addTo(spec, AxisOptions.Command.RUN, Map.of(Axis.USERS, Defaults.LEVELS));
            return spec;
        }
    }

    @Mixin
    PipelineOptions options;

    @Option(names = "--quick", description = "A smoke run of the same pipeline: one JVM start, one repetition, short"
            + " windows and warm-ups (the compiler will not have finished). Explicit flags win.")
    boolean quick;

    @Option(names = "--mistakes", description = "Run the gallery of common mistakes, each beside the correct "
            + "variant it spoils (default for it: " + Defaults.MISTAKES_JVM_STARTS + " JVM start, "
            + Defaults.MISTAKES_REPETITIONS + " repetitions).")
    boolean mistakes;

    @Option(names = "--shape", paramLabel = "SHAPE", description = "closed: the closed model's users (--levels), with"
            + " the open model's steps; burst: seed 004's burst, --requests fired at once at each delay (default delays"
            + " for it: " + Defaults.BURST_DELAYS + " ms), and the time until the last answer (default: closed).")
    String shape = "closed";

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
            return Pipeline.execute(plan, options, !options.noJfr);
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
                plan.knobs().serviceSettings(JavaCommand.delayUrl(), LabDatabase.url()), plan.knobs().k6Environment());
        return Pipeline.execute(plan, options, !options.noJfr, earlier);
    }

    ExperimentPlan plan() {
        if (noOpen) {
            throw new IllegalArgumentException("--no-open is now --no-open-model: it skips the open model's steps"
                    + " (the runner never opens a browser)");
        }
        if (mistakes && options.variants != null) {
            throw new IllegalArgumentException("--mistakes chooses its own variants; use either it or --variants");
        }
        options.requireEngine();
        boolean burst = Burst.Shape.parse(shape) == Burst.Shape.BURST;
        Defaults defaults = defaults(burst);
        PlanAxes axes = options.axes();
        Knobs knobs = axes.knobs(null, options.confineDelayService);
        OpenModel open = noOpenModel || burst ? OpenModel.NONE : new OpenModel(openRates != null ? openRates
                : Defaults.integers(defaults.openRates()), List.of(),
                PipelineOptions.or(openStepSeconds, defaults.openStepSeconds()));
        Grid grid;
        if (burst) {
            List<Integer> requests = axes.requests() != null ? axes.requests() : List.of(Burst.SEED_REQUESTS);
            requireABurst(axes, knobs, requests);
            // seed 004's waits; a quick burst, .env's delay alone
            grid = axes.burstGrid(requests, axes.delays() != null ? axes.delays()
                    : quick ? axes.delaysOrDefault() : Defaults.integers(Defaults.BURST_DELAYS));
        } else if (axes.has(Axis.REQUESTS)) {
            throw new IllegalArgumentException("--requests sets a burst's size: it needs --shape burst");
        } else {
            grid = axes.grid(axes.users(Defaults.integers(defaults.levels())), axes.delaysOrDefault());
        }
        List<Variant> chosen = mistakes ? Variant.mistakesWithTheirReferences(grid) : options.chosenVariants();
        return new ExperimentPlan(ExperimentPlan.Mode.RUN, chosen, List.of(), grid, options.timing(defaults),
                new ExperimentPlan.Repeats(PipelineOptions.or(jvmStarts, defaults.jvmStarts()),
                        PipelineOptions.or(repetitions, defaults.repetitions())),
                options.warmUp(defaults, quick, knobs.cpuQuota()), open, !options.noJfr,
                timeToPeak ? new ExperimentPlan.TimeToPeak(timeToPeakMax) : null, !options.engine.equals("compose"),
                knobs, goal(defaults), options.placement(), options.calibration(defaults));
    }

    private Defaults defaults(boolean burst) {
        return quick ? Defaults.QUICK : mistakes ? Defaults.MISTAKES : burst ? Defaults.BURST : Defaults.RUN;
    }

    /**
     * What a burst refuses before anything starts: the closed model's and the open model's flags, what it is not
     * built for (the database, the fan-out, the gallery), and a burst larger than this machine's limits
     * ({@link BurstLimits}).
     */
    private void requireABurst(PlanAxes axes, Knobs knobs, List<Integer> requests) {
        List<String> refused = new java.util.ArrayList<>();
        if (axes.has(Axis.USERS)) {
            refused.add("--levels (the closed model's users)");
        }
        if (openRates != null || openStepSeconds != null) {
            refused.add("--open-rates and --open-step (the open model's)");
        }
        if (mistakes || timeToPeak || precision != null || extend != null
                || budget != null && !budget.equalsIgnoreCase("off")) {
            refused.add("--mistakes, --time-to-peak, --precision, --budget and --extend (the closed model's)");
        }
        if (axes.usesDatabase()) {
            refused.add("--downstream db (a burst waits on the delay service, as seed 004's did; not built for the"
                    + " database)");
        }
        if (axes.mostCalls() > 1) {
            refused.add("--fan-out (a burst's request makes one call; not built for more)");
        }
        if (!refused.isEmpty()) {
            throw new IllegalArgumentException("--shape burst fires --requests at once at each delay; it does not take "
                    + String.join(", ", refused));
        }
        requests.forEach(n -> BurstLimits.require(n, knobs.connectionPoolSize()));
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
