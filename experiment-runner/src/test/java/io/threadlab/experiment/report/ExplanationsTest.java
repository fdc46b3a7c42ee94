package io.threadlab.experiment.report;

import io.threadlab.experiment.collect.WarmUpResult;
import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.testing.Windows;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every explanation the report prints is chosen by the run's data: each is fed a run that shows what it explains,
 * where it must be there, and one that contradicts it, where it must not.
 */
class ExplanationsTest {

    private static final String COPIES = "copies its provider configuration on every call";
    private static final String FINALIZER = "registers each response with the JVM-wide finalizer lock";
    private static final String POOL_LOCK = "Apache HttpClient's single pool lock";
    private static final String THROTTLED = "keeps every waiter waiting until the next 100 ms period";

    @TempDir
    Path root;

    private int runs;

    // ---- where threads wait for each other ---------------------------------------------------------------------

    @Test
    void theClassicClientsLocksAreExplainedOnlyWhereTheirSitesWereRecorded() throws IOException {
        Run run = recorded("imperative", List.of(site("org.jboss.resteasy.util.snapshot.SnapshotSet",
                        "org.jboss.resteasy.util.snapshot.SnapshotSet.lockSnapshots:46", 11, 33, 4),
                site("java.lang.Object", "jakarta.ws.rs.core.Response.<init>:58", 7, 120, 60)), 80, 40);
        String note = Contention.note(run, Recorded.all(run));
        assertThat(note).contains("At the sites recorded here, the classic REST client " + COPIES,
                "(SnapshotSet.lockSnapshots) and " + FINALIZER + " (Response.<init>).",
                "throttled in 40 of 80 periods of the 0.5-CPU quota", THROTTLED, "the longest wait at them was 60 ms")
                .doesNotContain(POOL_LOCK, "initializeCommon", "SnapshotMap");
    }

    @Test
    void sitesTheLabDoesNotExplainAreNamedInsteadOfTheClassicClientsLocks() throws IOException {
        Run run = recorded("reactive", List.of(site("java.lang.Object",
                "io.netty.channel.nio.SelectedSelectionKeySetSelector.select:62", 5, 60, 54)), 70, 3);
        String note = Contention.note(run, Recorded.all(run));
        assertThat(note).contains("None of these sites is one the lab explains",
                "the longest waits in all were at SelectedSelectionKeySetSelector.select (reactive, 60 ms in all)")
                .doesNotContain(COPIES, FINALIZER, POOL_LOCK, THROTTLED);
    }

    @Test
    void theQuotaIsNotBlamedForWaitsInRecordingsThatWereNeverThrottled() throws IOException {
        Run run = recorded("imperative", List.of(site("org.jboss.resteasy.util.snapshot.SnapshotMap",
                "org.jboss.resteasy.util.snapshot.SnapshotMap.lockSnapshots:55", 22, 505, 38)), 80, 0);
        String note = Contention.note(run, Recorded.all(run));
        assertThat(note).contains(COPIES, "(SnapshotMap.lockSnapshots)", "never throttled (0 of 80 quota periods)")
                .doesNotContain(THROTTLED);
    }

    // ---- the mistakes' cards -------------------------------------------------------------------------------------

    @Test
    void theGallerysExplanationIsQuotedOnlyWhereTheRecordingShowsTheMistakesSignature() throws IOException {
        String gallery = MistakeTexts.of("blocking-event-loop");
        assertThat(gallery).as("the bundled gallery").contains("Why it happens");

        MistakeCards.Card found = card(mistakeRun("blocking-event-loop", "reactive", List.of("blocking-event-loop"),
                Map.of()), "blocking-event-loop");
        assertThat(found.explanation()).isEqualTo(gallery);
        assertThat(found.noEvidence()).isNull();

        MistakeCards.Card notFound = card(mistakeRun("blocking-event-loop", "reactive", List.of(), Map.of()),
                "blocking-event-loop");
        assertThat(notFound.explanation()).doesNotContain("Why it happens").contains("did not find this mistake's"
                + " signature (blocking-event-loop) in its 1 recording");
        assertThat(notFound.noEvidence()).isEqualTo("the analysis flagged nothing in this mistake's 1 recording");

        MistakeCards.Card unrecorded = card(mistakeRun("blocking-event-loop", "reactive", null, Map.of()),
                "blocking-event-loop");
        assertThat(unrecorded.explanation()).doesNotContain("Why it happens").startsWith("No recording of this"
                + " mistake was analysed");
        assertThat(unrecorded.noEvidence()).isEqualTo("no recording of this mistake was analysed");
    }

