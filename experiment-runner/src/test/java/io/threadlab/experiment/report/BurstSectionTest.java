package io.threadlab.experiment.report;

import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.testing.Windows;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * "The burst": each burst beside its prediction, and the reasons for a gap only where the burst's own readings show
 * them, each with its number; a gap they do not explain is said to be unexplained.
 */
class BurstSectionTest {

    private static final double TOLERANCE = Thresholds.ENFORCED.tolerance();
    private static final double QUOTA = 0.5;
    private static final int READ_TIMEOUT_MS = 5000;

    private static WindowResult burst(double lastMs, Double predictedMs, String binding, Integer slots, double held,
                                      double cpuShare, double k6Cores, long lateSenders) {
        WindowResult w = Windows.closed("imperative", 1000, 4000).delay(50).build();
        w = new WindowResult(w.window(), w.at().without(Axis.USERS).with(Axis.REQUESTS, 10_000), w.load(), w.cpu(),
                w.memory(), w.instruments(), w.compiler(), w.gc(), w.threadGroups(), null);
        return w.withBurst(new WindowResult.BurstFigures(4, lastMs, 3.0, lateSenders, 0, held, slots, cpuShare,
                k6Cores, 900.0, predictedMs, binding, Map.of(), List.of()));
    }

    @Test
    void aBurstWithinTheToleranceNeedsNoReason() {
        BurstSection.Row row = BurstSection.row(burst(2600, 2500.0, "workers", 200, 200, 0.6, 0.2, 0), TOLERANCE, QUOTA, READ_TIMEOUT_MS);
        assertThat(row.gap()).isEqualTo("+4 %");
        assertThat(row.lastAnswer()).isEqualTo("2,600");
        assertThat(row.k6Memory()).isEqualTo("900 MB");
        assertThat(row.why()).isEmpty();
    }

    @Test
    void aLongerBurstIsExplainedByWhatItsReadingsShowAndNothingElse() {
        List<String> why = BurstSection.row(burst(4000, 2500.0, "workers", 200, 120, 0.97, 0.8, 1), TOLERANCE, QUOTA, READ_TIMEOUT_MS).why();
        assertThat(why).hasSize(4);
        assertThat(why.get(0)).contains("97.0 % of its CPU quota");
        assertThat(why.get(1)).contains("k6 used 0.80 CPU");
        assertThat(why.get(2)).contains("at most 120 calls", "the workers count 200");
        assertThat(why.get(3)).contains("1 of k6's 4 senders fired late");
        // only the CPU shows: only the CPU is said
        assertThat(BurstSection.row(burst(4000, 2500.0, "workers", 200, 200, 0.97, 0.1, 0), TOLERANCE, QUOTA, READ_TIMEOUT_MS).why())
                .singleElement().asString().contains("CPU quota");
    }

    @Test
    void aBurstTheCpuBindsIsExplainedByWhatARequestCostInItAgainstTheCalibration() {
        // 10,000 requests at 0.1 CPU-ms each on 0.5 CPU: the CPU ceiling's 2,000 ms; the burst's requests cost 0.25
        WindowResult w = Windows.closed("reactive", 1000, 4000).delay(0).cpuMs(0.25).build();
        w = new WindowResult(w.window(), w.at().without(Axis.USERS).with(Axis.REQUESTS, 10_000), w.load(), w.cpu(),
                w.memory(), w.instruments(), w.compiler(), w.gc(), w.threadGroups(), null)
                .withBurst(new WindowResult.BurstFigures(4, 3000.0, 3.0, 0, 0, 0.0, null, 0.95, 0.2, 900.0, 2000.0,
                        "CPU", Map.of("CPU", 2000.0), List.of()));
        assertThat(w.cpu().cpuMsPerRequest()).as("the fixture's CPU per request").isEqualTo(0.25);
        List<String> why = BurstSection.row(w, TOLERANCE, QUOTA, READ_TIMEOUT_MS).why();
        assertThat(why).contains("a request cost 0.250 CPU-ms in the burst against the 0.100 the closed model's"
                + " calibration gave (+150 %)");
        // where the burst's requests cost what the calibration said, that is no reason
        assertThat(BurstSection.why(w, 0.5, TOLERANCE, w.cpu().cpuMsPerRequest() * 10_000 / 2000.0,
                READ_TIMEOUT_MS))
                .noneMatch(r -> r.startsWith("a request cost"));
    }

