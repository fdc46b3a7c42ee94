package io.threadlab.experiment.findings;

import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.Headroom;
import io.threadlab.experiment.plan.Point;
import io.threadlab.experiment.report.landscape.Outcome;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** Where the CPU bound a held-out window, the CPU a request cost over the cost behind the forecast's CPU ceiling. */
class CostAgreementTest {

    /** A window at 0.5 CPU: {@code saturation} of its quota used at {@code measuredRps}, against a CPU ceiling. */
    private static Outcome window(String variant, double measuredRps, double saturation, Double cpuCeiling,
                                  long errors, boolean calibrated) {
        WindowResult.Prediction p = new WindowResult.Prediction(4000, "workers", 1.1, null, null, 0.1, false,
                "2026-12-05T08:00:00Z", variant + "-jvm1", cpuCeiling == null ? Map.of("workers", 4000.0)
                : Map.of("workers", 4000.0, "cpu", cpuCeiling), null, null, null, null);
        return new Outcome(variant, variant + "-jvm2", variant, Point.of(Axis.DELAY_MS, 50).with(Axis.USERS, 1000),
                measuredRps, Optional.of(p), calibrated, Optional.of(new Headroom(0.3, 1.0)),
                new Outcome.Readings(saturation, null, null, errors, Map.of(), Double.NaN, null, null, null, null));
    }

    @Test
    void theCostARequestHadAgainstTheForecastsIsReadWhereTheCpuBound() {
        List<CostAgreement> rows = CostAgreement.of("the delay service", List.of(
                // 0.5 CPU at 2,500 req/s: 0.2 ms a request, against 0.5 CPU / 5,000 req/s = 0.1 ms: twice the cost
                window("imperative", 2500, 1.0, 5000.0, 0, false),
                // 0.45 CPU at 3,000 req/s (0.15 ms) against 0.125 ms: 1.2 times
                window("imperative", 3000, 0.9, 4000.0, 0, false),
                window("imperative", 3000, 0.95, 4000.0, 0, false),
                window("imperative", 3000, 0.8, 4000.0, 0, false),        // the CPU did not bind: not read
                window("imperative", 3000, 1.0, 4000.0, 2, false),        // errors: not measured soundly
                window("imperative", 3000, 1.0, 4000.0, 0, true),         // calibrated at its point: not held out
                window("imperative", 3000, 1.0, null, 0, false),          // no CPU ceiling forecast
                window("reactive", 5000, 1.0, 5000.0, 0, false)));        // right
        assertThat(rows).extracting(CostAgreement::variant).containsExactly("imperative", "reactive");
        CostAgreement imperative = rows.getFirst();
        assertThat(imperative.work()).isEqualTo("the delay service");
        assertThat(imperative.windows()).isEqualTo("[3](../findings/)");
        // 1.20, 1.27, 2.00: the median and the tenths between neighbours
        assertThat(imperative.median()).isEqualTo("[1.27×](../findings/)");
        assertThat(imperative.low()).isEqualTo("[1.21×](../findings/)");
        assertThat(imperative.high()).isEqualTo("[1.85×](../findings/)");
        assertThat(rows.get(1).median()).isEqualTo("[1.00×](../findings/)");
        assertThat(CostAgreement.of("the delay service", List.of(window("reactive", 5000, 0.5, 5000.0, 0,
                false)))).isEmpty();
    }
}
