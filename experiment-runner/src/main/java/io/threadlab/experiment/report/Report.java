package io.threadlab.experiment.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code report}: report.md and a self-contained report.html (inline SVG and CSS, no network) from a results
 * directory, both rendered section by section ({@link ReportSections#ALL}). Needs no running service. Charts are also
 * written to {@code charts/*.svg}, for the markdown.
 */
public final class Report {

    public record Written(Path markdown, Path html) {
    }

    private Report() {
    }

    /** Refuses a directory with a missing or malformed file, with the file and the field at fault. */
    public static Written write(Path dir) throws IOException {
        return write(dir, ReportSections.ALL);
    }

    /** The report of these sections; every file is written only once all of them rendered. */
    static Written write(Path dir, List<Section> sections) throws IOException {
        ReportContext context = ReportContext.of(Run.read(dir), Thresholds.ENFORCED);
        Pages pages = Pages.of(context, sections);
        Path charts = Files.createDirectories(dir.resolve("charts"));
        for (Charts.Figure chart : context.charts().all()) {
            Files.writeString(charts.resolve(chart.name() + ".svg"), chart.svg());
        }
        Written written = new Written(dir.resolve("report.md"), dir.resolve("report.html"));
        Files.writeString(written.markdown(), pages.markdown());
        Files.writeString(written.html(), pages.html());
        return written;
    }
}
