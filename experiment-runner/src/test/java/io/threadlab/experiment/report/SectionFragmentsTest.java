package io.threadlab.experiment.report;

import io.quarkus.qute.TemplateException;
import io.threadlab.experiment.collect.ResultsWriter;
import io.threadlab.experiment.testing.CalibratedRunFixture;
import io.threadlab.experiment.testing.Windows;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The fragments' type check. Qute without Quarkus' build checks no template against its data, so every section's two
 * fragments are rendered here with what real runs give them, by the report's engine, which renders strictly: an
 * expression that names a property the section's data does not have fails instead of printing nothing (proved below
 * with fragments made wrong on purpose). A branch no run here takes is not checked: the runs are chosen to take many
 * (a database run, a map, mistakes, calibrations, failed windows, unfinished warm-ups, times to peak, a fan-out, both
 * placements of the load, JMC's rules).
 */
class SectionFragmentsTest {

    private static final String SECTIONS = "/io/threadlab/experiment/report/sections/";
    /**
     * A fragment that says nothing in its format: one comment. Qute keeps the line end of a template that is a
     * comment line alone, so such a fragment must end with the comment.
     */
    private static final Pattern SILENT = Pattern.compile("(?s)\\{!((?!!}).)*!}\\s*");

    @ParameterizedTest
    @ValueSource(strings = {"run-d6f4758", "run-4fa4b52-2x2", "default-1", "map-1", "2026-11-28T18-19-26Z",
            "calibrated", "two-runs", "two-runs-with-flaws", "fan-out", "fan-out-tied", "load-placement",
            "jmc"})
    void everyFragmentRendersWhatItsSectionGivesIt(String run, @TempDir Path dir) throws IOException {
        ReportContext context = ReportContext.of(Run.read(write(run, dir)), Thresholds.ENFORCED);
        List<String> failed = new ArrayList<>();
        for (Section section : ReportSections.ALL) {
            Object data = section.data().apply(context);
            for (String format : List.of(".md", ".html")) {
                String fragment = section.name() + format;
                try {
                    String rendered = Templates.at("sections/" + fragment).render(data);
                    if (SILENT.matcher(resource(SECTIONS + fragment)).matches() && !rendered.isEmpty()) {
                        failed.add(fragment + ": says nothing, yet rendered " + rendered.length() + " characters");
                    }
                } catch (TemplateException e) {
                    failed.add(fragment + ": " + e.getMessage());
                }
            }
        }
        assertThat(failed).as(run).isEmpty();
    }

    @Test
    void aPropertyTheSectionDoesNotHaveFailsTheRendering(@TempDir Path dir) throws IOException {
        HeadlineSection headline = HeadlineSection.of(ReportContext.of(Run.read(write("run-4fa4b52-2x2", dir)),
                Thresholds.ENFORCED));
        assertThat(headline.tiles()).isNotEmpty();
        String md = resource(SECTIONS + "headline.md");
        String html = resource(SECTIONS + "headline.html");
        assertThat(Templates.parse(md, "sections/headline.md").render(headline)).startsWith("# Worker threads");
        assertThat(Templates.parse(html, "sections/headline.html").render(headline)).startsWith("<header>");

        // in a value, in a loop's iterable, in a condition: each misspelt once
        assertThat(html).contains("{t.ratio}", "{#if tiles}");
        assertThat(md).contains("{#for line in sentences}");
        for (String[] typo : List.of(new String[] {html, "{t.ratio}", "{t.ratios}", "html"},
                new String[] {md, "{#for line in sentences}", "{#for line in sentence}", "md"},
                new String[] {html, "{#if tiles}", "{#if tile}", "html"})) {
            String broken = typo[0].replace(typo[1], typo[2]);
            assertThatThrownBy(() -> Templates.parse(broken, "sections/headline." + typo[3]).render(headline))
                    .as(typo[2]).isInstanceOf(TemplateException.class).hasMessageContaining("not found");
        }
    }

    @Test
    void everySectionHasBothFragmentsAndEveryFragmentASection() throws IOException, URISyntaxException {
        List<String> names = ReportSections.ALL.stream().map(Section::name).toList();
        assertThat(names).doesNotHaveDuplicates();
        Set<String> listed = names.stream().flatMap(n -> Stream.of(n + ".md", n + ".html"))
                .collect(Collectors.toCollection(TreeSet::new));
        // the runner's own fragments, not a test's: the class path's directory the report's classes came from
        Path built = Path.of(Templates.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .resolve(SECTIONS.substring(1));
        Set<String> found;
        try (Stream<Path> files = Files.list(built)) {
            found = files.map(f -> f.getFileName().toString()).collect(Collectors.toCollection(TreeSet::new));
        }
        assertThat(found).isEqualTo(listed);
    }

    /** A run's files in {@code dir}: a recorded one (/golden/), or one the report's other tests make. */
    static Path write(String run, Path dir) throws IOException {
        switch (run) {
            case "calibrated" -> CalibratedRunFixture.calibrated(dir);
            case "two-runs" -> TwoRuns.write(dir, false);
            case "two-runs-with-flaws" -> TwoRuns.write(dir, true);
            case "fan-out", "fan-out-tied" -> { // with a crossover in N, and without
                try (InputStream in = SectionFragmentsTest.class.getResourceAsStream(
                        "/golden/run-4fa4b52-2x2/manifest.json")) {
                    Files.copy(in, dir.resolve("manifest.json"));
                }
                ResultsWriter results = new ResultsWriter(dir);
                FanOutTableTest.parallel(run.equals("fan-out") ? 90 : 100).forEach(results::add);
            }
            case "load-placement" -> SmallRuns.write(dir, List.of(
                    Windows.closed("imperative", 100, 1000).jvm(1).repetition(1).build(),
                    Windows.closed("imperative", 100, 1010).jvm(1).repetition(2).separateLoad().build()),
                    List.of(), Map.of(), null);
            case "jmc" -> JmcBesideTest.withJmc(dir);
            default -> ReportBeforeAfterTest.copyRun(run, dir);
        }
        return dir;
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = SectionFragmentsTest.class.getResourceAsStream(name)) {
            assertThat(in).as(name).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
