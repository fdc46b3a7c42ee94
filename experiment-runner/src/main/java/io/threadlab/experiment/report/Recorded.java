package io.threadlab.experiment.report;

import io.threadlab.experiment.analyse.AnalysisFile;
import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.Point;
import io.threadlab.experiment.plan.WindowId;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * A recording of the thread analysis beside the window it recorded: its results row (by the recording's file name),
 * and its point, from the row or, without one, from the window's name.
 *
 * @param label the runner's name for what was recorded: the variant, or the mistake. Not the analysis' variant,
 *              which takes a mistake's recording for the variant it spoils.
 */
record Recorded(AnalysisFile.Recording recording, String label, Optional<WindowResult> row, Optional<Point> point) {

    static List<Recorded> all(Run run) {
        return run.recordings().stream().map(r -> of(run, r)).toList();
    }

    private static Recorded of(Run run, AnalysisFile.Recording recording) {
        String file = recording.window() + ".jfr";
        Optional<WindowResult> row = run.windows().stream().filter(w -> w.window().jfrFile() != null
                && Path.of(w.window().jfrFile()).getFileName().toString().equals(file)).findFirst();
        String label = recording.label() != null ? recording.label() : recording.variant();
        if (row.isPresent()) {
            return new Recorded(recording, label, row, row.flatMap(run::point));
        }
        // no row (a recording analysed by itself): its point from its name; a name of runners up to d6f4758 has no
        // delay, which was the run's only one
        Optional<Point> point = WindowId.parse(recording.window()).filter(id -> !id.open() && !id.burst())
                .map(id -> id.at().only(Axis.Scope.WINDOW)).map(p -> p.has(Axis.DELAY_MS) || run.delays().isEmpty()
                        ? p : p.with(Axis.DELAY_MS, run.delays().getFirst()));
        return new Recorded(recording, label, row, point);
    }

    /** The recorded window's CPU per request: its results row, else what the analysis was given. */
    Optional<Double> cpuMsPerRequest() {
        if (row.isPresent() && row.get().cpu().cpuMsPerRequest() > 0) {
            return Optional.of(row.get().cpu().cpuMsPerRequest());
        }
        return Optional.ofNullable(recording.load()).map(AnalysisFile.Load::cpuByLayer).map(AnalysisFile.CpuByLayer::cpuMsPerRequest);
    }
}
