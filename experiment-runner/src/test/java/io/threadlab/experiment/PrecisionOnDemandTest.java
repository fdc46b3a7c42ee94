package io.threadlab.experiment;

import io.threadlab.experiment.collect.Manifest;
import io.threadlab.experiment.collect.ResultsWriter;
import io.threadlab.experiment.collect.RunManifest;
import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.Calibration;
import io.threadlab.experiment.plan.ExperimentPlan;
import io.threadlab.experiment.plan.Grid;
import io.threadlab.experiment.plan.Knobs;
import io.threadlab.experiment.plan.LoadPlacement;
import io.threadlab.experiment.plan.Point;
import io.threadlab.experiment.plan.OpenModel;
import io.threadlab.experiment.plan.PrecisionGoal;
import io.threadlab.experiment.plan.Step;
import io.threadlab.experiment.plan.Timing;
import io.threadlab.experiment.plan.Variant;
import io.threadlab.experiment.plan.WarmUpPolicy;
import io.threadlab.experiment.progress.Console;
import io.threadlab.experiment.report.HeadlineRatios;
import io.threadlab.experiment.report.Stats;
import io.threadlab.experiment.testing.Windows;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Precision on demand's stopping rule, on a run of imperative and reactive at 10 ms and 100 users, 2 JVM starts of 2
 * repetitions each: one headline ratio, reactive / imperative. Blocks are "measured" by adding the windows a script
 * gives each JVM start, and take the minutes the script says on a clock of the test's own: nothing here waits or
 * reads the wall clock.
 *
 * <p>Throughputs are 1000 or 2000 times powers of 1.1, so their logs differ by multiples of u = ln 1.1 = 0.0953102;
 * both repetitions of a JVM start are equal, so each side's variance is its JVM means' (see {@code StatsTest}).
 */
class PrecisionOnDemandTest {

    private static final double U = Math.log(1.1);
    private static final String IMP = "imperative";
    private static final String REA = "reactive";
    private static final long MINUTE = 60_000_000_000L;

    @TempDir
    Path dir;

    /**
     * What each JVM start of a variant measures, {@code base} times 1.1 to the start's exponent, and how many minutes
     * each block added takes.
     */
    private record Script(Map<String, Double> base, Map<String, List<Integer>> exponents, List<Integer> blockMinutes) {
        double rps(String variant, int start) {
            List<Integer> scripted = exponents.get(variant);
            if (start > scripted.size()) {
                throw new AssertionError("JVM start " + start + " of " + variant + " added, beyond the script");
            }
            return base.get(variant) * Math.pow(1.1, scripted.get(start - 1));
        }
    }

    /** Reactive twice imperative. */
    private static final Map<String, Double> TWICE = Map.of(IMP, 1000.0, REA, 2000.0);
    /** The two the same. */
    private static final Map<String, Double> SAME = Map.of(IMP, 1000.0, REA, 1000.0);

    /** A run that measured its planned JVM starts, and now extends by precision on demand on the test's clock. */
    private final class Run {
        final ExperimentPlan plan;
        final Script script;
        final ResultsWriter results = new ResultsWriter(dir);
        final Manifest manifest = new Manifest(dir);
        final List<String> added = new ArrayList<>();
        long now;

        Run(PrecisionGoal goal, Script script, long minutesSoFar) {
            this.plan = new ExperimentPlan(ExperimentPlan.Mode.RUN, List.of(Variant.IMPERATIVE, Variant.REACTIVE),
                    List.of(), Grid.of().and(Axis.USERS, List.of(100)).and(Axis.DELAY_MS, List.of(10)),
                    new Timing(10, 3, 40), new ExperimentPlan.Repeats(2, 2), WarmUpPolicy.boosted(2, 150, 90, false),
                    OpenModel.NONE, false, null, false, new Knobs(0.5, "512m", "Serial", 1000, 1000, 5000, 200, false),
                    goal,
                    LoadPlacement.SHARED, Calibration.NONE);
            this.script = script;
            for (String variant : List.of(IMP, REA)) {
                for (int start = 1; start <= 2; start++) {
                    for (int rep = 1; rep <= 2; rep++) {
                        results.add(Windows.closed(variant, 100, script.rps(variant, start)).jvm(start)
                                .repetition(2 * (start - 1) + rep).build());
                    }
                }
            }
            this.now = minutesSoFar * MINUTE;
        }

