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
        BurstSection.Row row = BurstSection.row(burst(2600, 2500.0, "workers", 200, 200, 0.6, 0.2, 0), TOLERANCE);
        assertThat(row.gap()).isEqualTo("+4 %");
        assertThat(row.lastAnswer()).isEqualTo("2,600");
        assertThat(row.k6Memory()).isEqualTo("900 MB");
        assertThat(row.why()).isEmpty();
    }

    @Test
    void aLongerBurstIsExplainedByWhatItsReadingsShowAndNothingElse() {
        List<String> why = BurstSection.row(burst(4000, 2500.0, "workers", 200, 120, 0.97, 0.8, 1), TOLERANCE).why();
        assertThat(why).hasSize(4);
        assertThat(why.get(0)).contains("97.0 % of its CPU quota");
        assertThat(why.get(1)).contains("k6 used 0.80 CPU");
        assertThat(why.get(2)).contains("at most 120 calls", "the workers count 200");
        assertThat(why.get(3)).contains("1 of k6's 4 senders fired late");
        // only the CPU shows: only the CPU is said
        assertThat(BurstSection.row(burst(4000, 2500.0, "workers", 200, 200, 0.97, 0.1, 0), TOLERANCE).why())
                .singleElement().asString().contains("CPU quota");
    }

    @Test
    void aGapItsReadingsDoNotShowIsSaidToBeUnexplained() {
        assertThat(BurstSection.row(burst(4000, 2500.0, "workers", 200, 200, 0.5, 0.1, 0), TOLERANCE).why())
                .containsExactly("not explained by the burst's readings (CPU, k6, calls at once, senders, failures)");
    }

    @Test
    void anUnpredictedBurstHasNoGap() {
        BurstSection.Row row = BurstSection.row(burst(1500, null, "not predicted: no calibration", null, 0, 1.0, 0.9,
                0), TOLERANCE);
        assertThat(row.gap()).isEqualTo("–");
        assertThat(row.predicted()).isEqualTo("–");
        assertThat(row.why()).isEmpty();
    }
}