    @Test
    void aMistakeIsKnownByTheSignatureTheGalleryTableGivesIt() throws IOException {
        // the pool left at 50 is recognised as the cap it causes, not by its own name
        MistakeCards.Card card = card(mistakeRun("default-connection-pool", "imperative",
                List.of("connection-pool-cap"), Map.of()), "default-connection-pool");
        assertThat(card.explanation()).isEqualTo(MistakeTexts.of("default-connection-pool")).isNotEmpty();
    }

    @Test
    void theGalleryWrittenForAnotherJdkSaysSoBeforeItsExplanation() throws IOException {
        MistakeCards.Card on21 = card(mistakeRun("pinned-class-init", "virtual-thread", List.of("pinned-class-init"),
                Map.of("javaVersion", "21.0.5")), "pinned-class-init");
        assertThat(on21.explanation()).startsWith("*The gallery's explanation below was written for JDK 25 and"
                + " Quarkus 3.27; this run ran JDK 21.0.5 and Quarkus 3.27.2.*")
                .endsWith(MistakeTexts.of("pinned-class-init"));
        MistakeCards.Card on25 = card(mistakeRun("pinned-class-init", "virtual-thread", List.of("pinned-class-init"),
                Map.of("javaVersion", "25.0.3")), "pinned-class-init");
        assertThat(on25.explanation()).isEqualTo(MistakeTexts.of("pinned-class-init"));
    }

    // ---- the fixture -------------------------------------------------------------------------------------------

    private static Windows closed(String variant, int users, double rps) {
        return Windows.closed(variant, users, rps);
    }

    private static Map<String, Object> site(String monitor, String site, int count, double totalMs, double maxMs) {
        return Map.of("class", monitor, "site", site, "group", "worker", "count", count, "total_ms", totalMs,
                "max_ms", maxMs);
    }

    /** A run of one variant at 100 users, its recorded twin analysed with these sites and this throttling. */
    private Run recorded(String variant, List<Map<String, Object>> sites, long periods, long throttled)
            throws IOException {
        WindowResult twin = closed(variant, 100, 1000).recorded().build();
        Map<String, Object> recording = new LinkedHashMap<>();
        recording.put("window", twin.window().id());
        recording.put("variant", variant);
        recording.put("label", variant);
        recording.put("monitor_enter_sites", sites);
        recording.put("cpu_throttling", Map.of("periods", periods, "throttledPeriods", throttled, "throttledMs",
                throttled * 50.0));
        return Run.read(SmallRuns.write(dir(), List.of(closed(variant, 100, 1000).build(), twin), List.of(),
                Map.of(), Map.of("recordings", List.of(recording))));
    }

    /**
     * A mistake and what it spoils at 100 users; the mistake's recorded twin analysed with these mistakes found
     * (null: no analysis at all), and JVMs that reported {@code runtime} before their warm-up.
     */
    private Run mistakeRun(String mistake, String spoils, List<String> found, Map<String, Object> runtime)
            throws IOException {
        WindowResult twin = closed(mistake, 100, 500).recorded().build();
        List<WindowResult> windows = List.of(closed(spoils, 100, 1000).build(), closed(mistake, 100, 500).build(),
                twin);
        List<WarmUpResult> warmUps = runtime.isEmpty() ? List.of() : List.of(SmallRuns.warmUp(spoils, true, runtime,
                runtime, List.of()), SmallRuns.warmUp(mistake, true, runtime, runtime, List.of()));
        Map<String, Object> plan = Map.of("mode", "run", "delays_ms", List.of(10), "variants",
                List.of(spoils, mistake), "closed_model_vus", List.of(100), "mistakes", Map.of(mistake, spoils));
        Object analysis = found == null ? null : Map.of("recordings", List.of(Map.of("window", twin.window().id(),
                "variant", spoils, "label", mistake, "mistakes", found.stream().map(name -> Map.of("name", name,
                        "harmful", true, "group", "worker", "evidence", name + " seen")).toList())));
        return Run.read(SmallRuns.write(dir(), windows, warmUps, Map.of("plan", plan), analysis));
    }

    private static MistakeCards.Card card(Run run, String label) {
        return MistakeCards.of(run, new Ratios(run), Recorded.all(run)).stream().filter(c -> c.label().equals(label))
                .findFirst().orElseThrow();
    }

    private Path dir() throws IOException {
        return Files.createDirectories(root.resolve("run-" + ++runs));
    }
}
