package io.threadlab.experiment.report;

import io.threadlab.experiment.collect.WarmUpResult;
import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.plan.Variant;
import io.threadlab.experiment.plan.WarmUpPolicy;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The notes that say how to read a table, each shown by its section in both formats; the variants and numbers in them
 * are the run's, and an explanation in them is there only where the run's data shows what it explains.
 */
final class Notes {

    private Notes() {
    }

    /** How the summary's medians and intervals were made. */
    static String summary() {
        return "Median over repetitions, with the " + Numbers.CONFIDENCE + " interval of the (geometric) mean in"
                + " brackets, computed on the log scale so it never reaches zero. The JVM start is a level: where JVM"
                + " starts differed more than their repetitions explain, the interval comes from the spread between"
                + " JVM means (few degrees of freedom, so wide); otherwise from the spread within them. CV: the"
                + " throughput's coefficient of variation over all repetitions.";
    }

    /** What a ratio against the baseline pairs. */
    static String ratios(Run run) {
        return "Ratios of the two variants' windows of the same repetition (" + apart(run) + "on the same JVM"
                + " start index), with the " + Numbers.CONFIDENCE + " interval of their geometric mean; the JVM start"
                + " is a level, as above. One repetition gives a ratio but no interval.";
    }

    /** What the control variant splits the baseline's difference from the models into. */
    static String split() {
        String baseline = Splits.baseline().label();
        String control = Variant.control().map(Variant::label).orElse("the control");
        List<String> models = Splits.models().stream().map(Variant::label).toList();
        String perModel = models.isEmpty() ? control + " / model" : control + " / " + models.getFirst()
                + (models.size() > 1 ? " (or / " + String.join(", / ", models.subList(1, models.size())) + ")" : "");
        return "The control variant, " + control + ", runs the " + baseline + " variant's code (a worker thread"
                + " blocked per call) on the stack of " + String.join(" and ", models) + " (Quarkus REST and"
                + " its Vert.x-based client). So " + baseline + " / " + control + " is what the classic stack"
                + " costs at the same threading model, and " + perModel + " is what the threading model"
                + " costs on the same stack; the two multiply to the total. The stack's share is its part of"
                + " the total on the log scale.";
    }

    /**
     * How far apart the windows a ratio pairs were measured: the longest span between the first and the last
     * variant's window of one repetition at one point, from their start times; nothing where they were not recorded.
     */
    static String apart(Run run) {
        Map<String, List<Instant>> byRepetition = new LinkedHashMap<>();
        List<String> main = run.mainVariants();
        for (WindowResult w : run.windows()) {
            if (w.recorded() || w.calibration() || run.point(w).isEmpty() || !main.contains(w.variant())
                    || w.window().startedAt() == null) {
                continue;
            }
            try {
                byRepetition.computeIfAbsent(w.delayMs() + "/" + w.users() + "/" + w.repetition(),
                        k -> new ArrayList<>()).add(Instant.parse(w.window().startedAt()));
            } catch (DateTimeParseException e) {
                // a start time this runner cannot read says nothing of the span
            }
        }
        long seconds = byRepetition.values().stream().filter(starts -> starts.size() > 1)
                .mapToLong(starts -> Duration.between(Collections.min(starts), Collections.max(starts)).toSeconds())
                .max().orElse(-1);
        if (seconds < 0) {
            return "";
        }
        return "measured at most " + (seconds < 120 ? seconds + " s" : Math.round(seconds / 60.0) + " min")
                + " apart, ";
    }

    /** How the JVMs were warmed up, as their warm-ups recorded it: boosted or not. */
    static String warmUp(Run run) {
        List<WarmUpResult> warmUps = run.warmUps();
        if (warmUps.isEmpty()) {
            return "No warm-up was recorded.";
        }
        String held = "each level was held at the quota until the compile queue stayed empty, the compiler threads"
                + " used at most " + Math.round(WarmUpPolicy.COMPILER_QUIET_SHARE * 100) + " % of the quota and the"
                + " throughput had no trend, or until its ceiling (the table says which).";
        String settle = " Before every window, load ran again until the compiler was quiet: an idle gap, or starting"
                + " and stopping a recording, makes HotSpot deoptimise and recompile.";
        List<WarmUpResult> boosted = warmUps.stream().filter(w -> w.boostCpus() > w.quota() && w.boostSeconds() > 0)
                .toList();
        if (boosted.isEmpty()) {
            return "Each JVM ran at the quota from its start, without a boost; " + held + settle;
        }
        double boost = boosted.stream().mapToDouble(WarmUpResult::boostCpus).max().orElseThrow();
        return "Each JVM first ran a few seconds at the quota, so that what sizes itself on first use did so at the"
                + " quota; then " + (boosted.size() == warmUps.size() ? "its quota was raised" : boosted.size()
                + " of " + warmUps.size() + " JVMs had their quota raised") + " to " + Numbers.quota(boost)
                + " CPUs while the compile queue drained; then " + held + " The JVM's sizes were read before and"
                + " after the boost (see the validity checks). The compiler's column: the CPU the JIT compiler's"
                + " threads used during the boost, and the time they spent ready to run with no CPU to run on (the"
                + " kernel's schedstat), each in ms a second; a compiler that waits long compiles slowly, and the"
                + " others runnable beside it are the JVM's own threads or other processes." + settle;
    }
}
