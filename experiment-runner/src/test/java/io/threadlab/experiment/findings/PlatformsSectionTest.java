package io.threadlab.experiment.findings;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The default run on each Quarkus platform, side by side, from the published default run and its twin on another. */
class PlatformsSectionTest {

    private static final Path DEFAULT_RUN = Path.of("..", "findings", "default-1").toAbsolutePath().normalize();

    @TempDir
    Path findings;

    private void publish(String name, String quarkus) throws IOException {
        publish(name, quarkus, 1);
    }

    /** default-1 again, as if built on {@code quarkus} on a machine {@code slower} times as slow (NaN: untimed). */
    private void publish(String name, String quarkus, double slower) throws IOException {
        Path dir = Files.createDirectories(findings.resolve(name));
        for (String file : List.of("manifest.json", "results.json", "analysis.json")) {
            Path from = DEFAULT_RUN.resolve(file);
            if (Files.exists(from)) {
                String text = Files.readString(from);
                if (file.equals("manifest.json")) {
                    text = text.replaceFirst("\"quarkus_version\" : \"[^\"]*\"", "\"quarkus_version\" : \"" + quarkus
                            + "\"");
                } else if (file.equals("results.json")) {
                    text = Pattern.compile("\"yardstick_us\" : ([0-9.]+)").matcher(text).replaceAll(m ->
                            "\"yardstick_us\" : " + (Double.isNaN(slower) ? "null"
                                    : String.valueOf(Double.parseDouble(m.group(1)) * slower)));
                }
                Files.writeString(dir.resolve(file), text);
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
        // one machine: the numbers compare too
        assertThat(two.rows()).allSatisfy(r -> assertThat(r.machine()).matches("\\[[0-9,]+\\]\\(.*results.csv\\)"));
        assertThat(two.machines()).startsWith("The runs' machines were of one speed");
    }

    /**
     * Runs of two platforms on machines of other speeds: their req/s differ by the machine, not the release, and the
     * section says so beside the table.
     */
    @Test
    void runsOnMachinesOfOtherSpeedsSayTheirNumbersAreEachMachines() throws IOException {
        publish("default-a", "3.33.2", 1.8);
        publish("default-b", "3.27.2", 1);
        PlatformsSection.Section two = PlatformsSection.of(PublishedRun.readAll(findings));
        assertThat(two.machines()).startsWith("**The runs' machines differ").contains("not the release's");
        double fast = PlatformsSection.machineUs(PublishedRun.readAll(findings).stream()
                .filter(r -> r.name().equals("default-b")).findFirst().orElseThrow());
        double slow = PlatformsSection.machineUs(PublishedRun.readAll(findings).stream()
                .filter(r -> r.name().equals("default-a")).findFirst().orElseThrow());
        assertThat(slow / fast).isCloseTo(1.8, within(0.001));
    }

    /** A run whose machine was not timed: the section cannot say the numbers compare, and says why. */
    @Test
    void aRunWithoutTheMachinesSpeedLeavesOnlyTheRatiosToCompare() throws IOException {
        publish("default-a", "3.33.2", Double.NaN);
        publish("default-b", "3.27.2", 1);
        PlatformsSection.Section two = PlatformsSection.of(PublishedRun.readAll(findings));
        assertThat(two.machines()).startsWith("The machine's speed was not timed in [default-a]")
                .contains("the ratios compare");
        assertThat(two.rows()).extracting(PlatformsSection.Row::machine).contains("–");
    }

    /** The numbers, without the links that differ by run name. */
    private static List<String> strip(List<String> cited) {
        return cited.stream().map(s -> s.replaceAll("\\]\\([^)]*\\)", "]")).toList();
    }
}
