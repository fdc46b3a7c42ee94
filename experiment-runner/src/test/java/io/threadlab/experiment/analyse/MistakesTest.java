package io.threadlab.experiment.analyse;

import com.fasterxml.jackson.databind.JsonNode;
import io.threadlab.api.MistakeWorkloads;
import io.threadlab.api.SignatureWorkloads;
import io.threadlab.experiment.collect.Json;
import io.threadlab.experiment.plan.FanOutMode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Recordings made here, with jfr/threads.jfc, of in-process workloads with each mistake's signature. Each is named
 * after the correct variant it spoils, as a recording of that variant would be: the analysis must recognise the
 * mistake from what the recording holds, whatever its name, and flag that mistake alone. (The four correct
 * signatures flag none: ThreadAnalysisTest.) Each window's CPU per request is measured, as the runner's results.json
 * has it. Execution samples come every 20 ms, so each workload runs enough requests at once for the samples that
 * a rule needs (CpuMistakes.MIN_CPU_SAMPLES, MIN_SYNCHRONIZED_SAMPLES) to be there with a wide margin.
 */
class MistakesTest {

    private static final Duration WINDOW = Duration.ofMillis(1200);
    /** Twice the samples the analysis asks of a group: the workload's group is most, not all, of them. */
    private static final int ENOUGH_SAMPLES = 2 * CpuMistakes.MIN_CPU_SAMPLES;

    @TempDir
    static Path results;

    static SignatureWorkloads signatures;
    static MistakeWorkloads workloads;
    /** By the mistake each recording was made to show. */
    static final Map<String, RecordingAnalysis> analyses = new LinkedHashMap<>();
    /** By window: what results.json says. */
    static final Map<String, Double> cpuMsPerRequest = new LinkedHashMap<>();
    /** The requests each mistake's workload made, in however long it ran on this machine. */
    static final Map<String, Long> requestsMade = new LinkedHashMap<>();
    static ThreadAnalysis.Outcome outcome;

    @BeforeAll
    static void recordEachMistake() throws Exception {
        signatures = new SignatureWorkloads();
        workloads = new MistakeWorkloads(signatures);
        Path jfr = Files.createDirectories(results.resolve("jfr"));
        // Unrecorded first: a virtual thread that loads a class waits for the class loader's lock pinned, once per
        // class; each virtual-thread workload's classes are loaded here, so that a pin recorded is the signature's.
        signatures.virtualThreads(2, Duration.ofMillis(100));
        workloads.cpuOnVirtualThreads(2, Duration.ofMillis(50));
        workloads.pinnedInClassInitialisers(2, Duration.ofMillis(50));
        workloads.synchronizedCalls(2, Duration.ofMillis(50));
        if (MistakeWorkloads.nativeCallsPossible()) {
            workloads.nativeCallsOnVirtualThreads(1, 1);
        }
        record(jfr, "blocking-event-loop", "reactive-closed-10-1", () -> workloads.blockingEventLoop(WINDOW));
        record(jfr, "connection-pool-cap", "imperative-closed-10-1", () -> workloads.connectionPoolCap(12, 3, WINDOW));
        // Enough requests in flight to keep the event loop, and the carriers, hashing most of the time.
        recordSampled(jfr, "cpu-on-event-loop", "reactive-closed-10-2", WINDOW,
                length -> () -> workloads.cpuOnEventLoop(16, length));
        recordSampled(jfr, "cpu-on-virtual-thread", "virtual-thread-closed-10-1", WINDOW,
                length -> () -> workloads.cpuOnVirtualThreads(16, length));
        record(jfr, "pinned-class-init", "virtual-thread-closed-10-2",
                () -> workloads.pinnedInClassInitialisers(4, WINDOW));
        // Request code inside the synchronized method costs about 0.05 ms a call: many calls, for its samples.
        recordSampled(jfr, "synchronized-virtual-thread", "virtual-thread-closed-10-3", Duration.ofMillis(2500),
                length -> () -> workloads.synchronizedCalls(64, length));
        if (MistakeWorkloads.nativeCallsPossible()) {
            record(jfr, "native-call-on-virtual-thread", "virtual-thread-closed-10-4",
                    () -> workloads.nativeCallsOnVirtualThreads(2, 100));
        }
        // Hibernate's, with stand-ins for its frames and Quarkus' (test scope): no Hibernate, Quarkus or database.
        record(jfr, "orm-n-plus-one", "imperative-rest-closed-10-1", () -> workloads.lazyCollectionPerRow(4, WINDOW));
        record(jfr, "blocking-refused-on-event-loop", "reactive-closed-10-3",
                () -> workloads.refusedOnEventLoop(WINDOW));
        ThreadAnalysisTest.writeResultsJson(results, cpuMsPerRequest);
        outcome = new ThreadAnalysis(signatures.delayPort()).analyse(results);
    }

