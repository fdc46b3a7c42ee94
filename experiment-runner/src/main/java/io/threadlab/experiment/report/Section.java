package io.threadlab.experiment.report;

import java.util.function.Function;

/**
 * One section of the report: what it shows, computed from the run, and the two fragments that show it,
 * {@code sections/<name>.md} and {@code sections/<name>.html} beside this class. A fragment sees the section's data
 * as its root: {@code {rows}} is {@code data.rows()}.
 *
 * <p>A fragment may say nothing where the other page shows the same thing elsewhere (report.md lists every chart
 * under one heading, report.html puts each beside its topic): it is then one Qute comment saying why, with no line
 * end after it, as Qute keeps the line end of a template that is a comment line alone.
 *
 * @param name the fragments' name
 * @param data what the fragments show, from the run and what several sections share
 */
record Section(String name, Function<ReportContext, ?> data) {

    /** The section's two fragments, rendered from the same data. */
    Rendered render(ReportContext context) {
        Object shown = data.apply(context);
        return new Rendered(Templates.at("sections/" + name + ".md").render(shown),
                Templates.at("sections/" + name + ".html").render(shown));
    }

    record Rendered(String markdown, String html) {
    }
}
