package io.threadlab.experiment.report;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A section is a class, its two fragments and a line in the list: a section of the tests' own (ToySection, with
 * sections/toy.md and toy.html among the tests' resources), listed after the validity checks for this report only,
 * is in both pages there, and the rest of each page is what it was without it.
 */
class AddedSectionTest {

    private static final String RUN = "run-d6f4758";

    @Test
    void aSectionListedAfterTheChecksIsInBothPagesAfterTheChecks(@TempDir Path tmp) throws IOException {
        Path dir = ReportBeforeAfterTest.copyRun(RUN, tmp.resolve(RUN));
        List<Section> sections = new ArrayList<>(ReportSections.ALL);
        sections.add(sections.indexOf(named("checks")) + 1, new Section("toy", ToySection::of));

        Report.Written written = Report.write(dir, sections);

        Run run = Run.read(dir);
        String said = run.windows().size() + " windows of " + String.join(" & ", run.variants())
                + "; a lead under 5 % is a tie.";
        String toyMd = "## Toy\n\n" + said + "\n\n";
        String toyHtml = "\n<section><h2>Toy</h2><p>" + said.replace("&", "&amp;") + "</p></section>\n";
        String md = Files.readString(written.markdown());
        String html = Files.readString(written.html());
        assertThat(md).containsOnlyOnce(toyMd).contains(toyMd + "## Summary");
        assertThat(html).containsOnlyOnce(toyHtml).contains("</ul></section>\n" + toyHtml + "\n<section><h2>Summary");
        assertThat(md.replace(toyMd, "")).isEqualTo(resource("report.md"));
        assertThat(ReportBeforeAfterTest.skeleton(html.replace(toyHtml, ""))).isEqualTo(resource(
                "report.html.skeleton"));
    }

    private static Section named(String name) {
        return ReportSections.ALL.stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
    }

    private static String resource(String file) throws IOException {
        try (InputStream in = AddedSectionTest.class.getResourceAsStream("/report-before-after/" + RUN + "/" + file)) {
            assertThat(in).as(file).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
