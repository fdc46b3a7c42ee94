package io.threadlab.experiment.report;

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

    private Path dir() throws IOException {
        return Files.createDirectories(root.resolve("run-" + ++runs));
    }
}