    private static void record(Path jfr, String mistake, String window, ThreadAnalysisTest.Requests workload)
            throws Exception {
        Path file = jfr.resolve(window + ".jfr");
        ThreadAnalysisTest.Recorded recorded = ThreadAnalysisTest.recordRequests(file, workload);
        double msPerRequest = recorded.cpuMsPerRequest();
        cpuMsPerRequest.put(window, msPerRequest);
        requestsMade.put(mistake, recorded.requests());
        analyses.put(mistake, new RecordingAnalyzer(signatures.delayPort()).analyse(file)
                .withCpuMsPerRequest(msPerRequest));
    }

    /**
     * A workload whose mistake is read from CPU samples, recorded until the recording holds enough of them: on a busy
     * machine the sampler gets less CPU, and 1.2 s of the event loop hashing held 19 samples (the analysis asks
     * {@link CpuMistakes#MIN_CPU_SAMPLES} of a group before it judges). Each try is twice as long as the last.
     */
    private static void recordSampled(Path jfr, String mistake, String window, Duration first,
                                      java.util.function.Function<Duration, ThreadAnalysisTest.Requests> workload)
            throws Exception {
        for (Duration length = first; ; length = length.multipliedBy(2)) {
            record(jfr, mistake, window, workload.apply(length));
            if (analyses.get(mistake).totalSamples() >= ENOUGH_SAMPLES
                    || length.compareTo(first.multipliedBy(8)) >= 0) {
                return;
            }
        }
    }

    @AfterAll
    static void stopTheDelayStub() throws IOException {
        signatures.close();
    }

    private static Mistakes.Mistake flagged(String mistake) {
        List<Mistakes.Mistake> found = Verdicts.of(analyses.get(mistake)).mistakes();
        assertThat(found).as(mistake + " recording: " + held(analyses.get(mistake))).extracting(Mistakes.Mistake::name)
                .containsExactly(mistake);
        return found.getFirst();
    }

    /**
     * What a recording held, as the CPU rules read it, for a failure to explain itself: these are recordings of a
     * shared machine, and the one that was not flagged is gone when the test ends.
     */
    static String held(RecordingAnalysis a) {
        StringBuilder facts = new StringBuilder(String.format(java.util.Locale.ROOT,
                "Java CPU %.3f s of %.3f s, %d samples, measured %s CPU-ms a request, %d downstream calls seen",
                a.cpu().javaCpuSeconds(), a.cpu().processCpuSeconds(), a.totalSamples(), a.measured().cpuMsPerRequest(),
                a.signals().downstreamCalls()));
        for (ThreadKind kind : List.of(ThreadKind.WORKER, ThreadKind.EVENT_LOOP, ThreadKind.VIRTUAL)) {
            GroupStats g = a.group(kind);
            if (g.executionSamples > 0) {
                facts.append(String.format(java.util.Locale.ROOT, "; %s: %d samples, %d in request code",
                        kind.label(), g.executionSamples, g.labSamples));
            }
        }
        return facts.toString();
    }

    private static long number(Mistakes.Mistake m, String key) {
        return ((Number) m.numbers().get(key)).longValue();
    }

    private static double decimal(Mistakes.Mistake m, String key) {
        return ((Number) m.numbers().get(key)).doubleValue();
    }

