package io.threadlab.experiment.report;

import io.threadlab.experiment.plan.Variant;
import io.threadlab.experiment.plan.WarmUpPolicy;

import java.util.List;

/**
 * The notes that say how to read a table, shared by both templates; the variants and numbers in them are the run's,
 * and an explanation in them is there only where the run's data shows what it explains.
 */
record Notes(String summary, String ratios, String split, String contention, String warmUp) {

    static Notes of(Run run, List<Recorded> recorded) {
        String baseline = Splits.baseline().label();
        String control = Variant.control().map(Variant::label).orElse("the control");
        List<String> models = Splits.models().stream().map(Variant::label).toList();
        String perModel = models.isEmpty() ? control + " / model" : control + " / " + models.getFirst()
                + (models.size() > 1 ? " (or / " + String.join(", / ", models.subList(1, models.size())) + ")" : "");
        return new Notes(
                "Median over repetitions, with the 95 % interval of the (geometric) mean in brackets, computed on the"
                        + " log scale so it never reaches zero. The JVM start is a level: where JVM starts differed"
                        + " more than their repetitions explain, the interval comes from the spread between JVM means"
                        + " (few degrees of freedom, so wide); otherwise from the spread within them. CV: the"
                        + " throughput's coefficient of variation over all repetitions.",
                "Ratios of the two variants' windows of the same repetition (measured a minute apart, on the same JVM"
                        + " start index), with the 95 % interval of their geometric mean; the JVM start is a level, as"
                        + " above. One repetition gives a ratio but no interval.",
                "The control variant, " + control + ", runs the " + baseline + " variant's code (a worker thread"
                        + " blocked per call) on the stack of " + String.join(" and ", models) + " (Quarkus REST and"
                        + " its Vert.x-based client). So " + baseline + " / " + control + " is what the classic stack"
                        + " costs at the same threading model, and " + perModel + " is what the threading model"
                        + " costs on the same stack; the two multiply to the total. The stack's share is its part of"
                        + " the total on the log scale.",
                Contention.note(run, recorded),
                "Each JVM first ran a few seconds at the quota, so that what sizes itself on first use did so at the"
                        + " quota; then its quota was raised while its compile queue drained; then each level was held"
                        + " at the quota until the compile queue stayed empty, the compiler threads used at most "
                        + Math.round(WarmUpPolicy.COMPILER_QUIET_SHARE * 100) + " % of the quota and the throughput"
                        + " had no trend. The JVM's sizes were read before and after the boost (see the validity"
                        + " checks). Before every window, load ran again until the compiler was quiet: an idle gap, or"
                        + " starting and stopping a recording, makes HotSpot deoptimise and recompile.");
    }
}
