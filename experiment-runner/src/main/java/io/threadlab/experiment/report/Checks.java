package io.threadlab.experiment.report;

import io.threadlab.experiment.collect.RunManifest;
import io.threadlab.experiment.collect.WarmUpResult;
import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.Knobs;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The validity checks: whether the run measured what it meant to, each with the numbers it was judged on. The checks
 * of the warm-up, of the spread and of the headroom are classes of their own; the order is the report's.
 */
final class Checks {

    /** The lab's targets for a whole run and a map on 2 cores, printed beside the measured time; never asserted. */
    static final double TARGET_RUN_MINUTES = 15;
    static final double TARGET_MAP_MINUTES = 30;

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
        checks.add(duration(run));
        checks.add(pointsMeasured(run));
        checks.add(stepsWithinCeilings(run));
        RunManifest m = run.manifest();
        checks.add(Check.of("Run completed", m.completed(), "status " + (m.status() != null ? m.status()
                : "unknown") + (m.failure() != null ? ": " + m.failure() : "")));
        return checks;
    }

    /**
     * The points the runner gave up on, as it warned of them. A run that stopped early warned of none after its
     * failure, so without a warning it has not shown that every point was measured.
     */
    static Check pointsMeasured(Run run) {
        String name = "Every planned point was measured";
        RunManifest m = run.manifest();
        List<String> lost = m.lostPoints();
        if (!lost.isEmpty()) {
            return Check.of(name, false, lost.size() + " lost: " + String.join("; ", lost));
        }
        return m.completed() ? Check.of(name, true, "no point lost") : Check.notMeasured(name, "the run did not"
                + " complete, and what it planned after it stopped was never tried");
    }

    /**
     * Each step against its ceiling, and against its services stopping to answer (both end a step, not the run); a
     * manifest without the schedule as run has no step to judge.
     */
    static Check stepsWithinCeilings(Run run) {
        String name = "Every step ended by itself: within its ceiling, its services answering";
        List<RunManifest.StepAsRun> steps = run.manifest().scheduleAsRun();
        if (steps.isEmpty()) {
            return Check.notMeasured(name, "the manifest recorded no schedule as run");
        }
        List<String> timedOut = steps.stream().filter(s -> s.outcome() != null).map(s -> s.what() + ": "
                + s.outcome()).toList();
        return Check.of(name, timedOut.isEmpty(), timedOut.isEmpty() ? steps.size() + " steps, each within its"
                + " ceiling" : String.join("; ", timedOut));
    }

    /** A run's target (a map's is twice as long); not measured for a run that recorded no schedule. */
    static Check duration(Run run) {
        double target = "map".equals(run.plan().mode()) ? TARGET_MAP_MINUTES : TARGET_RUN_MINUTES;
        String name = "The " + ("map".equals(run.plan().mode()) ? "map" : "run") + " took at most " + (int) target
                + " min";
        if (run.manifest().scheduleAsRun().isEmpty()) {
            return Check.notMeasured(name, "the manifest recorded no schedule as run");
        }
        double minutes = runMinutes(run.manifest());
        return Check.of(name, minutes <= target, String.format(Locale.ROOT, "%.1f min from the first step to the last"
                + " (build excluded)%s", minutes, run.manifest().extensions().isEmpty() ? ""
                : "; extensions not counted"));
    }

    /**
     * Each window against its own JVM's quota (a map over several --cpus has several), and the JVMs' processors:
     * none of it measured where nothing was confined.
     */
    static Check confinement(Run run) {
        RunManifest.Confinement c = run.confinement();
        String name = "Confinement held";
        if (!c.limitsCpu()) {
            return Check.of(name, false, "NOT CONFINED: variants ran on the whole machine ("
                    + run.manifest().warnings() + ")");
        }
        if (run.windows().isEmpty()) {
            return Check.notMeasured(name, "no window was measured");
        }
        List<String> over = run.windows().stream().filter(w -> Boolean.FALSE.equals(w.cpu().confinementHeld())
                || w.cpu().cpuCores() > w.at().get(Axis.CPUS) * (1 + Knobs.QUOTA_TOLERANCE))
                .map(w -> String.format(Locale.ROOT, "%s used %.2f CPU of its %s", run.name(w), w.cpu().cpuCores(),
                        Numbers.quota(w.at().get(Axis.CPUS)))).toList();
        List<String> cpus = run.warmUps().stream().map(w -> w.jvm() + "=" + (w.before("availableProcessors") != null
                ? w.before("availableProcessors") : "?")).toList();
        List<String> sized = run.warmUps().stream().filter(w -> w.before("availableProcessors") != null
                && !w.before("availableProcessors").equals((int) Math.ceil(w.quota()))).map(WarmUpResult::jvm)
                .toList();
        WindowResult busiest = run.windows().stream().max(java.util.Comparator.comparingDouble(w -> w.cpu().cpuCores()
                / w.at().get(Axis.CPUS))).orElseThrow();
        return Check.of(name, over.isEmpty() && sized.isEmpty(), String.format(Locale.ROOT, "method %s; %d of %d"
                        + " windows within their JVM's quota (+%.0f %%), the busiest used %.2f CPU of %.2f%s;"
                        + " availableProcessors %s%s", c.method(), run.windows().size() - over.size(),
                run.windows().size(), Knobs.QUOTA_TOLERANCE * 100, busiest.cpu().cpuCores(),
                busiest.at().get(Axis.CPUS), over.isEmpty() ? "" : "; OVER: " + String.join(", ", over), cpus,
                sized.isEmpty() ? "" : "; SIZED TO THE MACHINE, NOT ITS QUOTA: " + sized));
    }

    /** Minutes from the first step's start to the last step's end, as the manifest recorded them. */
    static double runMinutes(RunManifest manifest) {
        return manifest.scheduleAsRun().stream().mapToDouble(s -> s.startedAtSeconds() + s.seconds()).max()
                .orElse(0) / 60;
    }
}
