package io.threadlab.experiment.analyse;

import com.fasterxml.jackson.databind.JsonNode;
import io.threadlab.api.SignatureWorkloads;
import io.threadlab.experiment.collect.Json;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/**
 * Recordings made here, with the lab's own jfr/threads.jfc, of in-process workloads that have each variant's thread
 * signature; then the analysis must find each signature, and say so with the numbers it wrote to analysis.json.
 */
class ThreadAnalysisTest {

    @TempDir
    static Path results;

    static SignatureWorkloads workloads;
    static ThreadAnalysis.Outcome outcome;

    /** What results.json says the recorded imperative window cost per request. */
    static final double IMPERATIVE_CPU_MS_PER_REQUEST = 2.0;

    @BeforeAll
    static void recordTheFourSignaturesAndAnalyseThem() throws Exception {
        workloads = new SignatureWorkloads();
        Path jfr = Files.createDirectories(results.resolve("jfr"));
        // Unrecorded first: a virtual thread that loads a class on its way to a park can pin for a moment (the class
        // loader is called from the VM, a native frame), which is start-up, not the signature under test.
        workloads.virtualThreads(2, Duration.ofMillis(100));
        record(jfr.resolve("imperative-closed-10-1.jfr"), () -> workloads.imperative(4, Duration.ofMillis(1200)));
        record(jfr.resolve("reactive-closed-10-1.jfr"), () -> workloads.reactive(8, Duration.ofMillis(1200)));
        record(jfr.resolve("virtual-thread-closed-10-1.jfr"),
                () -> workloads.virtualThreads(8, Duration.ofMillis(1200)));
        record(jfr.resolve("imperative-rest-closed-10-1.jfr"), () -> workloads.imperativeRest(4, Duration.ofMillis(1200)));
        Json.write(results.resolve("results.json"), List.of(Map.of("variant", "imperative", "scenario",
                "closed-10-jfr", "jfr_file", "jfr/imperative-closed-10-1.jfr", "cpu_ms_per_request",
                IMPERATIVE_CPU_MS_PER_REQUEST)));
        outcome = new ThreadAnalysis(workloads.delayPort()).analyse(results);
    }

    @AfterAll
    static void stopTheDelayStub() throws IOException {
        workloads.close();
    }

    interface Workload {
        void run() throws Exception;
    }

    static void record(Path file, Workload workload) throws Exception {
        Configuration settings = Configuration.create(Path.of("../jfr/threads.jfc"));
        try (Recording recording = new Recording(settings)) {
            recording.start();
            workload.run();
            recording.stop();
            recording.dump(file);
        }
    }

    private static RecordingAnalysis analysis(String variant) {
        return outcome.analyses().stream().filter(a -> a.variant().equals(variant)).findFirst().orElseThrow();
    }

    private static JsonNode json(String variant) throws IOException {
        for (JsonNode recording : Json.MAPPER.readTree(outcome.json().toFile()).get("recordings")) {
            if (recording.get("variant").asText().equals(variant)) {
                return recording;
            }
        }
        throw new AssertionError("no " + variant + " in analysis.json");
    }

    @Test
    void everyRecordingIsAnalysedAndMatchesItsSignature() {
        assertThat(outcome.failures()).isEmpty();
        assertThat(outcome.analyses()).extracting(RecordingAnalysis::variant)
                .containsExactlyInAnyOrder("imperative", "reactive", "virtual-thread", "imperative-rest");
        for (RecordingAnalysis a : outcome.analyses()) {
            assertThat(Verdicts.of(a).unexpected()).as(a.window()).isEmpty();
        }
    }

    @Test
    void imperativeWaitsOnWorkerThreadsAndTheVerdictQuotesTheJson() throws IOException {
        RecordingAnalysis a = analysis("imperative");
        GroupStats workers = a.group(ThreadKind.WORKER);
        assertThat(workers.threadsReadingDownstream).hasSize(4);
        assertThat(workers.downstreamReads.count()).isGreaterThan(100);
        assertThat(workers.downstreamReads.percentile(50)).isGreaterThanOrEqualTo(9.0); // the 10 ms wait
        assertThat(a.group(ThreadKind.EVENT_LOOP).downstreamReads.count()).isZero();

        JsonNode worker = json("imperative").get("groups").get("worker");
        long reads = worker.get("socket_reads_downstream").get("count").asLong();
        assertThat(reads).isEqualTo(workers.downstreamReads.count());
        assertThat(json("imperative").get("verdicts").get(0).asText())
                .startsWith("downstream waits happen on 4 executor threads: " + String.format(Locale.ROOT, "%,d", reads)
                        + " socket reads from the delay service, p50 "
                        + String.format(Locale.ROOT, "%.1f", worker.get("socket_reads_downstream").get("p50_ms").asDouble()));
    }