    /**
     * JMC's own rules ran on every recording, headless, and JMC's page was written beside each; the lab's rule for
     * pinned virtual threads, which JMC lacks, fires on the recording that pinned its carrier in class initialisers and
     * stays quiet on one whose virtual threads only computed.
     */
    @Test
    void jmcsRulesRanOnEveryRecordingAndTheLabsPinningRuleFiresWherePinningWasProvoked() {
        assertThat(outcome.jmc()).hasSize(outcome.analyses().size()).allSatisfy(j -> {
            assertThat(j.failure()).as(j.file()).isNull();
            assertThat(j.rules()).as(j.file()).hasSizeGreaterThan(40)
                    .anySatisfy(r -> assertThat(r.id()).isEqualTo("JavaBlocking"));
            assertThat(results.resolve(j.html())).as(j.file()).isRegularFile();
        });
        io.threadlab.experiment.analyse.jmc.RuleResult pinned = jmc("virtual-thread-closed-10-2")
                .rule(io.threadlab.experiment.analyse.jmc.VirtualThreadPinnedRule.ID).orElseThrow();
        assertThat(pinned.flagged()).as(pinned.summary()).isTrue();
        assertThat(pinned.score()).isGreaterThanOrEqualTo(25);
        assertThat(pinned.summary()).contains("pinned events on");
        io.threadlab.experiment.analyse.jmc.RuleResult computing = jmc("virtual-thread-closed-10-1")
                .rule(io.threadlab.experiment.analyse.jmc.VirtualThreadPinnedRule.ID).orElseThrow();
        assertThat(computing.severity()).isEqualTo(io.threadlab.experiment.analyse.jmc.RuleResult.OK);
        assertThat(computing.score()).isZero();
    }

    /**
     * Every mistake is flagged by at least one rule: the lab's signature (named harmless where the JDK made it so), or
     * one of JMC's.
     */
    @Test
    void everyMistakeIsFlaggedByARuleTheLabsOrJmcs() {
        for (Map.Entry<String, RecordingAnalysis> e : analyses.entrySet()) {
            boolean lab = !Verdicts.of(e.getValue()).mistakes().isEmpty();
            boolean byJmc = !jmc(e.getValue().window()).flagged().isEmpty();
            assertThat(lab || byJmc).as(e.getKey() + ": " + held(e.getValue())).isTrue();
        }
    }

    private static io.threadlab.experiment.analyse.jmc.JmcRecording jmc(String window) {
        return outcome.jmc().stream().filter(j -> j.window().equals(window)).findFirst().orElseThrow();
    }

    @Test
    void aBlockingClientOnTheEventLoopIsNamedWithItsReadsAndSite() {
        Mistakes.Mistake m = flagged("blocking-event-loop");
        assertThat(m.harmful()).isTrue();
        assertThat(m.group()).isEqualTo("event_loop");
        assertThat(m.event()).isEqualTo("jdk.SocketRead");
        assertThat(m.site()).startsWith("io.threadlab.api.MistakeWorkloads$LegacyClient.call:");
        assertThat(number(m, "threads")).isEqualTo(2);
        // each call is one blocking read of the 10 ms reply: as many as the loops made, however many that was
        assertThat(number(m, "reads")).isBetween(ThreadAnalysisTest.mostOf(requestsMade.get("blocking-event-loop")),
                requestsMade.get("blocking-event-loop"));
        assertThat(decimal(m, "p50_ms")).isGreaterThanOrEqualTo(9.0); // each read waits the 10 ms
        assertThat(decimal(m, "blocked_share")).isGreaterThan(0.5);
        assertThat(Verdicts.of(analyses.get("blocking-event-loop")).findings().getFirst())
                .startsWith("MISTAKE blocking-event-loop: event loops blocked in socket reads from the delay service: "
                        + String.format(Locale.ROOT, "%,d reads on 2 event-loop threads", number(m, "reads")));
    }

    @Test
    void aLazyCollectionFetchedPerRowIsNamedAsNPlusOneWithTheCodeThatTouchedIt() {
        Mistakes.Mistake m = flagged("orm-n-plus-one");
        assertThat(m.harmful()).isTrue();
        assertThat(m.group()).isEqualTo("worker");
        assertThat(m.event()).isEqualTo("jdk.ExecutionSample");
        assertThat(m.site()).startsWith("io.threadlab.api.");
        assertThat(number(m, "samples")).isGreaterThanOrEqualTo(OrmMistakes.MIN_LAZY_LOAD_SAMPLES)
                .isLessThanOrEqualTo(number(m, "group_samples"));
        assertThat(decimal(m, "share_of_group_samples")).isGreaterThanOrEqualTo(OrmMistakes.LAZY_LOAD_SHARE);
        assertThat(m.evidence()).contains("Hibernate fetching lazy associations one at a time", "(N+1)");
    }

    @Test
    void aBlockingCallQuarkusRefusesOnTheEventLoopIsNamedFromItsRefusal() {
        Mistakes.Mistake m = flagged("blocking-refused-on-event-loop");
        assertThat(m.group()).isEqualTo("event_loop");
        assertThat(m.event()).isEqualTo("jdk.ExecutionSample");
        assertThat(number(m, "samples")).isGreaterThanOrEqualTo(EventLoopMistakes.MIN_REFUSAL_SAMPLES);
        assertThat(m.evidence()).contains("Quarkus refused a blocking call on the event loops",
                "BlockingOperationNotAllowedException", "fails at once");
    }

