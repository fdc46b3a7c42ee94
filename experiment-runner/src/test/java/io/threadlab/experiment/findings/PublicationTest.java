package io.threadlab.experiment.findings;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.threadlab.experiment.collect.Json;
import io.threadlab.experiment.collect.RunManifest;
import io.threadlab.experiment.plan.Defaults;
import io.threadlab.experiment.report.Report;
import io.threadlab.experiment.testing.CalibratedRunFixture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code ./experiment publish}: a real finished run (the calibrated default run of the predict fixture, its report
 * made here) is copied with its small artifacts and never a recording; every run that cannot be published is refused
 * with why, and nothing is written.
 */
class PublicationTest {

    @TempDir
    Path temp;
    Path run;
    Path findings;

    @BeforeEach
    void aFinishedRun() throws IOException {
        run = Files.createDirectories(temp.resolve("results/2026-11-24T23-35-56Z"));
        CalibratedRunFixture.calibrated(run);
        Report.write(run);
        Files.createDirectories(run.resolve("jfr/compiler"));
        Files.write(run.resolve("jfr/reactive-10ms-closed-500-jfr-1.jfr"), new byte[] {'F', 'L', 'R', 0, 0, 2});
        Files.writeString(Files.createDirectories(run.resolve("k6")).resolve("summary.json"), "{}");
        findings = temp.resolve("findings");
    }

    @Test
    void aCompletedRunIsCopiedWithItsSmallArtifactsAndNoRecording() throws Exception {
        Path published = Publication.publish(run, findings, "default-a");
        assertThat(published).isEqualTo(findings.resolve("default-a"));
        assertThat(files(published)).contains("manifest.json", "results.json", "report.md", "charts/"
                + firstChart()).noneMatch(f -> f.endsWith(".jfr") || f.startsWith("jfr/") || f.startsWith("k6/"));
        assertThat(Files.readString(published.resolve("results.json")))
                .isEqualTo(Files.readString(run.resolve("results.json")));
        assertThat(Stream.of(findings.toFile().list())).containsExactly("default-a"); // no partial folder left
    }

    @Test
    void aNameAlreadyPublishedIsNeverOverwritten() throws Exception {
        Publication.publish(run, findings, "default-a");
        Path before = findings.resolve("default-a/manifest.json");
        Files.writeString(before, "kept");
        refused(() -> Publication.publish(run, findings, "default-a"), "exists", "never overwritten");
        assertThat(Files.readString(before)).isEqualTo("kept");
    }

    @Test
    void aBadNameIsRefused() {
        refused(() -> Publication.publish(run, findings, "../escape"), "a name is lower-case letters");
        refused(() -> Publication.publish(run, findings, "Default A"), "a name is lower-case letters");
        assertThat(findings).doesNotExist();
    }

    @Test
    void somethingThatIsNotARunIsRefused() throws IOException {
        refused(() -> Publication.publish(temp.resolve("nowhere"), findings, "x"), "is not a directory");
        Path notARun = Files.createDirectories(temp.resolve("docs"));
        Files.writeString(notARun.resolve("notes.md"), "# notes");
        refused(() -> Publication.publish(notARun, findings, "x"), "not a results directory", "manifest.json");
        assertThat(findings).doesNotExist();
    }

    @Test
    void aFailedOrInterruptedRunIsRefused() {
        editManifest(m -> m.put("completed", false).put("status", "interrupted")
                .put("failure", "stopped by a signal (Ctrl-C or SIGTERM)"));
        refused(() -> Publication.publish(run, findings, "x"), "did not complete", "interrupted", "Ctrl-C");
        assertThat(findings).doesNotExist();
    }

    @Test
    void aRunThatLostAModelsPointIsPartial() {
        editManifest(m -> ((ArrayNode) m.withArray("warnings")).add(RunManifest.POINT_LOST
                + "reactive-10ms-closed-500-1: the service stopped answering"));
        refused(() -> Publication.publish(run, findings, "x"), "a partial run", "reactive-10ms-closed-500-1");
        assertThat(findings).doesNotExist();
    }

    @Test
    void aMistakesLostPointIsItsCostNotAPartialRun() throws Exception {
        editManifest(m -> {
            ((ObjectNode) m.with("plan")).with("mistakes").put("blocking-join-event-loop", "reactive");
            ((ArrayNode) m.withArray("warnings")).add(RunManifest.POINT_LOST
                    + "blocking-join-event-loop-10ms-closed-500-1: its event loops answered nothing");
        });
        assertThat(Publication.publish(run, findings, "mistakes-a")).isDirectory();
    }

    /** A --quick run (4 s windows, one JVM start) checks the pipeline; published, its numbers would read as findings. */
    @Test
    void aSmokeRunIsRefused() throws Exception {
        editManifest(m -> ((ObjectNode) m.with("plan")).put("window_seconds", Defaults.QUICK_WINDOW));
        refused(() -> Publication.publish(run, findings, "x"), "a smoke run", "windows of 4 s", "--quick");
        assertThat(findings).doesNotExist();
        editManifest(m -> ((ObjectNode) m.with("plan")).put("window_seconds", Defaults.QUICK_WINDOW + 1));
        assertThat(Publication.publish(run, findings, "x")).isDirectory();
    }

    @Test
    void aRunWithoutItsReportIsRefused() throws IOException {
        Files.delete(run.resolve("report.md"));
        refused(() -> Publication.publish(run, findings, "x"), "no report.md", "./experiment report");
    }

    @Test
    void aRecordingAmongThePublishedFilesIsRefusedWhateverItsName() throws IOException {
        Files.write(run.resolve("charts/throughput.svg"), new byte[] {'F', 'L', 'R', 0, 0, 2, 0, 0});
        refused(() -> Publication.publish(run, findings, "x"), "charts/throughput.svg is a JFR recording");
        assertThat(findings).doesNotExist();
    }

    @Test
    void aRunOverTheSizeCapIsRefused() throws IOException {
        byte[] row = "x,".repeat(512).getBytes();
        try (var out = Files.newOutputStream(run.resolve("results.csv"))) {
            for (long written = 0; written <= Publication.SIZE_CAP; written += row.length) {
                out.write(row);
            }
        }
        refused(() -> Publication.publish(run, findings, "x"), "more than the", "results.csv");
        assertThat(findings).doesNotExist();
    }

    private String firstChart() throws IOException {
        try (Stream<Path> charts = Files.list(run.resolve("charts"))) {
            return charts.map(p -> p.getFileName().toString()).sorted().findFirst().orElseThrow();
        }
    }

    private static List<String> files(Path dir) throws IOException {
        try (Stream<Path> all = Files.walk(dir)) {
            return all.filter(Files::isRegularFile).map(p -> dir.relativize(p).toString()).sorted().toList();
        }
    }

    private void editManifest(Consumer<ObjectNode> edit) {
        try {
            ObjectNode manifest = (ObjectNode) Json.MAPPER.readTree(run.resolve("manifest.json").toFile());
            edit.accept(manifest);
            Json.write(run.resolve("manifest.json"), manifest);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private interface Publish {
        Path call() throws Exception;
    }

    private static void refused(Publish publish, String... why) {
        assertThatThrownBy(publish::call).isInstanceOf(Publication.Refused.class).hasMessageContainingAll(why);
    }
}
