package io.threadlab.experiment.report;

import io.threadlab.experiment.collect.WindowResult;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Whether the instruments beside the variants kept up: the delay service at each delay, and k6. */
final class HeadroomChecks {

    private HeadroomChecks() {
    }

    static List<Checks.Check> of(Run run) {
        return List.of(delayService(run), k6(run));
    }

    /** Each delay against what the delay service served in the worst window at it. */
    private static Checks.Check delayService(Run run) {
        boolean kept = true;
        List<String> served = new ArrayList<>();
        for (int delay : run.delays()) {
            double worst = run.windows().stream().filter(w -> run.delay(w) == delay)
                    .mapToDouble(WindowResult::delayServedMeanMs).max().orElse(0);
            kept &= worst <= delay * 1.3 + 1;
            served.add(String.format(Locale.ROOT, "asked for %d ms, served %.1f ms on average in the worst window",
                    delay, worst));
        }
        double cpu = run.windows().stream().mapToDouble(w -> w.delayCpuSeconds() / seconds(w)).max().orElse(0);
        return new Checks.Check("Delay service had headroom", kept, String.join("; ", served)
                + String.format(Locale.ROOT, "; it used at most %.2f CPU", cpu));
    }

    /** k6's CPU against what the variant and the delay service left of the machine, and its dropped iterations. */
    private static Checks.Check k6(Run run) {
        // a manifest without the machine's cores: the lab's own machine, 2
        int cores = run.lab().machineCores() > 0 ? run.lab().machineCores() : 2;
        double worst = 0;
        double worstShare = 0;
        for (WindowResult w : run.windows()) {
            double k6 = w.k6CpuSeconds() / seconds(w);
            double room = cores - w.cpuCores() - w.delayCpuSeconds() / seconds(w);
            worst = Math.max(worst, k6);
            worstShare = Math.max(worstShare, k6 / Math.max(1e-9, room));
        }
        long dropped = run.windows().stream().filter(w -> w.scenario().startsWith("closed"))
                .mapToLong(WindowResult::droppedIterations).sum();
        return new Checks.Check("k6 had headroom", worstShare <= 0.8 && dropped == 0, String.format(Locale.ROOT,
                "k6 used at most %.2f CPU, %.0f %% of what was left to it; %d dropped iterations in closed-model"
                        + " windows", worst, worstShare * 100, dropped));
    }

    private static double seconds(WindowResult w) {
        return Math.max(1e-9, w.windowSeconds());
    }
}