    @Test
    void timeoutsPastTheClientsReadTimeoutAreSaidWithItAndTheCeilingsLastWave() {
        WindowResult w = burst(8766, 10_018.0, "connections", 1000, 1000, 0.6, 0.2, 0);
        w = new WindowResult(w.window(), w.at(), new WindowResult.Load(10_000, 9, 1140, 4000.0, 5000.0, 5001.0, 5002.0,
                3000.0, 4191, Map.of("http_504", 4191L), 0L, 0, List.of(), List.of()), w.cpu(), w.memory(),
                w.instruments(), w.compiler(), w.gc(), w.threadGroups(), null).withBurst(w.burst());
        assertThat(BurstSection.row(w, TOLERANCE, QUOTA, READ_TIMEOUT_MS).why()).anySatisfy(r -> assertThat(r)
                .startsWith("4,191 requests answered 504 after the client's read timeout (5,000 ms)")
                .contains("connections ceiling's last wave (10,018 ms)"));
        // where the ceiling's last wave is inside the read timeout, 504s are failures like any other
        assertThat(BurstSection.row(w, TOLERANCE, QUOTA, 20_000).why()).anySatisfy(r -> assertThat(r)
                .startsWith("4,191 requests failed (4,191 (http_504 4191))"));
    }

    @Test
    void aGapItsReadingsDoNotShowIsSaidToBeUnexplained() {
        assertThat(BurstSection.row(burst(4000, 2500.0, "workers", 200, 200, 0.5, 0.1, 0), TOLERANCE, QUOTA, READ_TIMEOUT_MS).why())
                .containsExactly("not explained by the burst's readings (CPU, k6, calls at once, the collector,"
                        + " senders, failures)");
    }

    @Test
    void aCollectorPauseThatTakesMostOfTheExcessIsSaidWithItsCollections() {
        // burst-1's imperative twin at 100 ms: 6,078 ms against the workers' 5,102, with 0.184 s young and 0.641 s full
        WindowResult w = Windows.closed("imperative", 1000, 4000).delay(100).gcPauses(0.184, 0.641).build();
        w = new WindowResult(w.window(), w.at().without(Axis.USERS).with(Axis.REQUESTS, 10_000), w.load(), w.cpu(),
                w.memory(), w.instruments(), w.compiler(), w.gc(), w.threadGroups(), null)
                .withBurst(new WindowResult.BurstFigures(4, 6078.0, 3.0, 0, 0, 200.0, 200, 0.79, 0.26, 488.0, 5102.0,
                        "workers", Map.of("workers", 5102.0), List.of()));
        assertThat(BurstSection.row(w, TOLERANCE, QUOTA, READ_TIMEOUT_MS).why()).containsExactly("the collector"
                + " paused the JVM 825 ms in the burst (1 full, 3 young collections), every thread stopped: 85 % of"
                + " the 976 ms beyond the prediction");
        // a pause of less than half the excess is not the reason
        WindowResult shortPause = Windows.closed("imperative", 1000, 4000).delay(100).gcPauses(0.3, 0).build();
        shortPause = new WindowResult(shortPause.window(), w.at(), shortPause.load(), shortPause.cpu(),
                shortPause.memory(), shortPause.instruments(), shortPause.compiler(), shortPause.gc(),
                shortPause.threadGroups(), null).withBurst(w.burst());
        assertThat(BurstSection.row(shortPause, TOLERANCE, QUOTA, READ_TIMEOUT_MS).why())
                .singleElement().asString().startsWith("not explained");
    }

    @Test
    void anUnpredictedBurstHasNoGap() {
        BurstSection.Row row = BurstSection.row(burst(1500, null, "not predicted: no calibration", null, 0, 1.0, 0.9,
                0), TOLERANCE, QUOTA, READ_TIMEOUT_MS);
        assertThat(row.gap()).isEqualTo("–");
        assertThat(row.predicted()).isEqualTo("–");
        assertThat(row.why()).isEmpty();
    }
}
