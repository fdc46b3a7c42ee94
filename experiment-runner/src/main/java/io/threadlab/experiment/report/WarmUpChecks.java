package io.threadlab.experiment.report;

import io.threadlab.experiment.collect.WarmUpResult;
import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.plan.WarmUpPolicy;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Whether every JVM was at its peak before it was measured, and stayed there: the compiler's checks. */
final class WarmUpChecks {

    private static final String QUIET = Numbers.pct(WarmUpPolicy.COMPILER_QUIET_SHARE);

    private WarmUpChecks() {
    }

    static List<Check> of(Run run) {
        List<String> unfinished = new ArrayList<>();
        List<String> warmUps = new ArrayList<>();
        List<String> changed = new ArrayList<>();
        for (WarmUpResult w : run.warmUps()) {
            warmUps.add(String.format(Locale.ROOT, "%s %.0f s", w.jvm(), w.seconds()));
            if (!w.finished()) {
                List<String> why = w.levels().stream().filter(l -> !l.finished())
                        .map(l -> l.users() + " users: " + l.reason()).toList();
                unfinished.add(w.jvm() + " (" + String.join("; ", why) + ")");
            }
            if (!w.ergonomicsChanged().isEmpty()) {
                changed.add(w.jvm() + " " + w.ergonomicsChanged());
            }
        }
        List<String> busy = new ArrayList<>();
        for (WindowResult w : run.windows()) {
            if (w.compiler().compilerShare() > WarmUpPolicy.COMPILER_QUIET_SHARE) {
                busy.add(String.format(Locale.ROOT, "%s (%.1f %%)", run.name(w), w.compiler().compilerShare() * 100));
            }
        }
        String finished = "Every JVM's compiler finished before its first window";
        String boost = "The warm-up's boost changed nothing the JVM sized at the quota";
        String quiet = "The compiler stayed quiet in every measured window";
        boolean sized = run.warmUps().stream().anyMatch(w -> !w.runtimeBefore().isEmpty() && !w.runtimeAfter()
                .isEmpty());
        return List.of(
                warmUps.isEmpty() ? Check.notMeasured(finished, "no warm-up was recorded")
                        : Check.of(finished, unfinished.isEmpty(), (unfinished.isEmpty()
                        ? "compile queue empty and compiler threads at most " + QUIET
                        + " of the quota at every level, after " : "NOT FINISHED: " + unfinished + "; ")
                        + String.join(", ", warmUps)),
                !sized ? Check.notMeasured(boost, "no JVM reported its sizes before and after its warm-up")
                        : Check.of(boost, changed.isEmpty(), changed.isEmpty() ? "availableProcessors, event"
                        + " loops, worker maximum, carrier parallelism, heap and GC identical before and after the"
                        + " boost to " + Numbers.quota(run.confinement().warmUpCpuQuota()) + " CPUs, in every JVM"
                        : "CHANGED: " + changed),
                run.windows().isEmpty() ? Check.notMeasured(quiet, "no window was measured")
                        : Check.of(quiet, busy.isEmpty(), busy.isEmpty()
                        ? "compiler threads used at most " + QUIET + " of the quota in every one of "
                        + run.windows().size() + " windows"
                        : busy.size() + " windows above " + QUIET + ": " + String.join(", ", busy)));
    }
}
