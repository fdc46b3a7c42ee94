package io.threadlab.experiment;

import io.threadlab.experiment.collect.RunManifest;
import io.threadlab.experiment.collect.RunRecord;
import io.threadlab.experiment.plan.ExperimentPlan;
import io.threadlab.experiment.report.TimeSpent;
import io.threadlab.experiment.start.EngineTarget;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@code run} and {@code map} do once they have a plan: the experiment, its thread analysis and its report, and
 * the exit code that says how it went.
 */
final class Pipeline {

    private Pipeline() {
    }

    /** Runs a plan through the pipeline, then the analysis (when anything was recorded) and the report. */
    static int execute(ExperimentPlan plan, PipelineOptions options, boolean recorded) {
        return execute(plan, options, recorded, null);
    }

    static int execute(ExperimentPlan plan, PipelineOptions options, boolean recorded, RunRecord extending) {
        if (plan.precision().budget() != null && plan.precision().budget().toSeconds() < plan.blockSeconds()) {
            throw new IllegalArgumentException(String.format(java.util.Locale.ROOT, "--budget %s is less than one"
                    + " more JVM start of a variant (about %d min by the plan's estimate)",
                    plan.precision().budget(), Math.round(plan.blockSeconds() / 60.0)));
        }
        EngineTarget target = options.engineTarget(System.getenv()); // fail fast, before anything is made
        if (target.remote()) {
            System.out.println("Services on " + target.describe());
        }
        EngineTarget loadHost = options.loadTarget(target);
        if (loadHost != null) {
            System.out.println("k6 in a container on " + loadHost.describe());
        }
        Path labHome = LabHome.find();
        MachineFacts.requireHibernate(labHome, plan);
        Path javaHome = Path.of(System.getProperty("java.home"));
        Path settings = options.jfrSettings(labHome);
        Path dir = new Experiment(plan, labHome, options.output.isAbsolute() ? options.output
                : labHome.resolve(options.output), javaHome, options.engine, target, loadHost, settings, extending).run();
        int analysed = 0;
        long analysing = System.nanoTime();
        if (!recorded) {
            System.out.println("Thread analysis: none (no recorded windows)");
        } else {
            analysed = AnalyzeCommand.analyse(dir);
        }
        long reporting = System.nanoTime();
        int reported = ReportCommand.report(dir);
        Map<String, Double> after = new LinkedHashMap<>();
        after.put("thread analysis", (reporting - analysing) / 1e9);
        after.put("report", (System.nanoTime() - reporting) / 1e9);
        RunManifest manifest;
        try {
            manifest = RunRecord.read(dir).manifest();
        } catch (java.io.IOException e) {
            System.err.println("experiment: cannot read back " + dir + " to say where the time went: " + e.getMessage());
            return 1;
        }
        System.out.println(TimeSpent.line(TimeSpent.of(manifest, after)));
        List<String> lost = manifest.lostPoints();
        if (!lost.isEmpty()) {
            System.err.printf(java.util.Locale.ROOT, "experiment: %d point%s not measured (each named in the report's"
                    + " checks, with why): %s%n", lost.size(), lost.size() == 1 ? "" : "s", String.join("; ", lost));
        }
        return exitCode(manifest, analysed, reported);
    }

    /** A run that ended with points it could not measure is no success, even with the rest of it written. */
    static final int POINTS_LOST = 3;

    /**
     * 0 when everything planned was measured, analysed and reported; 1 when the analysis or the report failed;
     * {@value #POINTS_LOST} when the run went on past points it could not measure (a step past its ceiling, a
     * service or k6 that stopped answering), so that a script or CI sees it without reading the report.
     */
    static int exitCode(RunManifest manifest, int analysed, int reported) {
        int written = Math.max(analysed, reported);
        if (written != 0) {
            return written;
        }
        return manifest.lostPoints().isEmpty() ? 0 : POINTS_LOST;
    }
}