    @Test
    void reactiveDoesItsSocketIoOnTheEventLoopAndUsesNoWorker() throws IOException {
        RecordingAnalysis a = analysis("reactive");
        GroupStats loops = a.group(ThreadKind.EVENT_LOOP);
        assertThat(loops.threadsReadingDownstream).hasSize(1);
        assertThat(loops.downstreamReads.count()).isGreaterThan(100);
        assertThat(loops.downstreamReads.percentile(50)).isLessThan(5.0); // ready data: no waiting in the read
        assertThat(loops.requestSamples).isPositive();
        assertThat(a.group(ThreadKind.WORKER).threads).isEmpty();
        assertThat(json("reactive").get("verdicts").get(0).asText()).startsWith("event loops did the socket I/O: "
                + String.format(Locale.ROOT, "%,d", loops.downstreamReads.count()) + " reads");
    }

    @Test
    void virtualThreadsAreCountedUnpinnedWithTheirCarriersMostlyIdle() throws IOException {
        RecordingAnalysis a = analysis("virtual-thread");
        assertThat(a.virtualThreadsStarted()).isGreaterThan(100);
        assertThat(a.group(ThreadKind.VIRTUAL).requestSamples).isPositive();
        assertThat(a.pinned().count()).isZero();
        assertThat(a.group(ThreadKind.CARRIER).threads).isNotEmpty();
        assertThat(a.group(ThreadKind.EVENT_LOOP).downstreamReads.count()).isGreaterThan(100);
        JsonNode json = json("virtual-thread");
        assertThat(json.get("verdicts").get(0).asText()).startsWith(String.format(Locale.ROOT, "%,d virtual threads"
                + " started, 0 pinned", json.get("virtual_threads_started").asLong()));
    }

    @Test
    void imperativeRestParksItsWorkersOnFuturesWhileTheEventLoopReads() throws IOException {
        RecordingAnalysis a = analysis("imperative-rest");
        GroupStats workers = a.group(ThreadKind.WORKER);
        GroupStats loops = a.group(ThreadKind.EVENT_LOOP);
        assertThat(workers.requestSamples).isPositive();
        assertThat(workers.downstreamReads.count()).isZero();
        assertThat(loops.downstreamReads.count()).isGreaterThan(100);
        WaitSites.Site waits = a.workerFutureParks();
        assertThat(waits.on()).startsWith("java.util.concurrent.CompletableFuture");
        assertThat(waits.site()).startsWith("io.threadlab.api.SignatureWorkloads$EventLoop.callAndWait:");
        assertThat(waits.count()).isGreaterThan(100);
        assertThat(Verdicts.of(a).unexpected()).isEmpty();
        assertThat(json("imperative-rest").get("verdicts").get(1).asText()).startsWith(String.format(Locale.ROOT,
                "workers parked %,d times waiting for the client's reply", waits.count()));
    }

    @Test
    void theOtherVariantsAreNotMistakenForImperativeRest(@TempDir Path dir) throws Exception {
        RecordingAnalyzer analyzer = new RecordingAnalyzer(workloads.delayPort());
        for (String variant : List.of("imperative", "reactive", "virtual-thread", "imperative-rest")) {
            Path recording = results.resolve("jfr/" + variant + "-closed-10-1.jfr");
            String inferred = analyzer.analyse(Files.copy(recording, dir.resolve("unnamed-" + variant + ".jfr")))
                    .variant();
            assertThat(inferred).as("inferred from where the work ran").isEqualTo(variant);
            if (!variant.equals("imperative-rest")) {
                Path misnamed = Files.copy(recording, dir.resolve("imperative-rest-closed-10-" + variant + ".jfr"));
                RecordingAnalysis a = analyzer.analyse(misnamed);
                assertThat(a.variant()).isEqualTo("imperative-rest");
                assertThat(Verdicts.of(a).unexpected()).as(variant + " taken for imperative-rest").isNotEmpty();
            }
        }
    }

