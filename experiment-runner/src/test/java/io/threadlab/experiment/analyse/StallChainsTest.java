package io.threadlab.experiment.analyse;

import com.fasterxml.jackson.databind.JsonNode;
import io.threadlab.experiment.collect.Json;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A stall's seconds found in a recording: a worker thread busy in one method, then in another; results.json says
 * the throughput stalled in a second that lies inside the second method's time. The stall's samples must be that
 * method's, and none of the first's.
 *
 * <p>The second is placed by the recording's own clock, never the test's: it begins just after the last sample of the
 * first method. From then on the worker ran the second method only (for 1.3 s from the first method's end, longer
 * than the second that follows) and then ended, whatever the machine's speed or load.
 */
class StallChainsTest {

    private static final Duration BEFORE = Duration.ofMillis(600);
    private static final Duration DURING = Duration.ofMillis(1300);

    @TempDir
    static Path run;
    static Path recording;
    static Instant measuredAt;
    /** Every execution sample in the stalled second, counted here from the recording. */
    static long samplesInTheSecond;

    @BeforeAll
    static void recordAWorkerThatChangesWhatItDoes() throws Exception {
        recording = Files.createDirectories(run.resolve("jfr")).resolve("imperative-300ms-closed-3000-jfr-1.jfr");
        ThreadAnalysisTest.record(recording, () -> {
            Thread worker = new Thread(() -> {
                spinBeforeTheStall(BEFORE);
                spinDuringTheStall(DURING);
            }, "executor-thread-1");
            worker.start();
            worker.join();
        });
        List<RecordedEvent> samples = RecordingFile.readAllEvents(recording).stream()
                .filter(e -> e.getEventType().getName().equals("jdk.ExecutionSample")).toList();
        Instant lastBefore = samples.stream().filter(e -> in(e, "spinBeforeTheStall")).map(RecordedEvent::getStartTime)
                .max(Instant::compareTo).orElseThrow(() -> new AssertionError("the first method was never sampled"));
        // second 1 of the measured interval: from just after the first method's last sample, a second long
        measuredAt = lastBefore.plusNanos(1).minusSeconds(1);
        StallChains.Interval second = StallChains.interval(measuredAt, new Stalls.Stall(1, 1, 10.0, 2000.0));
        samplesInTheSecond = samples.stream().filter(e -> second.contains(e.getStartTime())).count();
    }

    private static boolean in(RecordedEvent sample, String method) {
        return sample.getStackTrace() != null && sample.getStackTrace().getFrames().stream()
                .anyMatch(f -> f.getMethod() != null && f.getMethod().getName().equals(method));
    }

    @Test
    void theIntervalIsTheStallsSecondsFromTheMeasuredStart() {
        StallChains.Interval seconds = StallChains.interval(Instant.parse("2026-11-23T14:20:53.5Z"),
                new Stalls.Stall(12, 17, 20.0, 2807.0));
        assertThat(seconds.from()).isEqualTo(Instant.parse("2026-11-23T14:21:05.5Z"));
        assertThat(seconds.to()).isEqualTo(Instant.parse("2026-11-23T14:21:22.5Z"));
        assertThat(seconds.contains(seconds.from())).isTrue();
        assertThat(seconds.contains(seconds.to())).isFalse();
    }

    @Test
    void theStallsSamplesAreThoseOfItsSeconds() throws Exception {
        List<Stalls.Stall> stalls = Stalls.find(List.of(2000.0, 10.0, 2000.0), null);
        assertThat(stalls).singleElement().extracting(Stalls.Stall::firstSecond).isEqualTo(1);
        RecordedStall stall = StallChains.read(recording, stalls, measuredAt).getFirst();
        assertThat(stall.samples()).as("the samples of its second").isEqualTo(samplesInTheSecond).isPositive();
        // The spinning worker's, but for a stray sample of the test JVM's own threads on a busy machine.
        assertThat(stall.samplesByGroup().get("worker")).isGreaterThanOrEqualTo(stall.samples() * 9 / 10);
        assertThat(stall.topFrames()).filteredOn(t -> t.group().equals("worker"))
                .allSatisfy(t -> assertThat(t.site()).contains("spinDuringTheStall"))
                .noneSatisfy(t -> assertThat(t.site()).contains("spinBeforeTheStall"));
        assertThat(stall.chain()).isNull();
    }

    @Test
    void theAnalysisSaysTheStallWithItsTopFrames() throws Exception {
        Json.write(run.resolve("results.json"), Map.of("windows", List.of(Map.of(
                "jfr_file", "jfr/" + recording.getFileName(), "delay_ms", 300,
                "per_second", List.of(2000.0, 10.0, 2000.0), "measured_at", measuredAt.toString()))));
        ThreadAnalysis.Outcome outcome = new ThreadAnalysis(8090).analyse(run);
        assertThat(outcome.failures()).isEmpty();
        JsonNode stall = Json.MAPPER.readTree(outcome.json().toFile()).get("recordings").get(0).get("stalls").get(0);
        assertThat(stall.get("first_second").asInt()).isEqualTo(1);
        assertThat(stall.get("seconds").asInt()).isEqualTo(1);
        assertThat(stall.get("mean_rate").asDouble()).isEqualTo(10.0);
        assertThat(stall.get("top_frames").get(0).get("site").asText()).contains("spinDuringTheStall");
        assertThat(Verdicts.of(outcome.analyses().getFirst()).findings()).anyMatch(f -> f.startsWith(
                "throughput stalled for 1 s from second 1 of the measured interval (10 requests/s against the window's"
                        + " steady rate of 2000): ") && f.contains("no known chain: top frames ")
                && f.contains("spinDuringTheStall"));
        assertThat(Files.readString(outcome.markdown())).contains("**Throughput stalls**", "| 1 | 1 | 10 (2000) | ");
    }

    @Test
    void withoutWhenTheIntervalBeganNoStallIsMatched(@TempDir Path dir) throws Exception {
        Path jfr = Files.createDirectories(dir.resolve("jfr"));
        Files.copy(recording, jfr.resolve(recording.getFileName()));
        Json.write(dir.resolve("results.json"), Map.of("windows", List.of(Map.of(
                "jfr_file", "jfr/" + recording.getFileName(), "per_second", List.of(2000.0, 10.0, 2000.0)))));
        ThreadAnalysis.Outcome outcome = new ThreadAnalysis(8090).analyse(dir);
        assertThat(outcome.analyses().getFirst().measured().stalls()).isEmpty();
        assertThat(Files.readString(outcome.markdown())).doesNotContain("Throughput stalls");
    }

    /** Busy in a frame of its own, outside the JDK, as request code would be. */
    private static double spinBeforeTheStall(Duration duration) {
        long end = System.nanoTime() + duration.toNanos();
        double x = 0;
        while (System.nanoTime() < end) {
            x += Math.sqrt(x + 1);
        }
        return x;
    }

    /** The same work in another frame: the one the stall's seconds must show. */
    private static double spinDuringTheStall(Duration duration) {
        long end = System.nanoTime() + duration.toNanos();
        double x = 0;
        while (System.nanoTime() < end) {
            x += Math.cbrt(x + 1);
        }
        return x;
    }
}