        /** The steps of a block as the runner would carry them out: its windows measured, its minutes gone. */
        void perform(Step step) {
            switch (step) {
                case Step.StartJvms start -> {
                    start.jvms().forEach(jvm -> added.add(jvm.id()));
                    now += script.blockMinutes().get(added.size() - 1) * MINUTE;
                }
                case Step.Measure m -> results.add(Windows.closed(m.window().variant().label(), m.window().users(),
                        script.rps(m.window().variant().label(), m.window().jvm().start()))
                        .jvm(m.window().jvm().start()).repetition(m.window().number()).build());
                default -> {
                }
            }
        }

        String extend() {
            return new PrecisionOnDemand(plan, results, manifest, new Console(), () -> now).extend(0, this::perform);
        }
    }

    private static PrecisionGoal goal(Double halfWidth, Integer budgetMinutes, int maxJvmStarts) {
        return new PrecisionGoal(halfWidth, budgetMinutes == null ? null : Duration.ofMinutes(budgetMinutes),
                maxJvmStarts);
    }

    // ---- every headline ratio decided ---------------------------------------------------------------------------

    /**
     * Reactive 2000 x 1.1^(0, 1), imperative 1000 x 1.1^(0, 1): the ratio is 2. Each side's JVM means have sd^2 =
     * u^2 / 2, the variance of their mean u^2 / 4, 1 df; pooled u^2 / 2, v = max(u^2 / 2 x (1/2 + 1/2), u^2 / 4 +
     * u^2 / 4) = u^2 / 2; t(2) = 4.303 -> half 4.303 x 0.0673945 = 0.290000 -> 2 x e^-+0.29 = 1.4966 .. 2.6729: decided
     * (above 1), a relative half-width of (2.6729 - 1.4966) / 2 / 2 = 29.4 %.
     */
    private static final Script DECIDED = new Script(TWICE, Map.of(IMP, List.of(0, 1), REA, List.of(0, 1)),
            List.of());

    @Test
    void whenEveryHeadlineRatioIsDecidedItAddsNothing() {
        Run run = new Run(goal(null, 600, 12), DECIDED, 40);
        HeadlineRatios.Ratio ratio = HeadlineRatios.of(run.results.windows()).getFirst();
        assertThat(ratio.ratio().low()).isCloseTo(1.4966, within(1e-4));
        assertThat(ratio.ratio().high()).isCloseTo(2.6729, within(1e-4));

        assertThat(run.extend()).isEqualTo("every headline ratio is decided");
        assertThat(run.added).isEmpty();
        RunManifest.PrecisionOutcome outcome = run.manifest.snapshot().precision();
        assertThat(outcome.stoppedBecause()).isEqualTo("every headline ratio is decided");
        assertThat(outcome.ratios()).singleElement().asString()
                .startsWith("reactive/imperative at 10 ms, 100 users: 2.00x [1.50-2.67] from 2 and 2 JVM starts")
                .endsWith("; done");
    }

    @Test
    void aHalfWidthAskedForMustBeReachedTooBeforeItStops() {
        // 29.4 % is within +-30 %: done
        assertThat(new Run(goal(0.30, 600, 12), DECIDED, 40).extend())
                .isEqualTo("every headline ratio is decided and within ±30 %");
        // but not within +-10 %: it would add a JVM start, which --max-jvm-starts 2 does not allow
        Run run = new Run(goal(0.10, 600, 2), DECIDED, 40);
        assertThat(run.extend()).isEqualTo("the variant to add reached --max-jvm-starts 2");
        assertThat(run.added).isEmpty();
    }

