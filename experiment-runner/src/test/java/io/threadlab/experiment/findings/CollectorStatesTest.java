package io.threadlab.experiment.findings;

import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.DbAccess;
import io.threadlab.experiment.plan.Downstream;
import io.threadlab.experiment.plan.Point;
import io.threadlab.experiment.testing.Windows;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Which windows the collector's two states count, which of them promote, and what each group's medians say. */
class CollectorStatesTest {

    private static final Point DATABASE = Point.of(Axis.DOWNSTREAM, Downstream.DB);

    /** A 10 s window on the database at 0.5 CPU, using {@code cores} of it, its young collections paused as given. */
    private static Windows onTheDatabase(double cores, double minorSeconds) {
        return Windows.closed("imperative", 500, 700).at(DATABASE).cpuCores(cores).gcPauses(minorSeconds, 0);
    }

    @Test
    void onlyWindowsOnTheDatabaseThroughThePlainClientWhoseCpuBoundThemCount() {
        assertThat(CollectorStates.counted(onTheDatabase(0.49, 0.1).build())).isTrue();
        assertThat(CollectorStates.counted(onTheDatabase(0.30, 0.1).build())).as("the pool bound it").isFalse();
        assertThat(CollectorStates.counted(Windows.closed("imperative", 500, 700).cpuCores(0.49).gcPauses(0.1, 0)
                .build())).as("the delay service").isFalse();
        assertThat(CollectorStates.counted(Windows.closed("imperative", 500, 700).cpuCores(0.49).gcPauses(0.1, 0)
                .at(DATABASE.with(Axis.DB_ACCESS, DbAccess.ORM)).build())).as("through Hibernate").isFalse();
        assertThat(CollectorStates.counted(Windows.closed("imperative", 500, 700).cpuCores(0.49)
                .at(DATABASE.with(Axis.DB_ACCESS, DbAccess.JDBC)).gcPauses(0.1, 0).build())).isTrue();
    }

    @Test
    void aWindowPromotesWhereItsYoungCollectionsPausedAtLeastTheThresholdOfIt() {
        assertThat(CollectorStates.promoting(onTheDatabase(0.5, 0.5).build())).as("5 % of 10 s").isTrue();
        assertThat(CollectorStates.promoting(onTheDatabase(0.5, 0.49).build())).isFalse();
        assertThat(CollectorStates.promoting(Windows.closed("imperative", 500, 700).at(DATABASE).cpuCores(0.5)
                .gcPauses(0.1, 3.0).build())).as("a full collection's pause is not a young one's").isFalse();
    }

    @Test
    void eachGroupGivesItsCountsAndMediansAndNoNumberWhereNothingWasRead() {
        List<WindowResult> windows = List.of(
                onTheDatabase(0.5, 2.0).cpuMs(0.8).build(),
                onTheDatabase(0.5, 1.0).cpuMs(0.9).build(),
                onTheDatabase(0.5, 1.5).cpuMs(0.7).build(),
                Windows.closed("imperative", 100, 900).at(DATABASE).cpuCores(0.5).cpuMs(0.5).gcPauses(0.2, 0, 1.0)
                        .build());
        CollectorStates.Row row = CollectorStates.row("imperative", windows);
        assertThat(row.windows()).isEqualTo("[4](../findings/)");
        assertThat(row.promoting()).isEqualTo("[3](../findings/)");
        assertThat(row.pausedPromoting()).isEqualTo("[15 %](../findings/)");
        assertThat(row.pausedOthers()).isEqualTo("[2 %](../findings/)");
        assertThat(row.cpuPromoting()).isEqualTo("[0.800](../findings/)");
        assertThat(row.cpuOthers()).isEqualTo("[0.500](../findings/)");
        assertThat(row.promotedPromoting()).as("no promoting window read its promotions").isEqualTo("–");
        assertThat(row.promotedOthers()).isEqualTo("[0.1](../findings/)");
    }

    @Test
    void onlyRunsOnTheSerialCollectorCount(@TempDir Path findings) throws IOException {
        Path published = Path.of("..", "findings", "database-jdbc-3").toAbsolutePath().normalize();
        for (String gc : List.of("Serial", "Parallel")) {
            Path dir = Files.createDirectories(findings.resolve(gc));
            Files.writeString(dir.resolve("manifest.json"), Files.readString(published.resolve("manifest.json"))
                    .replace("-XX:+UseSerialGC", "-XX:+Use" + gc + "GC"));
            Files.copy(published.resolve("results.json"), dir.resolve("results.json"));
        }
        List<PublishedRun> runs = PublishedRun.readAll(findings);
        List<PublishedRun> parallel = runs.stream().filter(r -> r.name().equals("Parallel")).toList();
        List<PublishedRun> serial = runs.stream().filter(r -> r.name().equals("Serial")).toList();
        assertThat(CollectorStates.of(serial).rows()).extracting(CollectorStates.Row::variant)
                .containsExactly("imperative", "reactive", "virtual-thread");
        assertThat(CollectorStates.of(parallel).rows()).isEmpty();
    }
}
