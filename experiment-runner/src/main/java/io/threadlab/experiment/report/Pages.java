package io.threadlab.experiment.report;

import io.quarkus.qute.RawString;

import java.util.ArrayList;
import java.util.List;

/**
 * report.md and report.html, each its sections' fragments in the order given. The markdown is nothing else; the html
 * page (report.html) puts its head, style and script around them.
 */
record Pages(String markdown, String html) {

    static Pages of(ReportContext context, List<Section> sections) {
        StringBuilder markdown = new StringBuilder();
        List<RawString> html = new ArrayList<>();
        for (Section section : sections) {
            Section.Rendered rendered = section.render(context);
            markdown.append(rendered.markdown());
            html.add(new RawString(rendered.html())); // escaped once already, by its own fragment
        }
        return new Pages(markdown.toString(), Templates.at("report.html").data("title", context.title())
                .data("sections", html).render());
    }
}
