package io.threadlab.experiment.collect;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * results.csv (one row per measured window) and results.json (the windows, plus each JVM's warm-up and time-to-peak
 * traces), rewritten after every step so an aborted run keeps all it measured.
 */
public final class ResultsWriter {

    private final Path dir;
    private final List<WindowResult> rows = new ArrayList<>();
    private final List<WarmUpResult> warmUps = new ArrayList<>();
    private final List<WarmUpResult> timesToPeak = new ArrayList<>();

    public ResultsWriter(Path dir) {
        this.dir = dir;
    }

    /** Goes on writing an earlier run's results ({@code --extend}): what it measured is kept, first and unchanged. */
    public static ResultsWriter extending(Path dir, RunResults earlier) {
        ResultsWriter writer = new ResultsWriter(dir);
        writer.rows.addAll(earlier.windows());
        writer.warmUps.addAll(earlier.warmUps());
        writer.timesToPeak.addAll(earlier.timeToPeak());
        return writer;
    }

    public synchronized void add(WindowResult row) {
        rows.add(row);
        write();
    }

    public synchronized void warmUp(WarmUpResult outcome) {
        warmUps.add(outcome);
        write();
    }

    /** The windows measured so far, in order: what precision on demand judges. */
    public synchronized List<WindowResult> windows() {
        return List.copyOf(rows);
    }

    public synchronized void timeToPeak(WarmUpResult outcome) {
        timesToPeak.add(outcome);
        write();
    }

    private void write() {
        StringBuilder csv = new StringBuilder(String.join(",", Columns.names())).append('\n');
        for (WindowResult row : rows) {
            csv.append(Columns.values(row).stream().map(ResultsWriter::cell).collect(Collectors.joining(",")))
                    .append('\n');
        }
        try {
            Files.writeString(dir.resolve("results.csv"), csv);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Json.write(dir.resolve("results.json"), new RunResults(rows, warmUps, timesToPeak));
    }

    private static String cell(Object value) {
        if (value == null) {
            return "";
        }
        if (value instanceof Double d) {
            return d.isNaN() ? "" : String.format(Locale.ROOT, "%.3f", d);
        }
        String s = String.valueOf(value);
        return s.contains(",") || s.contains("\"") ? "\"" + s.replace("\"", "\"\"") + "\"" : s;
    }
}
