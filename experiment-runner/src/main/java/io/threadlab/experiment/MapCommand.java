package io.threadlab.experiment;

import io.threadlab.experiment.plan.PrecisionGoal;
import io.threadlab.experiment.plan.Defaults;
import io.threadlab.experiment.plan.ExperimentPlan;
import io.threadlab.experiment.plan.Knobs;
import io.threadlab.experiment.plan.OpenModel;
import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.Grid;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code ./experiment map}: the regime map, through the same pipeline as run. */
@Command(name = "map", mixinStandardHelpOptions = true, sortOptions = false,
        modelTransformer = MapCommand.Axes.class,
        description = {"The regime map: every variant at every point of a grid of users and downstream delays, "
                + "each ceiling (CPU, workers, connections, users) predicted from first principles and shown "
                + "beside the measurement; the open model at every delay, with its SLO capacity. Same pipeline "
                + "and results layout as run.",
                "Defaults: the three models, " + Defaults.MAP_DELAYS + " ms x " + Defaults.MAP_LEVELS
                        + " users, one JVM start, one window per point."})
final class MapCommand implements Callable<Integer> {

    /** The axes' options, with the map's own defaults: its grid, and a pool that never caps its users. */
    static final class Axes implements CommandLine.IModelTransformer {
        @Override
        public CommandLine.Model.CommandSpec transform(CommandLine.Model.CommandSpec spec) {
            AxisOptions.addTo(spec, AxisOptions.Command.MAP, Map.of(Axis.USERS, Defaults.MAP_LEVELS,
                    Axis.DELAY_MS, Defaults.MAP_DELAYS, Axis.POOL_SIZE, "the largest number of users times the"
                            + " largest --fan-out, so that the pool never caps them"));
            return spec;
        }
    }

    @Mixin
    PipelineOptions options;

    @Option(names = "--quick", description = "A smoke map: " + "20,200 users x 1,100 ms, short windows.")
    boolean quick;

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
        return Pipeline.execute(plan(), options, recorded && !options.noJfr);
    }

    ExperimentPlan plan() {
        options.requireEngine();
        Defaults defaults = quick ? Defaults.QUICK_MAP : Defaults.MAP;
        PlanAxes axes = options.axes();
        if (axes.has(Axis.REQUESTS)) {
            throw new IllegalArgumentException("--requests: the map draws the closed model's regimes; a burst is"
                    + " ./experiment run --shape burst");
        }
        List<Integer> users = axes.users(Defaults.integers(defaults.levels())).stream().sorted().toList();
        // By default the pool never caps the users, nor their parallel calls: the most users × the most calls.
        int top = users.getLast() * axes.mostCalls();
        Knobs knobs = axes.knobs(top, options.confineDelayService);
        OpenModel open = noOpenModel ? OpenModel.NONE : new OpenModel(List.of(), openShares != null ? openShares
                : Defaults.decimals(defaults.openShares()), PipelineOptions.or(openStepSeconds,
                defaults.openStepSeconds()));
        Grid grid = axes.grid(users, (axes.delays() != null ? axes.delays() : Defaults.integers(defaults.delays()))
                .stream().sorted().toList());
        return new ExperimentPlan(ExperimentPlan.Mode.MAP, options.chosenVariants(), axes.setups(top), grid,
                options.timing(defaults), new ExperimentPlan.Repeats(1, 1),
                options.warmUp(defaults, quick, knobs.cpuQuota()), open, recorded && !options.noJfr, null,
                !options.engine.equals("compose"), knobs, PrecisionGoal.NONE, options.placement(),
                options.calibration(defaults));
    }
}