    /**
     * Reactive 2000 x 1.1^(-2, 2), imperative 1000 x 1.1^(0, 1): the ratio is 2 x 1.1^-0.5 = 1.90693.
     * Reactive: sd^2 8u^2, variance of the mean 4u^2, 1 df; imperative: u^2 / 4, 1 df. Pooled (8 + 0.5) u^2 / 2 =
     * 4.25u^2; v = max(4.25u^2, 4u^2 + u^2 / 4) = 4.25u^2; half 4.303 x 2.06155 u = 0.845494 -> 0.8187 .. 4.4415:
     * not decided. Reactive's mean is the less certain (4u^2 against u^2 / 4), so reactive's JVM start 3 is added, at
     * 2000 (exponent 0): its logs -2u, 2u, 0 have sd^2 4u^2, variance of the mean 4u^2 / 3, 2 df. Pooled (2 x 4 + 0.5)
     * u^2 / 3 = 2.83333u^2; v = max(2.83333u^2 x (1/3 + 1/2), 4u^2 / 3 + u^2 / 4) = 2.36111u^2; t(3) = 3.182 -> half
     * 3.182 x 1.536591 u = 0.466013 -> 1.1966 .. 3.0389: decided.
     */
    @Test
    void itAddsTheLessCertainSideUntilTheRatioIsDecided() {
        Script script = new Script(TWICE, Map.of(IMP, List.of(0, 1), REA, List.of(-2, 2, 0)),
                List.of(12));
        Run run = new Run(goal(null, 600, 12), script, 40);
        HeadlineRatios.Ratio before = HeadlineRatios.of(run.results.windows()).getFirst();
        assertThat(before.decided()).isFalse();
        assertThat(before.ratio().low()).isCloseTo(0.8187, within(1e-4));
        assertThat(before.sideToAdd()).isEqualTo(REA);

        assertThat(run.extend()).isEqualTo("every headline ratio is decided");
        assertThat(run.added).containsExactly("reactive-jvm3");
        HeadlineRatios.Ratio after = HeadlineRatios.of(run.results.windows()).getFirst();
        assertThat(after.ratio().low()).isCloseTo(1.1966, within(1e-4));
        assertThat(after.ratio().high()).isCloseTo(3.0389, within(1e-4));
        assertThat(run.results.windows()).hasSize(8 + 2); // the block's two repetitions
    }

    // ---- the variant it adds ------------------------------------------------------------------------------------

    /**
     * The two sides the same, 1000 x 1.1^(1, -1) each (the ratio exactly 1, never decided): whichever side's mean
     * is the less certain gets the next JVM start; on a tie the variant. With exponents 1, -1, 0, 0 in start order:
     * 2 starts each: sd^2 2u^2 over 2 on both sides, a tie -> reactive 3. Reactive's logs u, -u, 0 have sd^2 u^2, over
     * 3: u^2 / 3, against imperative's u^2 -> imperative 3. A tie again -> reactive 4: u, -u, 0, 0, sd^2 2u^2 / 3,
     * over 4: u^2 / 6, against u^2 / 3 -> imperative 4. A tie -> reactive 5, beyond --max-jvm-starts 4.
     */
    @Test
    void theSideWhoseMeanIsLessCertainIsAddedUntilMaxJvmStarts() {
        Script script = new Script(SAME, Map.of(IMP, List.of(1, -1, 0, 0), REA, List.of(1, -1, 0, 0)),
                List.of(10, 10, 10, 10));
        Run run = new Run(goal(null, 600, 4), script, 40);
        assertThat(run.extend()).isEqualTo("the variant to add reached --max-jvm-starts 4");
        assertThat(run.added).containsExactly("reactive-jvm3", "imperative-jvm3", "reactive-jvm4", "imperative-jvm4");
        assertThat(run.manifest.snapshot().precision().jvmStartsRun()).isEqualTo(4);
    }

    private static final Point AT_10_100 = Point.of(Axis.DELAY_MS, 10).with(Axis.USERS, 100);