    @Test
    void aConnectionPoolSmallerThanTheWorkersIsNamedWithItsCap() {
        Mistakes.Mistake m = flagged("connection-pool-cap");
        assertThat(m.group()).isEqualTo("worker");
        assertThat(m.event()).isEqualTo("jdk.ThreadPark");
        assertThat(m.site()).startsWith("io.threadlab.api.MistakeWorkloads$ConnectionPool.lease:");
        assertThat(number(m, "max_in_flight")).isEqualTo(3); // the pool's 3 connections
        assertThat(number(m, "threads_reading")).isEqualTo(12);
        assertThat(number(m, "pool_waits")).isGreaterThanOrEqualTo(PoolMistakes.MIN_POOL_WAITS);
        assertThat(decimal(m, "near_max_share")).isGreaterThan(0.5); // a plateau at the cap, not a peak
        assertThat(m.evidence()).contains("at most 3 socket reads from the delay service were in flight at once",
                "while 12 threads read from it");
    }

    @Test
    void cpuHeavyRequestCodeOnTheEventLoopIsNamedWithItsCostAndSite() {
        Mistakes.Mistake m = flagged("cpu-on-event-loop");
        assertThat(m.group()).isEqualTo("event_loop");
        assertThat(m.event()).isEqualTo("jdk.ExecutionSample");
        assertThat(m.site()).startsWith("io.threadlab.api.MistakeWorkloads$CpuWork.hash:");
        assertThat(decimal(m, "share_of_group_samples")).isGreaterThanOrEqualTo(CpuMistakes.LAB_SHARE);
        assertThat(decimal(m, "cpu_ms_per_call")).isGreaterThanOrEqualTo(CpuMistakes.LAB_MS_PER_CALL);
    }

    @Test
    void cpuHeavyRequestCodeOnVirtualThreadsIsNamedWithItsCostAndSite() {
        Mistakes.Mistake m = flagged("cpu-on-virtual-thread");
        assertThat(m.group()).isEqualTo("virtual");
        assertThat(m.site()).startsWith("io.threadlab.api.MistakeWorkloads$CpuWork.hash:");
        assertThat(decimal(m, "cpu_ms_per_call")).isGreaterThanOrEqualTo(CpuMistakes.LAB_MS_PER_CALL);
        assertThat(m.evidence()).contains("the scheduler does not time-slice virtual threads");
        // the same recording as a window of 2 calls per request: its CPU per request is two calls'
        List<Mistakes.Mistake> twoCalls = Verdicts.of(analyses.get("cpu-on-virtual-thread")
                .withFanOut(new WindowFanOut(2, FanOutMode.PARALLEL))).mistakes();
        java.util.Optional<Mistakes.Mistake> halved = twoCalls.stream()
                .filter(t -> t.name().equals("cpu-on-virtual-thread")).findFirst();
        if (decimal(m, "cpu_ms_per_call") / 2 >= CpuMistakes.LAB_MS_PER_CALL + 0.002) {
            assertThat(decimal(halved.orElseThrow(), "cpu_ms_per_call")).isCloseTo(decimal(m, "cpu_ms_per_call") / 2,
                    org.assertj.core.api.Assertions.within(0.002));
        } else if (decimal(m, "cpu_ms_per_call") / 2 < CpuMistakes.LAB_MS_PER_CALL - 0.002) {
            assertThat(halved).as("half the CPU per call is below the mistake's threshold").isEmpty();
        }
        assertThat(Verdicts.of(analyses.get("cpu-on-virtual-thread").withFanOut(new WindowFanOut(2,
                FanOutMode.PARALLEL))).findings()).anySatisfy(f -> assertThat(f).startsWith("2 calls to the delay"
                + " service per request in parallel: virtual threads forked and joined: 1 + 2 per request"));
    }

