package io.threadlab.experiment;

import io.threadlab.experiment.report.Report;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code ./experiment report}: the report of a results directory, made again from its files. */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = {"Statistics and charts of a results directory: report.md and a self-contained report.html "
                + "(no network needed to open it), plus charts/*.svg. Needs no running service. Runs by itself at "
                + "the end of `run` and `map`."})
final class ReportCommand implements Callable<Integer> {

    @Parameters(paramLabel = "RESULTS_DIR", description = "A results directory written by `run` or `map`.")
    Path dir;

    @Override
    public Integer call() {
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException("no such results directory: " + dir);
        }
        return report(dir);
    }

    static int report(Path dir) {
        try {
            Report.Written written = Report.write(dir);
            System.out.println("Report: " + written.html() + " (and " + written.markdown().getFileName() + ")");
            return 0;
        } catch (java.io.IOException | RuntimeException e) { // a report that cannot be made is no usage error
            System.err.println("experiment report: " + e.getMessage());
            return 1;
        }
    }
}