    @Test
    void aSideWithOneJvmStartIsAddedFirstItsSpreadNotMeasured() {
        Stats.Ratio undecided = new Stats.Ratio(1.0, 0.5, 2.0, 2, Stats.Method.POOLED);
        assertThat(new HeadlineRatios.Ratio(REA, IMP, AT_10_100, undecided, List.of(2000.0),
                List.of(1000.0, 1100.0)).sideToAdd()).isEqualTo(REA);
        assertThat(new HeadlineRatios.Ratio(REA, IMP, AT_10_100, undecided, List.of(2000.0, 2200.0),
                List.of(1000.0)).sideToAdd()).isEqualTo(IMP);
        // both with one: the variant, as on any tie
        assertThat(new HeadlineRatios.Ratio(REA, IMP, AT_10_100, undecided, List.of(2000.0), List.of(1000.0))
                .sideToAdd()).isEqualTo(REA);
        // sd^2 of ln(1000, 1331) = (3u)^2 / 2 = 4.5u^2, over 2: 2.25u^2, against (u)^2 / 2 / 2 = 0.25u^2
        assertThat(new HeadlineRatios.Ratio(REA, IMP, AT_10_100, undecided, List.of(2000.0, 2200.0),
                List.of(1000.0, 1331.0)).sideToAdd()).isEqualTo(IMP);
    }

    // ---- the budget -------------------------------------------------------------------------------------------

    /**
     * A budget of 76 min, 40 of them gone. The first JVM start is judged on the plan's estimate of a block
     * ({@code blockSeconds}, under 2 min: 40 + 1.7 <= 76), and took 15 min; from then on the longest one measured
     * counts, even after two of 5 min: 55 + 15 = 70 <= 76, 60 + 15 = 75 <= 76, 65 + 15 = 80 > 76: it stops at 65 min
     * with three JVM starts added. Had it kept the plan's estimate, or the last block's 5 min, it would have gone on.
     */
    @Test
    void itStopsWhenOneMoreJvmStartOfTheLongestMeasuredWouldOverrunTheBudget() {
        Script script = new Script(SAME, Map.of(IMP, List.of(1, -1, 0, 0, 0), REA, List.of(1, -1, 0, 0, 0)),
                List.of(15, 5, 5, 5));
        Run run = new Run(goal(null, 76, 12), script, 40);
        assertThat(run.plan.blockSeconds()).isLessThan(120);
        assertThat(run.extend()).isEqualTo("the budget of 76 min: 65.0 min used, one more JVM start needs about 15.0");
        assertThat(run.added).containsExactly("reactive-jvm3", "imperative-jvm3", "reactive-jvm4");
    }

    @Test
    void noJvmStartIsAddedWhenThePlansOwnEstimateWouldOverrunTheBudget() {
        // 75 of 76 min gone: the plan's estimate of one block (over a minute: a warm-up alone is 53 s) does not fit
        Script script = new Script(SAME, Map.of(IMP, List.of(1, -1), REA, List.of(1, -1)),
                List.of());
        Run run = new Run(goal(null, 76, 12), script, 75);
        assertThat(run.plan.blockSeconds()).isGreaterThan(60);
        assertThat(run.extend()).startsWith("the budget of 76 min: 75.0 min used, one more JVM start needs about");
        assertThat(run.added).isEmpty();
    }

    // ---- what it says -----------------------------------------------------------------------------------------

    @Test
    void beforeAnythingStartsItSaysWhatTheBudgetMayAdd() {
        Run run = new Run(goal(null, 15, 12), new Script(SAME, Map.of(IMP, List.of(0, 0), REA, List.of(0, 0)),
                List.of()), 0);
        assertThat(PrecisionOnDemand.announce(run.plan)).contains("after the planned 2 JVM starts per variant",
                "more may be added one at a time", "within 15 min of the start", "--budget off");
    }

    @Test
    void aRatioWithoutAnIntervalSaysSoInsteadOfNaN() {
        Run run = new Run(goal(null, 15, 12), new Script(TWICE, Map.of(IMP, List.of(0, 0), REA, List.of(0, 0)),
                List.of()), 0);
        HeadlineRatios.Ratio measured = HeadlineRatios.of(run.results.windows()).getFirst();
        HeadlineRatios.Ratio alone = new HeadlineRatios.Ratio(measured.variant(), measured.baseline(), measured.at(),
                new Stats.Ratio(2.69, Double.NaN, Double.NaN, 1, measured.ratio().method()), List.of(2690.0),
                List.of(1000.0));
        assertThat(PrecisionOnDemand.ratio(alone)).isEqualTo("2.69x (no interval yet: one JVM start on a side)")
                .doesNotContain("NaN");
        assertThat(PrecisionOnDemand.ratio(measured)).matches("2\\.00x \\[\\d\\.\\d\\d-\\d\\.\\d\\d]");
    }
}
