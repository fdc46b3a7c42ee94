package io.threadlab.experiment.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code report}: report.md and a self-contained report.html (inline SVG and CSS, no network) from a results
 * directory, both rendered from one {@link ReportModel}. Needs no running service. Charts are also written to
 * {@code charts/*.svg}, for the markdown.
 */
public final class Report {

    public record Written(Path markdown, Path html) {
    }

    private Report() {
    }

    /** Refuses a directory with a missing or malformed file, with the file and the field at fault. */
    public static Written write(Path dir) throws IOException {
        ReportModel model = ReportModel.of(Run.read(dir));
        Path charts = Files.createDirectories(dir.resolve("charts"));
        for (Charts.Figure chart : model.charts().all()) {
            Files.writeString(charts.resolve(chart.name() + ".svg"), chart.svg());
        }
        Written written = new Written(dir.resolve("report.md"), dir.resolve("report.html"));
        Files.writeString(written.markdown(), Templates.markdown(model));
        Files.writeString(written.html(), Templates.html(model));
        return written;
    }
}
