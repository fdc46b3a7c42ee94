package io.threadlab.experiment.findings;

import io.threadlab.experiment.report.landscape.Outcome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The published fan-out runs, each with its own counts, and together: the section's totals are every run's held-out
 * points counted at once, as each run's are.
 */
class FanOutFindingsTest {

    private static final Path FINDINGS = Path.of("..", "findings").toAbsolutePath().normalize();
    private static final List<String> RUNS = List.of("fanout-1", "fanout-2", "fanout-3");

    @TempDir
    Path findings;

    @Test
    void everyRunsPointsTogetherAreCountedAgainstTheTargets() throws IOException {
        for (String name : RUNS) {
            Path dir = Files.createDirectories(findings.resolve(name));
            for (String file : List.of("manifest.json", "results.json", "analysis.json")) {
                Path from = FINDINGS.resolve(name).resolve(file);
                if (Files.exists(from)) {
                    Files.copy(from, dir.resolve(file));
                }
            }
        }
        List<PublishedRun> runs = PublishedRun.readAll(findings);
        assertThat(runs).hasSize(3).allMatch(r -> r.kind() == Kind.FAN_OUT);

        FanOutFindings.Section section = FanOutFindings.of(runs);

        assertThat(section.runs()).hasSize(3);
        List<Outcome> held = runs.stream().flatMap(r -> r.facts().landscape().outcomes().stream())
                .filter(Outcome::heldOut).filter(o -> o.prediction().isPresent()).toList();
        List<Outcome> judged = held.stream().filter(Outcome::judged).toList();
        long within = judged.stream().filter(Outcome::withinTolerance).count();
        assertThat(strip(section.within())).isEqualTo(within + " of " + judged.size() + " ("
                + Math.round(100.0 * within / judged.size()) + " %)");
        // the total is the runs' own counts added up
        assertThat(section.runs().stream().mapToInt(r -> first(r.within())).sum()).isEqualTo((int) within);
        assertThat(section.runs().stream().mapToInt(r -> first(r.covered())).sum())
                .isEqualTo(first(section.covered()));
        assertThat(section.runs().stream().mapToInt(r -> first(r.named())).sum()).isEqualTo(first(section.named()));
        assertThat(strip(section.count())).isEqualTo("3");
        assertThat(FanOutFindings.of(List.of())).isNull();
    }

    private static int first(String cited) {
        return Integer.parseInt(strip(cited).replaceAll("^(\\d+) of .*$", "$1"));
    }

    private static String strip(String cited) {
        return cited.replaceAll("\\[([^]]*)\\]\\([^)]*\\)", "$1");
    }
}
