package io.threadlab.experiment.analyse;

import io.threadlab.api.KnownCostWorkloads;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Recordings made here of workloads whose waiting and CPU are known by construction: the analysis must name the
 * contended monitor and where it was waited for, the lock's park site, and put the CPU in the layers it was spent in.
 */
class SitesAndLayersTest {

    private static final int THREADS = 6;
    private static final int ROUNDS = 20;
    private static final int HOLD_MS = 3;
    private static final String LEDGER = "io.threadlab.api.KnownCostWorkloads$ContendedLedger";

    @TempDir
    static Path dir;

    static RecordingAnalysis contention;
    /** The jdk.JavaMonitorEnter events on the ledger, counted straight from the recording. */
    static long ledgerEnters;
    /** When the first of them began: the lane picture's slice is read from just before it. */
    static Instant firstLedgerEnter;
    static RecordingAnalysis cpu;
    private static final int ENOUGH_SAMPLES = 80;

    @BeforeAll
    static void recordKnownContentionAndKnownCpu() throws Exception {
        Path contended = dir.resolve("contention.jfr");
        long[] entries = new long[1];
        ThreadAnalysisTest.record(contended, () -> entries[0] = KnownCostWorkloads.contend(THREADS, ROUNDS, HOLD_MS));
        assertThat(entries[0]).isEqualTo(THREADS * ROUNDS);
        contention = new RecordingAnalyzer(8090).analyse(contended);
        try (RecordingFile recording = new RecordingFile(contended)) {
            while (recording.hasMoreEvents()) {
                RecordedEvent event = recording.readEvent();
                if (event.getEventType().getName().equals("jdk.JavaMonitorEnter")
                        && LEDGER.equals(event.getClass("monitorClass").getName())) {
                    ledgerEnters++;
                    if (firstLedgerEnter == null || event.getStartTime().isBefore(firstLedgerEnter)) {
                        firstLedgerEnter = event.getStartTime();
                    }
                }
            }
        }

        Path busy = dir.resolve("cpu.jfr");
        // Slices of 7 ms: a 14 ms cycle, which samples every 20 ms meet at every phase; slices of 5 ms make a 10 ms
        // cycle, which they meet at one phase, all in lab code or all in JSON. On a busy machine the sampler itself
        // gets less CPU: the workload runs longer until the recording holds enough samples to judge shares by.
        for (int seconds = 2; seconds <= 16; seconds *= 2) {
            int length = seconds;
            ThreadAnalysisTest.record(busy, () -> KnownCostWorkloads.labCodeAndJson(Duration.ofSeconds(length), 7));
            cpu = new RecordingAnalyzer(8090).analyse(busy);
            if (cpu.totalSamples() >= ENOUGH_SAMPLES) {
                break;
            }
        }
    }

    @Test
    void theContendedMonitorIsNamedWithItsSiteGroupAndNumbers() {
        WaitSites.Site top = contention.waitedAt().monitorEnterSites().getFirst();
        assertThat(top.on()).isEqualTo(LEDGER);
        assertThat(top.site()).startsWith(LEDGER + ".appendEntry:");
        assertThat(top.group()).isEqualTo("worker");
        // Every wait of 1 ms or more (the threshold) is counted. How many entries waited varies, 37 to 92 of 120
        // seen: a monitor is unfair, and the thread that leaves it may enter again before a waiting one wakes. But
        // each entry waited at most once, and each thread but the first in waited at least once.
        assertThat((long) top.count()).isEqualTo(ledgerEnters).isBetween(THREADS - 1L, (long) THREADS * ROUNDS);
        assertThat(top.totalMs()).isGreaterThanOrEqualTo(top.count() * 1.0);
        assertThat(top.maxMs()).isGreaterThanOrEqualTo(HOLD_MS - 0.5).isLessThanOrEqualTo(top.totalMs());
        assertThat(Verdicts.of(contention).findings()).anyMatch(f -> f.startsWith("most monitor contention: "
                + String.format(Locale.ROOT, "%,d waits for %s at %s (worker pool)", top.count(),
                LEDGER, top.site())));
    }

