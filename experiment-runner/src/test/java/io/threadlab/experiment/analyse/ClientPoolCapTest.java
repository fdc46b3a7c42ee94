package io.threadlab.experiment.analyse;

import io.threadlab.api.MistakeWorkloads;
import io.threadlab.api.SignatureWorkloads;
import io.threadlab.experiment.collect.Json;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A REST client's pool that capped the calls in flight, which the Quarkus REST client leaves no event for: named from
 * the window's own figures (results.json, format 3), where the delay service held as many calls at once as the pool
 * has connections while the users wanted more; not where the pool had room, nor where the users wanted no more than
 * it holds. The figures are the fan-out gallery's (mistakes-fanout-1: 4 calls of 100 ms per request).
 */
class ClientPoolCapTest {

    private static final Duration WINDOW = Duration.ofMillis(1200);

    @TempDir
    static Path run;

    static SignatureWorkloads signatures;
    /** A fan-out whose threads never wait where JFR sees it: the reactive fan-out, combined on the event loop. */
    static RecordingAnalysis quiet;
    /** Workers waiting in a blocking client's pool: what the recording shows of the classic client's cap. */
    static RecordingAnalysis classicPool;

    @BeforeAll
    static void record() throws Exception {
        signatures = new SignatureWorkloads();
        MistakeWorkloads workloads = new MistakeWorkloads(signatures);
        Path combined = run.resolve("combined.jfr");
        ThreadAnalysisTest.recordRequests(combined, () -> workloads.fanOutOnEventLoop(4, false,
                Duration.ofMillis(100), WINDOW));
        quiet = new RecordingAnalyzer(signatures.delayPort()).analyse(combined);
        Path blocking = run.resolve("classic.jfr");
        ThreadAnalysisTest.recordRequests(blocking, () -> workloads.connectionPoolCap(12, 3, WINDOW));
        classicPool = new RecordingAnalyzer(signatures.delayPort()).analyse(blocking);
        Json.write(run.resolve("results.json"), Map.of("windows", List.of(
                row("capped", 50, 100, 122.7, 100.456),       // 49.3 calls held by a pool of 50, 400 wanted
                row("room", 1000, 500, 1675.8, 101.813),      // 682 held by a pool of 1,000, 2,000 wanted
                row("fits", 400, 100, 960.0, 100.5))));       // 386 held by a pool of 400, which all 400 fit
    }

    private static Map<String, Object> row(String name, int pool, int users, double perSecond, double servedMs) {
        return Map.of("window", Map.of("id", name, "jfr_file", "jfr/" + name + ".jfr"),
                "at", Map.of("pool_size", pool, "delay_ms", 100, "fan_out", 4, "fan_out_mode", "parallel",
                        "users", users),
                "load", Map.of("requests_per_second", perSecond),
                "instruments", Map.of("delay_served_mean_ms", servedMs));
    }

    @AfterAll
    static void stopTheDelayStub() throws IOException {
        signatures.close();
    }

    private static RecordingAnalysis asWindow(RecordingAnalysis a, String name) {
        RecordedWindows.Row row = RecordedWindows.read(run).row(Path.of("jfr/" + name + ".jfr"));
        WindowFanOut fanOut = WindowFanOut.of(row.fanOut(), row.fanOutMode(), name);
        return a.withFanOut(fanOut).withHeldCalls(HeldCalls.of(row, fanOut));
    }

    private static List<String> names(RecordingAnalysis a) {
        return Verdicts.of(a).mistakes().stream().map(Mistakes.Mistake::name).toList();
    }

    @Test
    void callsHeldAtThePoolWhileTheUsersWantedMoreNameTheCap() {
        RecordingAnalysis capped = asWindow(quiet, "capped");
        assertThat(capped.measured().heldCalls().held()).isBetween(49.0, 49.6);
        List<Mistakes.Mistake> found = Verdicts.of(capped).mistakes();
        assertThat(found).extracting(Mistakes.Mistake::name).containsExactly("client-pool-cap");
        assertThat(found.getFirst().numbers()).containsEntry("pool", 50).containsEntry("wanted_calls", 400);
        assertThat(found.getFirst().evidence()).contains("pool of 50 connections", "400 at once");
    }

    @Test
    void aPoolWithRoomOrOneThatFitsEveryCallIsNotNamed() {
        assertThat(names(asWindow(quiet, "room"))).doesNotContain("client-pool-cap");
        assertThat(names(asWindow(quiet, "fits"))).as("full only because every user's calls are in flight")
                .doesNotContain("client-pool-cap");
    }

    @Test
    void withoutTheWindowsFiguresNothingIsNamed() {
        assertThat(HeldCalls.of(RecordedWindows.read(run).row(Path.of("jfr/unknown.jfr")), WindowFanOut.ONE))
                .isNull();
        assertThat(names(quiet)).doesNotContain("client-pool-cap");
    }

    /** Where the recording shows the callers waiting in the pool, that evidence names it, and only once. */
    @Test
    void theRecordingsOwnEvidenceWinsOverTheFigures() {
        List<String> found = names(asWindow(classicPool, "capped"));
        assertThat(found).contains("connection-pool-cap").doesNotContain("client-pool-cap");
    }
}