    @Test
    void theJsonHasSitesAndCpuByLayerWithCpuPerRequestFromResultsJson() throws IOException {
        JsonNode imperative = json("imperative");
        JsonNode park = imperative.get("park_sites").get(0);
        assertThat(park.get("class").asText()).isNotEmpty();
        assertThat(park.get("site").asText()).isNotEmpty();
        assertThat(park.get("count").asInt()).isPositive();
        assertThat(park.get("total_ms").asDouble()).isGreaterThanOrEqualTo(park.get("max_ms").asDouble());
        assertThat(imperative.get("monitor_enter_sites").isArray()).isTrue();
        assertThat(imperative.get("monitor_wait_sites").isArray()).isTrue();

        JsonNode cpu = imperative.get("cpu_by_layer");
        assertThat(cpu.get("cpu_ms_per_request").asDouble()).isEqualTo(IMPERATIVE_CPU_MS_PER_REQUEST);
        double perRequest = 0;
        double shares = 0;
        for (Layer layer : Layer.values()) {
            JsonNode one = cpu.get("layers").get(layer.label());
            shares += one.get("share").asDouble();
            perRequest += one.get("cpu_ms_per_request").asDouble();
        }
        assertThat(shares).isCloseTo(1.0, within(0.01));
        assertThat(perRequest).isCloseTo(IMPERATIVE_CPU_MS_PER_REQUEST, within(0.02));
        // the signature workloads spend their Java CPU in busy loops of io.threadlab.api
        RecordingAnalysis a = analysis("imperative");
        assertThat(a.cpu().samples().get(Layer.LAB)).isGreaterThan(a.totalSamples() / 2);
        assertThat(imperative.get("verdicts").toString()).contains("lab code", "ms per request");
        assertThat(json("reactive").get("cpu_by_layer").get("cpu_ms_per_request").isNull()).isTrue();

        String markdown = Files.readString(outcome.markdown());
        assertThat(markdown).contains("**Monitor contention (jdk.JavaMonitorEnter)", "**Parks (jdk.ThreadPark)",
                "**CPU by layer**", "| lab code |", "| " + Layer.JVM_THREADS.label() + " |");
        assertThat(ThreadAnalysis.table(outcome.analyses())).contains("top monitor contention");
    }

    @Test
    void pinningInTheVirtualThreadVariantIsReportedLoudly(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("virtual-thread-closed-1-1.jfr");
        record(file, () -> {
            workloads.virtualThreads(4, Duration.ofMillis(1200));
            workloads.pinOnce();
        });
        RecordingAnalysis a = new RecordingAnalyzer(workloads.delayPort()).analyse(file);
        assertThat(a.pinned().count()).isPositive();
        assertThat(a.pinnedAt().keySet()).anyMatch(frame -> frame.contains("SignatureWorkloads"));
        assertThat(Verdicts.of(a).unexpected()).anyMatch(u -> u.contains("pinned their carrier"));
        assertThat(ThreadAnalysis.table(List.of(a))).contains("UNEXPECTED");
    }

    @Test
    void eachVariantGetsALanePictureWithLabelledLanesAndALegend() throws IOException {
        assertThat(outcome.lanes()).containsOnlyKeys("imperative", "reactive", "virtual-thread", "imperative-rest");
        String imperative = Files.readString(outcome.lanes().get("imperative"));
        assertThat(imperative).startsWith("<svg").contains("worker pool (executor-thread-*)", ">executor-thread-1<",
                "socket read", "parked", "on CPU (execution sample)", "#1f77b4");
        String reactive = Files.readString(outcome.lanes().get("reactive"));
        assertThat(reactive).contains("event loops (vert.x-eventloop-thread-*)", ">vert.x-eventloop-thread-0<")
                .doesNotContain(">executor-thread-");
        String virtual = Files.readString(outcome.lanes().get("virtual-thread"));
        assertThat(virtual).contains("virtual threads (quarkus-virtual-thread-*)", "more threads not shown",
                ThreadLanes.Activity.ALIVE.color);
        assertThat(results.resolve("lanes-imperative.png")).isNotEmptyFile();
        assertThat(Files.readString(outcome.markdown())).contains("## imperative-closed-10-1", "lanes-reactive.svg");
    }

