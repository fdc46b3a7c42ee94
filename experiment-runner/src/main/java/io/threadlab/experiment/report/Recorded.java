package io.threadlab.experiment.report;

import io.threadlab.experiment.analyse.AnalysisFile;
import io.threadlab.experiment.collect.WindowResult;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A recording of the thread analysis beside the window it recorded: its results row (by the recording's file name),
 * and its point, from the row or, without one, from the window's name.
 *
 * @param label the runner's name for what was recorded: the variant, or the mistake. Not the analysis' variant,
 *              which takes a mistake's recording for the variant it spoils.
 */
record Recorded(AnalysisFile.Recording recording, String label, Optional<WindowResult> row, Optional<Point> point) {

    /** variant[-setup][-delay ms]-closed-users[-jfr]-rep: format 2 names the delay, format 1 does not. */
    private static final Pattern CLOSED = Pattern.compile("(?:-(\\d+)ms)?-closed-(\\d+)(?:-jfr)?-\\d+$");

    static List<Recorded> all(Run run) {
        return run.recordings().stream().map(r -> of(run, r)).toList();
    }

    private static Recorded of(Run run, AnalysisFile.Recording recording) {
        String file = recording.window() + ".jfr";
        Optional<WindowResult> row = run.windows().stream().filter(w -> w.jfrFile() != null
                && Path.of(w.jfrFile()).getFileName().toString().equals(file)).findFirst();
        String label = recording.label() != null ? recording.label() : recording.variant();
        if (row.isPresent()) {
            return new Recorded(recording, label, row, row.flatMap(run::point));
        }
        Matcher name = CLOSED.matcher(recording.window());
        if (!name.find()) {
            return new Recorded(recording, label, row, Optional.empty());
        }
        int delay = name.group(1) != null ? Integer.parseInt(name.group(1))
                : run.delays().isEmpty() ? 0 : run.delays().getFirst();
        return new Recorded(recording, label, row,
                Optional.of(new Point(delay, Integer.parseInt(name.group(2)))));
    }

    /** The recorded window's CPU per request: its results row, else what the analysis was given. */
    Optional<Double> cpuMsPerRequest() {
        if (row.isPresent() && row.get().cpuMsPerRequest() > 0) {
            return Optional.of(row.get().cpuMsPerRequest());
        }
        return Optional.ofNullable(recording.cpuByLayer()).map(AnalysisFile.CpuByLayer::cpuMsPerRequest);
    }
}
