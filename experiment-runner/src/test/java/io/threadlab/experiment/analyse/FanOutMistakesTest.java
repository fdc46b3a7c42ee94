package io.threadlab.experiment.analyse;

import io.threadlab.api.MistakeWorkloads;
import io.threadlab.api.SignatureWorkloads;
import io.threadlab.experiment.plan.FanOutMode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fan-out's mistakes, each recorded here with jfr/threads.jfc from an in-process workload with its signature and
 * from one with the correct shape of the same fan-out: the analysis names the mistake in the first from what the
 * recording holds, and not in the second, whose threads wait too, but as the correct variants' do.
 */
class FanOutMistakesTest {

    private static final Duration WINDOW = Duration.ofMillis(1200);
    /**
     * The services' wait for a fan-out's calls (the connect and read timeouts), shortened, but well above the rule's
     * 1 s floor: at 1.1 s the parks' mean (1,044 ms once) sat on the floor, and a busy machine put it under.
     */
    private static final Duration STARVED_WAIT = Duration.ofMillis(1600);

    @TempDir
    static Path results;

    static SignatureWorkloads signatures;
    static final Map<String, RecordingAnalysis> analyses = new LinkedHashMap<>();

    @BeforeAll
    static void recordEachFanOut() throws Exception {
        signatures = new SignatureWorkloads();
        MistakeWorkloads workloads = new MistakeWorkloads(signatures);
        record("blocking-join", 4, () -> workloads.fanOutOnEventLoop(4, true, Duration.ofMillis(100), WINDOW));
        record("combined-on-event-loop", 4, () -> workloads.fanOutOnEventLoop(4, false, Duration.ofMillis(100),
                WINDOW));
        // as many requests as workers: each waits for 3 calls that no worker is left to run
        record("starved-workers", 3, () -> workloads.fanOutOnWorkers(6, 6, 3, STARVED_WAIT, Duration.ofMillis(3500)));
        // a worker for every call: the request's worker waits for its calls, which run
        record("workers-for-every-call", 3, () -> workloads.fanOutOnWorkers(8, 2, 3, STARVED_WAIT, WINDOW));
    }

    private static void record(String name, int calls, ThreadAnalysisTest.Requests workload) throws Exception {
        Path file = results.resolve(name + ".jfr");
        ThreadAnalysisTest.recordRequests(file, workload);
        analyses.put(name, new RecordingAnalyzer(signatures.delayPort()).analyse(file)
                .withMeasured(null, SignatureWorkloads.DELAY_MS, List.of())
                .withFanOut(new WindowFanOut(calls, FanOutMode.PARALLEL)));
    }

    @AfterAll
    static void stopTheDelayStub() throws IOException {
        signatures.close();
    }

    private static List<String> names(RecordingAnalysis a) {
        return Verdicts.of(a).mistakes().stream().map(Mistakes.Mistake::name).toList();
    }

    private static Mistakes.Mistake only(RecordingAnalysis a, String name) {
        List<Mistakes.Mistake> found = Verdicts.of(a).mistakes();
        assertThat(found).extracting(Mistakes.Mistake::name).containsExactly(name);
        return found.getFirst();
    }

    private static double number(Mistakes.Mistake m, String key) {
        return ((Number) m.numbers().get(key)).doubleValue();
    }

    @Test
    void anEventLoopThatJoinsItsCallsIsNamedWithItsParksAndSite() {
        Mistakes.Mistake m = only(analyses.get("blocking-join"), "blocking-join-event-loop");
        assertThat(m.group()).isEqualTo("event_loop");
        assertThat(m.event()).isEqualTo("jdk.ThreadPark");
        assertThat(m.site()).startsWith("io.threadlab.api.MistakeWorkloads$JoiningLoop.join:");
        assertThat(number(m, "parks")).isGreaterThanOrEqualTo(EventLoopMistakes.MIN_EVENT_LOOP_JOINS);
        assertThat(number(m, "mean_park_ms")).isGreaterThanOrEqualTo(90); // each waited out its 100 ms
        assertThat(m.evidence()).startsWith("event loops parked waiting on a future ")
                .contains("CompletableFuture");
    }

    @Test
    void anEventLoopThatCombinesItsCallsWaitsForNothing() {
        RecordingAnalysis a = analyses.get("combined-on-event-loop");
        assertThat(a.signals().eventLoopJoins().count()).isZero();
        assertThat(names(a)).doesNotContain("blocking-join-event-loop");
    }

    @Test
    void workersWaitingForCallsThatNoWorkerRunsAreNamedAsStarvation() {
        RecordingAnalysis a = analyses.get("starved-workers");
        Mistakes.Mistake m = only(a, "fanout-worker-starvation");
        assertThat(m.group()).isEqualTo("worker");
        assertThat(m.event()).isEqualTo("jdk.ThreadPark");
        assertThat(m.site()).startsWith("io.threadlab.api.MistakeWorkloads$StarvingRequest.await:");
        assertThat(number(m, "parks")).isGreaterThanOrEqualTo(PoolMistakes.MIN_STARVED_PARKS);
        assertThat(number(m, "mean_park_ms")).isGreaterThanOrEqualTo(PoolMistakes.STARVED_PARK_MS);
        assertThat(number(m, "reads_per_park")).isLessThan(PoolMistakes.STARVED_READS_PER_CALL * 3);
        assertThat(number(m, "calls_per_request")).isEqualTo(3);
        // the same recording as a window of one call per request: no fan-out, so no fan-out's starvation
        assertThat(names(a.withFanOut(WindowFanOut.ONE))).doesNotContain("fanout-worker-starvation");
        // ... and at a delay whose ten are longer than the parks: waits that long could be the calls' own
        assertThat(names(a.withMeasured(null, 500, List.of()))).doesNotContain("fanout-worker-starvation");
    }

    @Test
    void workersWaitingForCallsThatRunAreNoStarvation() {
        RecordingAnalysis a = analyses.get("workers-for-every-call");
        // the request's worker parks on its calls' future here too, as often as the rule asks ...
        assertThat(a.waitedAt().workerFutureParks().count()).isGreaterThanOrEqualTo(PoolMistakes.MIN_STARVED_PARKS);
        // ... but its calls' replies are read, about 3 per park, each park about one delay
        long reads = a.group(ThreadKind.WORKER).delayService().reads.count();
        assertThat((double) reads / a.waitedAt().workerFutureParks().count())
                .isGreaterThanOrEqualTo(PoolMistakes.STARVED_READS_PER_CALL * 3);
        assertThat(names(a)).doesNotContain("fanout-worker-starvation");
    }
}