    @Test
    void blockingInAClassInitialiserIsNamedAsPinningWithTheInitialiser() {
        Mistakes.Mistake m = flagged("pinned-class-init");
        RecordingAnalysis a = analyses.get("pinned-class-init");
        assertThat(m.event()).isEqualTo("jdk.VirtualThreadPinned");
        assertThat(m.site()).isEqualTo("io.threadlab.api.ClassInitTemplate.<clinit>"); // one name for every copy
        assertThat(number(m, "pinned")).isEqualTo(a.virtualThreads().pinned().count())
                .isGreaterThanOrEqualTo(VirtualThreadMistakes.MIN_PINS);
        assertThat(number(m, "in_class_initialisers")).isEqualTo(a.virtualThreads().pinned().count());
        if (Runtime.version().feature() >= 24) { // the JVM names its reason since JDK 24
            assertThat(a.signals().pinnedReasons()).hasSize(1).allSatisfy((reason, count) -> assertThat(reason)
                    .contains("io.threadlab.api.ClassInitTemplate", "<clinit>").doesNotContain("0x"));
        }
        // ... and the virtual-thread verdicts still call pinning unexpected, as they always did
        assertThat(Verdicts.of(a).unexpected()).anyMatch(u -> u.contains("pinned their carrier"));
    }

    @Test
    void thePinningEvidenceNamesTheJdkItsRunRanAndWhatTheRecordingShowed() {
        RecordingAnalysis a = analyses.get("pinned-class-init");
        long pins = a.virtualThreads().pinned().count();
        Mistakes.Mistake on21 = only(Verdicts.of(a.withJdk("21.0.5")).mistakes(), "pinned-class-init");
        assertThat(on21.evidence()).contains(String.format(Locale.ROOT, "on JDK 21.0.5, blocking inside a class"
                + " initialiser pinned the carrier: %,d of these pins had a class initialiser on the stack", pins))
                .doesNotContain("JDK 25");
        // a run that does not say which JDK it ran gets no JDK named, least of all one it did not use
        Mistakes.Mistake unknown = only(Verdicts.of(a.withJdk(null)).mistakes(), "pinned-class-init");
        assertThat(unknown.evidence()).contains("on this recording's JDK (its run does not say which), blocking"
                + " inside a class initialiser pinned the carrier").doesNotContainPattern("JDK \\d");
        // a recording without pins has no pinning evidence at all, on any JDK
        assertThat(Verdicts.of(analyses.get("cpu-on-virtual-thread").withJdk("25.0.3")).mistakes())
                .extracting(Mistakes.Mistake::name).doesNotContain("pinned-class-init", "pinned-carrier");
    }

    @Test
    void whyNothingPinnedUnderSynchronizedDependsOnTheJdkTheRunRan() {
        assumeTrue(Runtime.version().feature() >= 24, "before JDK 24, blocking inside synchronized pins");
        RecordingAnalysis a = analyses.get("synchronized-virtual-thread");
        assertThat(only(Verdicts.of(a.withJdk("25.0.3")).mistakes(), "synchronized-virtual-thread").evidence())
                .endsWith("0 jdk.VirtualThreadPinned): JDK 25.0.3 unmounts a virtual thread that blocks holding a"
                        + " monitor (JEP 491, JDK 24 and later)");
        // on a JDK before 24 no pin means no blocking under the monitor: JEP 491 is not the reason given
        assertThat(only(Verdicts.of(a.withJdk("21.0.5")).mistakes(), "synchronized-virtual-thread").evidence())
                .contains("JDK 21.0.5 pins a virtual thread that blocks holding a monitor", "did not block")
                .doesNotContain("unmounts a virtual thread");
    }

    private static Mistakes.Mistake only(List<Mistakes.Mistake> found, String name) {
        assertThat(found).extracting(Mistakes.Mistake::name).containsExactly(name);
        return found.getFirst();
    }

    @Test
    void blockingInsideSynchronizedIsSeenAndSaidNotToPinOnThisJdk() {
        assumeTrue(Runtime.version().feature() >= 24, "before JDK 24, blocking inside synchronized pins");
        Mistakes.Mistake m = flagged("synchronized-virtual-thread");
        assertThat(m.harmful()).isFalse();
        assertThat(m.site()).startsWith("io.threadlab.api.MistakeWorkloads$Ledger.record:");
        assertThat(number(m, "synchronized_samples"))
                .isGreaterThanOrEqualTo(VirtualThreadMistakes.MIN_SYNCHRONIZED_SAMPLES);
        assertThat(analyses.get("synchronized-virtual-thread").virtualThreads().pinned().count()).isZero();
        assertThat(Verdicts.of(analyses.get("synchronized-virtual-thread")).findings().getFirst())
                .startsWith("not a mistake on this JDK: synchronized-virtual-thread: ");
        assertThat(ThreadAnalysis.table(List.of(analyses.get("synchronized-virtual-thread"))))
                .doesNotContain("MISTAKE");
    }

