package io.threadlab.experiment.findings;

import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.testing.Windows;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

/** A request's CPU at another quota over the run's own, point by point, where both JVMs used their quota. */
class QuotaSideBySideTest {

    private static Windows at(double quota, int users, double cpuMs) {
        return Windows.closed("reactive", users, 2000).delay(50).quota(quota).cpuCores(quota).cpuMs(cpuMs)
                .jvmLabel("reactive-cpu" + quota);
    }

    @Test
    void eachPointMeasuredAtBothQuotasIsTheOtherQuotasCostOverTheOwnMedian() {
        List<WindowResult> windows = List.of(
                at(0.25, 900, 0.10).calibration().build(),
                at(0.5, 900, 0.12).calibration().build(),
                at(0.25, 1000, 0.10).build(),
                at(0.25, 1000, 0.14).repetition(2).build(),
                at(0.25, 1000, 0.12).repetition(3).build(), // the own quota's median: 0.12
                at(0.5, 1000, 0.09).build(),
                at(0.5, 2000, 0.10).build()); // no window at 0.25: no row
        List<QuotaSideBySide.Row> rows = QuotaSideBySide.rows("[run](r.md)", "r.csv", windows, 0.25);
        assertThat(rows).extracting(QuotaSideBySide.Row::window).containsExactly("calibration", "measured");
        assertThat(rows).extracting(QuotaSideBySide.Row::at).containsExactly("50 ms, 900 users",
                "50 ms, 1,000 users");
        assertThat(rows.get(1).quota()).isEqualTo("[0.50](r.csv) CPU");
        assertThat(rows.get(1).cost()).isEqualTo("[0.090](r.csv)");
        assertThat(rows.get(1).ownCost()).isEqualTo("[0.120](r.csv)");
        assertThat(rows.get(1).ratio()).isEqualTo("[0.75×](r.csv)");
        assertThat(rows.get(0).value()).isEqualTo(1.2, offset(1e-9));
    }

    @Test
    void aWindowBelowItsQuotaIsPartlyIdleWorkAndARunAtOneQuotaHasNoRows() {
        List<WindowResult> idle = List.of(
                at(0.25, 10, 0.30).calibration().build(),
                at(0.5, 10, 0.31).calibration().cpuCores(0.26).build()); // 52 % of its quota
        assertThat(QuotaSideBySide.rows("run", "r.csv", idle, 0.25)).isEmpty();
        List<WindowResult> one = List.of(at(0.5, 1000, 0.1).build(), at(0.5, 2000, 0.1).build());
        assertThat(QuotaSideBySide.rows("run", "r.csv", one, 0.5)).isEmpty();
    }
}
