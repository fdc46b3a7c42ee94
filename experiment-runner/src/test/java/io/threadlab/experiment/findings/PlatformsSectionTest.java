package io.threadlab.experiment.findings;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The default run on each Quarkus platform, side by side, from the published default run and its twin on another. */
class PlatformsSectionTest {

    private static final Path DEFAULT_RUN = Path.of("..", "findings", "default-1").toAbsolutePath().normalize();

    @TempDir
    Path findings;

    private void publish(String name, String quarkus) throws IOException {
        Path dir = Files.createDirectories(findings.resolve(name));
        for (String file : List.of("manifest.json", "results.json", "analysis.json")) {
            Path from = DEFAULT_RUN.resolve(file);
            if (Files.exists(from)) {
                String text = Files.readString(from);
                Files.writeString(dir.resolve(file), file.equals("manifest.json")
                        ? text.replaceFirst("\"quarkus_version\" : \"[^\"]*\"", "\"quarkus_version\" : \"" + quarkus
                        + "\"") : text);
            }
        }
    }

    @Test
    void onePlatformSaysSoAndTwoStandSideBySide() throws IOException {
        publish("default-a", "3.33.2");
        PlatformsSection.Section one = PlatformsSection.of(PublishedRun.readAll(findings));
        assertThat(one.rows()).isEmpty();
        assertThat(one.platforms()).singleElement().asString().contains("3.33.2");

        publish("default-b", "3.27.2");
        PlatformsSection.Section two = PlatformsSection.of(PublishedRun.readAll(findings));
        assertThat(two.platforms()).hasSize(2);
        assertThat(two.platforms().getFirst()).contains("3.27.2"); // oldest platform first
        assertThat(two.rows()).extracting(PlatformsSection.Row::run).containsExactly(
                "[default-b](../findings/default-b/report.md)", "[default-a](../findings/default-a/report.md)");
        // the same data on both: every ratio and every cell's numbers equal across the two columns
        assertThat(two.rows().get(0).ratios()).isNotEmpty();
        assertThat(strip(two.rows().get(0).ratios())).isEqualTo(strip(two.rows().get(1).ratios()));
        assertThat(two.cells()).isNotEmpty().allSatisfy(c -> assertThat(strip(List.of(c.platforms().get(0))))
                .isEqualTo(strip(List.of(c.platforms().get(1)))));
    }

    /** The numbers, without the links that differ by run name. */
    private static List<String> strip(List<String> cited) {
        return cited.stream().map(s -> s.replaceAll("\\]\\([^)]*\\)", "]")).toList();
    }
}