    @Test
    void theLockIsNamedAsAParkSite() {
        WaitSites.Site lock = contention.waitedAt().parkSites().stream()
                .filter(s -> s.site().startsWith(LEDGER + ".settle:")).findFirst().orElseThrow();
        assertThat(lock.on()).isEqualTo("java.util.concurrent.locks.ReentrantLock$NonfairSync");
        assertThat(lock.group()).isEqualTo("worker");
        assertThat(lock.count()).isBetween(THREADS * ROUNDS / 3, THREADS * ROUNDS);
        assertThat(lock.totalMs()).isGreaterThanOrEqualTo(lock.count() * 1.0);
        WaitSites.Site top = contention.waitedAt().parkSites().getFirst();
        assertThat(Verdicts.of(contention).findings()).contains(String.format(Locale.ROOT, "most parking: %,d parks"
                        + " on %s at %s (%s), %.1f s in total, longest %.1f ms", top.count(), top.on(), top.site(),
                top.groupLabel(), top.totalMs() / 1000, top.maxMs()));
    }

    @Test
    void cpuGoesToLabCodeAndJsonAsConstructed() {
        LayerCpu layers = cpu.cpu();
        long lab = layers.samples().get(Layer.LAB);
        long json = layers.samples().get(Layer.JSON);
        assertThat(lab + json).isGreaterThanOrEqualTo((long) (0.7 * cpu.totalSamples())).isGreaterThan(50);
        assertThat(cpu.totalSamples()).as("samples in the recording").isGreaterThanOrEqualTo(ENOUGH_SAMPLES);
        assertThat((double) lab / (lab + json)).as("lab code's part of lab + JSON samples").isBetween(0.3, 0.7);
        assertThat(layers.javaCpuSeconds()).isPositive();
        assertThat(layers.jvmCpuSeconds()).as("the JIT compiled Jackson meanwhile").isPositive();
        assertThat(layers.shares().values().stream().mapToDouble(Double::doubleValue).sum()).isCloseTo(1.0, within(1e-6));
        assertThat(layers.largest(3)).extracting(e -> e.getKey())
                .contains(Layer.LAB, Layer.JSON);
        assertThat(Verdicts.of(cpu).findings()).anyMatch(f -> f.startsWith("the largest CPU layers: ")
                && (f.contains("lab code") || f.contains("JSON")));
    }

    /**
     * A 200 ms slice from just before the first wait on the ledger: the monitor's phase is the workload's first half,
     * and neither a slice centred in the recording (on a busy machine JFR took longer to stop than to start, and the
     * slice saw the lock's phase alone) nor the whole recording (12.7 s on a busy machine: each block under a pixel,
     * too narrow for a label) is sure to show it.
     */
    @Test
    void theLanePictureLabelsTheContendedMonitor() throws IOException {
        ThreadLanes lanes = ThreadLanes.read(contention, firstLedgerEnter.minusMillis(10), Duration.ofMillis(200), 14);
        assertThat(lanes.title()).contains("200 ms from ").doesNotContain("middle");
        assertThat(lanes.lanes()).flatExtracting(ThreadLanes.Lane::segments)
                .filteredOn(s -> s.activity() == ThreadLanes.Activity.MONITOR).isNotEmpty()
                .allMatch(s -> "ContendedLedger @ ContendedLedger.appendEntry".equals(s.label()));
        Path svg = dir.resolve("lanes.svg");
        LaneChart.write(lanes, svg, null);
        String picture = Files.readString(svg);
        assertThat(picture).contains("Monitor blocks in this slice, by total wait",
                "1  ContendedLedger @ ContendedLedger.appendEntry: ");
        assertThat(picture).containsPattern("fill=\"#ffffff\" font-weight=\"bold\">(1|ContendedLedger @ "
                + "ContendedLedger.appendEntry)</text>");
    }
}
