package io.threadlab.experiment;

import io.threadlab.experiment.collect.Manifest;
import io.threadlab.experiment.collect.ResultsWriter;
import io.threadlab.experiment.collect.RunManifest;
import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.plan.ExperimentPlan;
import io.threadlab.experiment.plan.PrecisionGoal;
import io.threadlab.experiment.plan.Step;
import io.threadlab.experiment.plan.Variant;
import io.threadlab.experiment.progress.Console;
import io.threadlab.experiment.report.HeadlineRatios;
import io.threadlab.experiment.report.Precision;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Precision on demand: after the planned JVM starts, one more JVM start at a time — of the variant whose next start
 * narrows the furthest-from-done headline ratio most (the side of it with the larger variance of its mean, or with a
 * single JVM start) — until every headline ratio is decided (its interval excludes 1) and within the asked
 * half-width, or the next JVM start would overrun the budget, or the variant reaches the ceiling of JVM starts. Each
 * decision is taken on the statistics the report shows; the manifest says which stop ended it, with every ratio as
 * it stood.
 */
final class PrecisionOnDemand {

    private final ExperimentPlan plan;
    private final ResultsWriter results;
    private final Manifest manifest;
    private final Console console;
    /** {@link System#nanoTime()}, or a test's clock: the budget and the blocks' times are read from it alone. */
    private final LongSupplier nanoTime;

    PrecisionOnDemand(ExperimentPlan plan, ResultsWriter results, Manifest manifest, Console console) {
        this(plan, results, manifest, console, System::nanoTime);
    }

    PrecisionOnDemand(ExperimentPlan plan, ResultsWriter results, Manifest manifest, Console console,
                      LongSupplier nanoTime) {
        this.plan = plan;
        this.results = results;
        this.manifest = manifest;
        this.console = console;
        this.nanoTime = nanoTime;
    }

    /**
     * @param runStart when the run (or the extension) began (on the clock this was given), against which the
     *                 budget counts
     * @return why it stopped
     */
    String extend(long runStart, Consumer<Step> perform) {
        PrecisionGoal goal = plan.precision();
        // one more JVM start: the plan's estimate until one was measured, then the longest one measured
        double jvmMinutes = plan.blockSeconds() / 60.0;
        boolean measured = false;
        while (true) {
            List<HeadlineRatios.Ratio> ratios = HeadlineRatios.of(results.windows());
            double elapsedMinutes = (nanoTime.getAsLong() - runStart) / 6e10;
            Optional<HeadlineRatios.Ratio> furthest = ratios.stream().filter(r -> !ok(r, goal))
                    .max(Comparator.comparingDouble(PrecisionOnDemand::distance));
            Optional<Variant> next = furthest.map(r -> Variant.fromLabel(r.sideToAdd()));
            int nextStart = next.map(v -> starts(v.label()) + 1).orElse(0);
            String stop = stop(goal, ratios, furthest.isEmpty(), nextStart, elapsedMinutes, jvmMinutes);
            double minutes = jvmMinutes;
            manifest.precision(new RunManifest.PrecisionOutcome(goal.describe(), plan.jvmStarts(),
                    maxStarts(), stop, ratios.stream().map(r -> line(r, goal, minutes)).toList()));
            if (stop != null) {
                console.say("Precision: stopped: " + stop);
                return stop;
            }
            Variant variant = next.orElseThrow();
            HeadlineRatios.Ratio r = furthest.orElseThrow();
            console.say(String.format(Locale.ROOT, "Precision: adding JVM start %d of %s (about %.0f min): %s/%s at"
                            + " %s is %s, %d of %d headline ratios still to do",
                    nextStart, variant.label(), jvmMinutes, r.variant(), r.baseline(), r.where(), ratio(r),
                    ratios.stream().filter(x -> !ok(x, goal)).count(), ratios.size()));
            long blockStart = nanoTime.getAsLong();
            plan.block(nextStart, List.of(variant)).forEach(perform);
            double took = (nanoTime.getAsLong() - blockStart) / 6e10;
            jvmMinutes = measured ? Math.max(jvmMinutes, took) : took;
            measured = true;
        }
    }

