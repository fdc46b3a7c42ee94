package io.threadlab.experiment;

import io.threadlab.experiment.collect.Manifest;
import io.threadlab.experiment.collect.ResultsWriter;
import io.threadlab.experiment.collect.RunManifest;
import io.threadlab.experiment.plan.ExperimentPlan;
import io.threadlab.experiment.plan.PrecisionGoal;
import io.threadlab.experiment.plan.Step;
import io.threadlab.experiment.progress.Console;
import io.threadlab.experiment.report.HeadlineRatios;
import io.threadlab.experiment.report.Precision;

import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * Precision on demand: after the planned JVM starts, one more JVM start of every variant at a time, its repetitions
 * interleaved, until every headline ratio is decided (its interval excludes 1) and within the asked half-width, or
 * the next block would overrun the budget, or the JVM starts reach their ceiling. Each decision is taken on the
 * statistics the report shows; the manifest says which stop ended it, with every ratio as it stood.
 */
final class PrecisionOnDemand {

    private final ExperimentPlan plan;
    private final ResultsWriter results;
    private final Manifest manifest;
    private final Console console;

    PrecisionOnDemand(ExperimentPlan plan, ResultsWriter results, Manifest manifest, Console console) {
        this.plan = plan;
        this.results = results;
        this.manifest = manifest;
        this.console = console;
    }

    /**
     * @param lastStart     the JVM start index measured last
     * @param startsMeasured how many JVM starts of every variant this process measured since {@code runStart} (the
     *                       plan's, or the one block an {@code --extend} begins with): the time of a block is learnt
     *                       from them
     * @param runStart      when the run began ({@link System#nanoTime()}), against which the budget counts
     * @return why it stopped
     */
    String extend(int lastStart, int startsMeasured, long runStart, Consumer<Step> perform) {
        PrecisionGoal goal = plan.precision();
        int start = lastStart;
        int blocks = 0;
        while (true) {
            List<HeadlineRatios.Ratio> ratios = HeadlineRatios.of(results.windows());
            double elapsedMinutes = (System.nanoTime() - runStart) / 6e10;
            double blockMinutes = blocks > 0 ? elapsedMinutes / (blocks + startsMeasured)
                    : Math.max(plan.blockSeconds() / 60.0, elapsedMinutes / Math.max(1, startsMeasured));
            String stop = stop(goal, ratios, start, elapsedMinutes, blockMinutes);
            int starts = start;
            manifest.precision(new RunManifest.PrecisionOutcome(goal.describe(), plan.jvmStarts(), start, stop,
                    ratios.stream().map(r -> line(r, goal, starts, blockMinutes)).toList()));
            if (stop != null) {
                console.say("Precision: stopped at " + start + " JVM starts: " + stop);
                return stop;
            }
            start++;
            blocks++;
            console.say(String.format(Locale.ROOT, "Precision: adding JVM start %d of every variant (about %.0f min):"
                    + " %d of %d headline ratios not yet decided%s", start, blockMinutes,
                    ratios.stream().filter(r -> !ok(r, goal)).count(), ratios.size(), goal.halfWidth() == null ? ""
                            : String.format(Locale.ROOT, " within ±%.0f %%", goal.halfWidth() * 100)));
            plan.block(start).forEach(perform);
        }
    }

    private static String stop(PrecisionGoal goal, List<HeadlineRatios.Ratio> ratios, int start, double elapsedMinutes,
                               double blockMinutes) {
        if (!ratios.isEmpty() && ratios.stream().allMatch(r -> ok(r, goal))) {
            return goal.halfWidth() == null ? "every headline ratio is decided"
                    : String.format(Locale.ROOT, "every headline ratio is decided and within ±%.0f %%",
                    goal.halfWidth() * 100);
        }
        if (start >= goal.maxJvmStarts()) {
            return "reached --max-jvm-starts " + goal.maxJvmStarts();
        }
        if (goal.budget() != null && elapsedMinutes + blockMinutes > goal.budget().toSeconds() / 60.0) {
            return String.format(Locale.ROOT, "the budget of %d min: %.0f min used, the next block needs about %.0f",
                    goal.budget().toMinutes(), elapsedMinutes, blockMinutes);
        }
        return null;
    }

    private static boolean ok(HeadlineRatios.Ratio r, PrecisionGoal goal) {
        return r.decided() && (goal.halfWidth() == null || r.within(goal.halfWidth()));
    }

    private static String line(HeadlineRatios.Ratio r, PrecisionGoal goal, int starts, double blockMinutes) {
        String need = ok(r, goal) ? "done" : Precision.toDecide(r.ratio(), starts, goal.halfWidth() == null ? 1
                : goal.halfWidth(), blockMinutes, 60).map(n -> n.words(starts)).orElse("cannot tell yet");
        return String.format(Locale.ROOT, "%s/%s at %d ms, %d users: %.2fx [%.2f-%.2f]; %s; %s", r.variant(),
                r.baseline(), r.delayMs(), r.users(), r.ratio().ratio(), r.ratio().low(), r.ratio().high(),
                r.direction().words(r.variant(), r.baseline()), need);
    }
}