    /**
     * The real database run's virtual threads were caught in SocketDispatcher.write0 (writing their query) in 10 % of
     * their samples: the JDK's socket calls are non-blocking on a virtual thread, so they are no native call holding
     * a carrier; a downcall is.
     */
    @Test
    void theJdksSocketCallsAreNoNativeCallThatHoldsACarrier() {
        String site = "io.threadlab.api.ArticleRepository.newestPage:39";
        assertThat(new StackFacts.NativeCall("sun.nio.ch.SocketDispatcher.write0", site).nonBlockingSocketIo())
                .isTrue();
        assertThat(new StackFacts.NativeCall("sun.nio.ch.Net.poll", site).nonBlockingSocketIo()).isTrue();
        assertThat(new StackFacts.NativeCall("FFM downcall", site).nonBlockingSocketIo()).isFalse();
        assertThat(new StackFacts.NativeCall("java.lang.Thread.sleep0", site).nonBlockingSocketIo()).isFalse();
    }

    @Test
    void aNativeCallOnAVirtualThreadIsNamedWithTheDowncallAndItsCaller() {
        assumeTrue(MistakeWorkloads.nativeCallsPossible(), "the FFM API is final from JDK 22 on");
        Mistakes.Mistake m = flagged("native-call-on-virtual-thread");
        assertThat(m.group()).isEqualTo("virtual");
        assertThat(m.event()).isEqualTo("jdk.NativeMethodSample");
        assertThat(m.site()).startsWith("io.threadlab.api.MistakeWorkloads$NativeWait.block:");
        // 2 threads x 100 calls x 10 ms in native code, sampled every 20 ms
        assertThat(number(m, "native_samples")).isGreaterThanOrEqualTo(VirtualThreadMistakes.MIN_NATIVE_SAMPLES);
        assertThat(decimal(m, "share_of_virtual_samples")).isGreaterThan(0.5);
        assertThat(m.evidence()).contains("entered through FFM downcall from io.threadlab.api.MistakeWorkloads$NativeWait");
    }

    @Test
    void analysisJsonListsEachRecordingsMistakesWithTheirNumbers() throws IOException {
        assertThat(outcome.failures()).isEmpty();
        JsonNode recordings = Json.MAPPER.readTree(outcome.json().toFile()).get("recordings");
        assertThat(recordings).hasSize(analyses.size());
        for (JsonNode recording : recordings) {
            JsonNode mistakes = recording.get("mistakes");
            String window = recording.get("window").asText();
            assertThat(mistakes).as(window + ": " + analyses.values().stream().filter(a -> a.window().equals(window))
                    .map(MistakesTest::held).findFirst().orElse("no such recording analysed")).hasSize(1);
            JsonNode m = mistakes.get(0);
            assertThat(m.fieldNames()).toIterable().containsExactly("name", "harmful", "group", "event", "site",
                    "evidence", "numbers");
            assertThat(m.get("numbers").size()).isPositive();
            assertThat(recording.get("verdicts").toString()).contains(m.get("name").asText());
        }
        JsonNode pool = null;
        for (JsonNode recording : recordings) {
            if (recording.get("window").asText().equals("imperative-closed-10-1")) {
                pool = recording;
            }
        }
        assertThat(pool).isNotNull();
        assertThat(pool.get("downstream_reads_in_flight").get("max").asInt()).isEqualTo(3);
        assertThat(pool.get("connection_pool_waits").get("site").asText()).contains("ConnectionPool.lease");
        assertThat(Files.readString(outcome.markdown())).contains("MISTAKE blocking-event-loop: ");
        assertThat(ThreadAnalysis.table(outcome.analyses())).contains("MISTAKE connection-pool-cap");
    }

    @Test
    void connectionPoolSitesAreToldFromOtherParks() {
        assertThat(PoolMistakes.isConnectionPool("org.apache.http.pool.AbstractConnPool.getPoolEntryBlocking:393"))
                .isTrue();
        assertThat(PoolMistakes.isConnectionPool("io.vertx.core.net.impl.pool.SimpleConnectionPool.acquire:12"))
                .isTrue();
        assertThat(PoolMistakes.isConnectionPool("org.jboss.threads.EnhancedQueueExecutor$PoolThreadNode.park:2434"))
                .isFalse();
        assertThat(PoolMistakes.isConnectionPool("java.util.concurrent.ForkJoinPool.awaitWork:1893")).isFalse();
        assertThat(PoolMistakes.isConnectionPool("(JDK frames only)")).isFalse();
    }
}