    @Test
    void aCorruptOrTruncatedRecordingIsNamedAndTheOthersAreStillAnalysed(@TempDir Path dir) throws Exception {
        Path jfr = Files.createDirectories(dir.resolve("jfr"));
        Path good = results.resolve("jfr/reactive-closed-10-1.jfr");
        Files.copy(good, jfr.resolve("reactive-closed-10-1.jfr"));
        Files.writeString(jfr.resolve("imperative-closed-10-1.jfr"), "this is not a flight recording");
        byte[] bytes = Files.readAllBytes(good);
        Files.write(jfr.resolve("virtual-thread-closed-10-1.jfr"), java.util.Arrays.copyOf(bytes, bytes.length / 3));

        ThreadAnalysis.Outcome partial = new ThreadAnalysis(workloads.delayPort()).analyse(dir);
        assertThat(partial.analyses()).extracting(RecordingAnalysis::window).containsExactly("reactive-closed-10-1");
        assertThat(partial.failures()).hasSize(2);
        assertThat(partial.failures()).anyMatch(f -> f.contains("imperative-closed-10-1.jfr") && f.contains("corrupt"));
        assertThat(partial.failures()).anyMatch(f -> f.contains("virtual-thread-closed-10-1.jfr"));
        assertThat(Files.readString(partial.markdown())).contains("could not be analysed");
    }

    @Test
    void aRecordingWithoutTheNeededEventsSaysWhichAreMissing(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("bare.jfr");
        try (Recording recording = new Recording()) {
            recording.enable("jdk.GarbageCollection");
            recording.start();
            System.gc();
            recording.stop();
            recording.dump(file);
        }
        assertThatThrownBy(() -> new RecordingAnalyzer(8090).analyse(file))
                .isInstanceOf(RecordingAnalyzer.UnusableRecording.class)
                .hasMessageContaining("bare.jfr").hasMessageContaining("jdk.ExecutionSample")
                .hasMessageContaining("threads.jfc");
        assertThatThrownBy(() -> new RecordingAnalyzer(8090).analyse(dir.resolve("missing.jfr")))
                .hasMessageContaining("no such recording");
    }

    @Test
    void aSingleRecordingIsAnalysedBesideItself(@TempDir Path dir) throws IOException {
        Path copy = Files.copy(results.resolve("jfr/imperative-closed-10-1.jfr"), dir.resolve("mine.jfr"));
        ThreadAnalysis.Outcome single = new ThreadAnalysis(workloads.delayPort()).analyse(copy);
        assertThat(single.failures()).isEmpty();
        assertThat(single.analyses().getFirst().variant()).isEqualTo("imperative"); // inferred: no variant in the name
        assertThat(dir.resolve("mine.analysis.json")).isNotEmptyFile();
        assertThat(dir.resolve("mine.lanes-imperative.svg")).isNotEmptyFile();
    }

    @Test
    void threadNamesMapToTheLessonsGroups() {
        assertThat(ThreadKind.of("executor-thread-12", false)).isEqualTo(ThreadKind.WORKER);
        assertThat(ThreadKind.of("vert.x-eventloop-thread-1", false)).isEqualTo(ThreadKind.EVENT_LOOP);
        assertThat(ThreadKind.of("", true)).isEqualTo(ThreadKind.VIRTUAL);
        assertThat(ThreadKind.of("ForkJoinPool-1-worker-3", false)).isEqualTo(ThreadKind.CARRIER);
        assertThat(ThreadKind.of("vert.x-internal-blocking-0", false)).isEqualTo(ThreadKind.INTERNAL_BLOCKING);
        assertThat(ThreadKind.of("C2 CompilerThread0", false)).isEqualTo(ThreadKind.JVM);
        assertThat(ThreadKind.of("main", false)).isEqualTo(ThreadKind.OTHER);
    }
}
