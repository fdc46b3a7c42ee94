package io.threadlab.experiment.report;

import io.threadlab.experiment.collect.RunManifest;
import io.threadlab.experiment.collect.WindowResult;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The validity checks: whether the run measured what it meant to, each with the numbers it was judged on. The checks
 * of the warm-up, of the spread and of the headroom are classes of their own; the order is the report's.
 */
final class Checks {

    /** The target for a whole run, printed beside the measured time; never asserted. */
    static final double TARGET_RUN_MINUTES = 15;

    record Check(String name, boolean passed, String detail) {
    }

    private Checks() {
    }

    static List<Check> of(Run run, List<Cell> cells, Ratios ratios) {
        List<Check> checks = new ArrayList<>();
        checks.add(confinement(run));
        checks.addAll(WarmUpChecks.of(run));
        checks.addAll(SpreadChecks.of(run, cells, ratios));
        checks.addAll(HeadroomChecks.of(run));
        checks.add(Failures.check(run));
        checks.add(StalledWindows.check(run));
        double minutes = runMinutes(run.manifest());
        checks.add(new Check("The run took at most " + (int) TARGET_RUN_MINUTES + " min",
                minutes <= TARGET_RUN_MINUTES, String.format(Locale.ROOT,
                "%.1f min from the first step to the last (build excluded)", minutes)));
        RunManifest m = run.manifest();
        List<String> lost = m.warnings().stream().filter(w -> w.startsWith(RunManifest.POINT_LOST))
                .map(w -> w.substring(RunManifest.POINT_LOST.length())).toList();
        checks.add(new Check("Every planned point was measured", lost.isEmpty(), lost.isEmpty()
                ? "no point lost" : lost.size() + " lost: " + String.join("; ", lost)));
        checks.add(new Check("Run completed", m.completed(), "status " + (m.status() != null ? m.status() : "unknown")
                + (m.failure() != null ? ": " + m.failure() : "")));
        return checks;
    }

    private static Check confinement(Run run) {
        RunManifest.Confinement c = run.confinement();
        double busiest = run.windows().stream().mapToDouble(WindowResult::cpuCores).max().orElse(0);
        List<String> cpus = run.warmUps().stream().map(w -> w.jvm() + "=" + (w.before("availableProcessors") != null
                ? w.before("availableProcessors") : "?")).toList();
        return new Check("Confinement held", c.limitsCpu() && busiest <= c.variantCpuQuota() * 1.05, c.limitsCpu()
                ? String.format(Locale.ROOT, "method %s, quota %.2f CPU; busiest window used %.2f CPU;"
                + " availableProcessors %s", c.method(), c.variantCpuQuota(), busiest, cpus)
                : "NOT CONFINED: variants ran on the whole machine (" + run.manifest().warnings() + ")");
    }

    /** Minutes from the first step's start to the last step's end, as the manifest recorded them. */
    static double runMinutes(RunManifest manifest) {
        return manifest.scheduleAsRun().stream().mapToDouble(s -> s.startedAtSeconds() + s.seconds()).max()
                .orElse(0) / 60;
    }
}