    /** How far a ratio is from done: its interval's half-width over its distance from 1, on the log scale. */
    static double distance(HeadlineRatios.Ratio r) {
        if (Double.isNaN(r.ratio().low())) {
            return Double.POSITIVE_INFINITY;
        }
        double half = (Math.log(r.ratio().high()) - Math.log(r.ratio().low())) / 2;
        return half / Math.max(1e-9, Math.abs(Math.log(r.ratio().ratio())));
    }

    private int starts(String variant) {
        return results.windows().stream().filter(w -> w.variant().equals(variant)).mapToInt(WindowResult::jvm).max()
                .orElse(0);
    }

    private int maxStarts() {
        return results.windows().stream().mapToInt(WindowResult::jvm).max().orElse(0);
    }

    static String stop(PrecisionGoal goal, List<HeadlineRatios.Ratio> ratios, boolean allDone, int nextStart,
                       double elapsedMinutes, double jvmMinutes) {
        if (ratios.isEmpty()) {
            return "no headline ratio to decide (no imperative variant beside another model)";
        }
        if (allDone) {
            return goal.halfWidth() == null ? "every headline ratio is decided"
                    : String.format(Locale.ROOT, "every headline ratio is decided and within ±%.0f %%",
                    goal.halfWidth() * 100);
        }
        if (nextStart > goal.maxJvmStarts()) {
            return "the variant to add reached --max-jvm-starts " + goal.maxJvmStarts();
        }
        if (goal.budget() != null && elapsedMinutes + jvmMinutes > goal.budget().toSeconds() / 60.0) {
            return String.format(Locale.ROOT, "the budget of %d min: %.1f min used, one more JVM start needs about"
                    + " %.1f", goal.budget().toMinutes(), elapsedMinutes, jvmMinutes);
        }
        return null;
    }

    static boolean ok(HeadlineRatios.Ratio r, PrecisionGoal goal) {
        return r.decided() && (goal.halfWidth() == null || r.within(goal.halfWidth()));
    }

    private static String line(HeadlineRatios.Ratio r, PrecisionGoal goal, double jvmMinutes) {
        int starts = Math.min(r.variantJvmMeans().size(), r.baselineJvmMeans().size());
        String need = ok(r, goal) ? "done" : Precision.toDecide(r.ratio(), starts, goal.halfWidth() == null ? 1
                : goal.halfWidth(), 2 * jvmMinutes, 60).map(n -> n.words(starts)).orElse("cannot tell yet");
        return String.format(Locale.ROOT, "%s/%s at %s: %s from %d and %d JVM starts; %s; %s", r.variant(),
                r.baseline(), r.where(), ratio(r), r.variantJvmMeans().size(), r.baselineJvmMeans().size(),
                r.direction().words(r.variant(), r.baseline()), need);
    }

    /** "2.69x [2.10-3.44]"; with one JVM start on a side there is no interval, and it says so. */
    static String ratio(HeadlineRatios.Ratio r) {
        return Double.isNaN(r.ratio().low()) ? String.format(Locale.ROOT, "%.2fx (no interval yet: one JVM start"
                + " on a side)", r.ratio().ratio()) : String.format(Locale.ROOT, "%.2fx [%.2f-%.2f]",
                r.ratio().ratio(), r.ratio().low(), r.ratio().high());
    }

    /**
     * What precision on demand may add to the plan, said before anything starts: a user who asked for one JVM start
     * learns there and then that the budget may add more, and how to keep the plan as given.
     */
    static String announce(ExperimentPlan plan) {
        return String.format(Locale.ROOT, "Precision on demand: after the planned %d JVM start%s per variant, more"
                + " may be added one at a time, %s; --budget off runs the plan as given", plan.jvmStarts(),
                plan.jvmStarts() == 1 ? "" : "s", plan.precision().describe());
    }
}
