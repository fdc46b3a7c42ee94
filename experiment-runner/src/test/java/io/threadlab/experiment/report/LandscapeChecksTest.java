package io.threadlab.experiment.report;

import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.report.landscape.Landscape;
import io.threadlab.experiment.testing.Windows;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Each of the capacity model's checks passes on data that obeys it, fails on data that does not, and says when it had nothing to judge. */
class LandscapeChecksTest {

    private static WindowResult.Prediction predicted(double rps, String binding, double margin, boolean extrapolated,
                                                     double error) {
        return new WindowResult.Prediction(rps, binding, margin, 10.0, 300.0, error, extrapolated,
                "2026-11-23T10:00:00Z", "reactive-jvm1", Map.of(binding, rps), null, null, null, null);
    }

    private static Landscape landscape(WindowResult... rows) {
        return Landscape.of(List.of(rows), 2, false);
    }

    @Test
    void aMeasurementOutsideTheIntervalStatedBeforeItCountsAgainstTheCoverage() {
        // 5,800 inside 6,000 ± 5 %; 4,800 outside it, inside 6,000 ± 25 %
        Check covered = LandscapeChecks.covered(landscape(
                Windows.closed("reactive", 500, 5800).prediction(predicted(6000, "cpu", 2, false, 0.05)).build(),
                Windows.closed("reactive", 700, 4800).prediction(predicted(6000, "cpu", 2, false, 0.25)).build())
                .outcomes());
        assertThat(covered.verdict()).isEqualTo(Check.Verdict.PASSED);
        assertThat(covered.detail()).startsWith("2 of 2 points");
        Check missed = LandscapeChecks.covered(landscape(
                Windows.closed("reactive", 500, 5800).prediction(predicted(6000, "cpu", 2, false, 0.05)).build(),
                Windows.closed("reactive", 700, 4800).prediction(predicted(6000, "cpu", 2, false, 0.05)).build())
                .outcomes());
        assertThat(missed.verdict()).isEqualTo(Check.Verdict.FAILED);
        assertThat(missed.detail()).contains("1 of 2 points", "OUTSIDE: reactive at 10 ms, 700 users (4,800 outside"
                + " 5,700–6,300)");
        assertThat(LandscapeChecks.covered(landscape(Windows.closed("reactive", 500, 5000).build()).outcomes())
                .verdict()).isEqualTo(Check.Verdict.NOT_MEASURED);
    }

    @Test
    void anIntervalReachingDownToNothingIsNotCountedForTheCoverage() {
        // an error of 100 %: 0–12,000 holds any measurement, so it says nothing and is not a point for the interval
        Check covered = LandscapeChecks.covered(landscape(
                Windows.closed("reactive", 500, 5800).prediction(predicted(6000, "cpu", 2, false, 0.05)).build(),
                Windows.closed("reactive", 700, 900).prediction(predicted(6000, "cpu", 2, true, 1.0)).build())
                .outcomes());
        assertThat(covered.verdict()).isEqualTo(Check.Verdict.PASSED);
        assertThat(covered.detail()).isEqualTo("1 of 1 points (100 %); 1 more with an interval reaching down to"
                + " nothing not counted");
        Check none = LandscapeChecks.covered(landscape(
                Windows.closed("reactive", 700, 900).prediction(predicted(6000, "cpu", 2, true, 1.0)).build())
                .outcomes());
        assertThat(none.verdict()).as("nothing bounded, nothing judged").isEqualTo(Check.Verdict.NOT_MEASURED);
        assertThat(LandscapeChecks.extrapolated(landscape(
                Windows.closed("reactive", 700, 900).prediction(predicted(6000, "cpu", 2, true, 1.0)).build())
                .outcomes()).verdict()).isEqualTo(Check.Verdict.NOT_MEASURED);
    }

    @Test
    void theBindingCeilingIsNamedRightWhereTheMeasurementNamesTheSame() {
        // predicted the connections, measured at its whole quota: the CPU bound it, as measured
        WindowResult.Prediction connections = new WindowResult.Prediction(5000, "connections", 1.2, 10.0, 300.0, 0.1,
                false, "2026-11-23T10:00:00Z", "reactive-jvm1", Map.of("connections", 5000.0, "cpu", 6000.0),
                null, null, null, null);
        Check wrong = LandscapeChecks.named(landscape(Windows.closed("reactive", 1000, 5100).cpuCores(0.49)
                .prediction(connections).build()).outcomes());
        assertThat(wrong.verdict()).isEqualTo(Check.Verdict.FAILED);
        assertThat(wrong.detail()).contains("predicted connections, measured CPU");
        // at a third of its quota and at the connections' ceiling: they bound it, as predicted
        Check right = LandscapeChecks.named(landscape(Windows.closed("reactive", 1000, 5100).cpuCores(0.17)
                .prediction(connections).build()).outcomes());
        assertThat(right.verdict()).isEqualTo(Check.Verdict.PASSED);
    }

    @Test
    void heldOutPredictionsPassWithinFifteenPercentAndFailBeyond() {
        Check near = LandscapeChecks.heldOut(landscape(
                Windows.closed("reactive", 500, 5800).prediction(predicted(6000, "cpu", 2, false, 0.05)).build())
                .outcomes());
        assertThat(near.verdict()).isEqualTo(Check.Verdict.PASSED);
        assertThat(near.detail()).contains("1 of 1 points");
        Check far = LandscapeChecks.heldOut(landscape(
                Windows.closed("reactive", 500, 4800).prediction(predicted(6000, "cpu", 2, false, 0.05)).build())
                .outcomes());
        assertThat(far.verdict()).isEqualTo(Check.Verdict.FAILED);
        assertThat(far.detail()).contains("OFF: reactive at 10 ms, 500 users (measured 4,800, predicted 6,000 by CPU)");
    }

    @Test
    void aCalibratedPointATieOfCeilingsAShortLoadGeneratorOrErrorsAreNotJudgedAndLaggingCountsAre() {
        Check check = LandscapeChecks.heldOut(landscape(
                // calibrated here: in sample
                Windows.closed("reactive", 1000, 6000).calibration().build(),
                Windows.closed("reactive", 1000, 3000).prediction(predicted(6000, "cpu", 2, false, 0.05)).build(),
                // two ceilings within 15 %
                Windows.closed("reactive", 500, 3000).prediction(predicted(6000, "cpu", 1.1, false, 0.05)).build(),
                // k6 used 1.5 CPU of the 1.4 left to it
                Windows.closed("reactive", 400, 3000).k6Cores(1.5).prediction(predicted(6000, "cpu", 2, false, 0.05))
                        .build(),
                Windows.closed("reactive", 300, 3000).errors(5, Map.of("timeout", 5L))
                        .prediction(predicted(6000, "cpu", 2, false, 0.05)).build()).outcomes());
        assertThat(check.verdict()).isEqualTo(Check.Verdict.NOT_MEASURED);
        // k6 counted 30,000 where the delay service served 36,000: more apart than 200 users allow, and judged all
        // the same, for the point's throughput is the delay service's count
        Check lagging = LandscapeChecks.heldOut(landscape(Windows.closed("reactive", 200, 3000).served(36_000, 0.01)
                .prediction(predicted(6000, "cpu", 2, false, 0.05)).build()).outcomes());
        assertThat(lagging.verdict()).isEqualTo(Check.Verdict.FAILED);
        assertThat(lagging.detail()).contains("0 of 1 points");
        assertThat(LandscapeChecks.heldOut(landscape(Windows.closed("reactive", 500, 5000).build()).outcomes())
                .detail()).contains("nothing was predicted");
    }

    @Test
    void aCalibratedPointMeasuredAgainPassesWithinFifteenPercentOfItsCalibrationAndFailsBeyond() {
        // the map of 2026-11-27T07-53-58Z: imperative's calibration at 10 ms x 3,000 users served 1,600 req/s, the
        // same point 6 minutes later 2,875; reactive's 4,934 then 4,332
        WindowResult imperativeFirst = Windows.closed("imperative", 3000, 1600).calibration().build();
        WindowResult imperativeAgain = Windows.closed("imperative", 3000, 2875)
                .prediction(predicted(1751, "cpu", 2, false, 0.22)).build();
        WindowResult reactiveFirst = Windows.closed("reactive", 3000, 4934).calibration().build();
        WindowResult reactiveAgain = Windows.closed("reactive", 3000, 4332)
                .prediction(predicted(4808, "cpu", 2, false, 0.11)).build();
        List<WindowResult> rows = List.of(imperativeFirst, imperativeAgain, reactiveFirst, reactiveAgain);
        Check both = LandscapeChecks.repeated(Landscape.of(rows, 2, false).outcomes(), rows);
        assertThat(both.verdict()).isEqualTo(Check.Verdict.FAILED);
        assertThat(both.detail()).startsWith("1 of 2 points (worst 80 %)")
                .contains("imperative at 10 ms, 3,000 users: 1,600 then 2,875 (+80 %)")
                .contains("reactive at 10 ms, 3,000 users: 4,934 then 4,332 (-12 %)");
        List<WindowResult> reactive = List.of(reactiveFirst, reactiveAgain);
        assertThat(LandscapeChecks.repeated(Landscape.of(reactive, 2, false).outcomes(), reactive).verdict())
                .isEqualTo(Check.Verdict.PASSED);
        // a held-out point is no repeat; another delay is another point
        List<WindowResult> other = List.of(reactiveFirst, Windows.closed("reactive", 3000, 4332).delay(100)
                .prediction(predicted(4808, "cpu", 2, false, 0.11)).build());
        assertThat(LandscapeChecks.repeated(Landscape.of(other, 2, false).outcomes(), other).verdict())
                .isEqualTo(Check.Verdict.NOT_MEASURED);
    }

    @Test
    void laterJvmStartsAreJudgedOnThePredictionFromTheFirstOnesCalibration() {
        // predicted from reactive-jvm1's calibration, measured on JVM start 2
        WindowResult near = Windows.closed("reactive", 500, 5800).jvm(2)
                .prediction(predicted(6000, "cpu", 2, false, 0.05)).build();
        WindowResult far = Windows.closed("reactive", 1000, 4800).jvm(2)
                .prediction(predicted(6000, "cpu", 2, false, 0.05)).build();
        assertThat(LandscapeChecks.otherJvmStarts(landscape(near).outcomes()).verdict())
                .isEqualTo(Check.Verdict.PASSED);
        Check failed = LandscapeChecks.otherJvmStarts(landscape(near, far).outcomes());
        assertThat(failed.verdict()).isEqualTo(Check.Verdict.FAILED);
        assertThat(failed.detail()).contains("1 of 2 points", "OFF: reactive at 10 ms, 1,000 users");
        // the first JVM start's own point is the other check's, and leaves this one nothing to judge
        WindowResult own = Windows.closed("reactive", 500, 5800).prediction(predicted(6000, "cpu", 2, false, 0.05))
                .build();
        assertThat(LandscapeChecks.otherJvmStarts(landscape(own).outcomes()).verdict())
                .isEqualTo(Check.Verdict.NOT_MEASURED);
        assertThat(LandscapeChecks.heldOut(landscape(near).outcomes()).verdict())
                .isEqualTo(Check.Verdict.NOT_MEASURED);
    }

    @Test
    void extrapolationsAreJudgedAgainstTheErrorTheyClaimed() {
        WindowResult within = Windows.closed("reactive", 3000, 4500)
                .prediction(predicted(6000, "cpu", 2, true, 0.30)).build();
        WindowResult beyond = Windows.closed("reactive", 3000, 3000).jvm(2)
                .prediction(predicted(6000, "cpu", 2, true, 0.30)).build();
        assertThat(LandscapeChecks.extrapolated(landscape(within).outcomes()).verdict())
                .isEqualTo(Check.Verdict.PASSED);
        Check off = LandscapeChecks.extrapolated(landscape(within, beyond).outcomes());
        assertThat(off.verdict()).isEqualTo(Check.Verdict.FAILED);
        assertThat(off.detail()).contains("1 of 2").contains("claimed ±30 %");
        assertThat(LandscapeChecks.heldOut(landscape(within).outcomes()).verdict())
                .isEqualTo(Check.Verdict.NOT_MEASURED); // an extrapolation is not the 15 % target's
        assertThat(LandscapeChecks.extrapolated(landscape(Windows.closed("reactive", 500, 5000).build())
                .outcomes()).verdict()).isEqualTo(Check.Verdict.NOT_MEASURED);
    }

    @Test
    void theSaturationCheckFailsWhereTheCpuWasToBindButTheQuotaWasNotUsed() {
        WindowResult used = Windows.closed("reactive", 500, 5000).cpuCores(0.49)
                .prediction(predicted(5000, "cpu", 2, false, 0.05)).build();
        WindowResult idle = Windows.closed("reactive", 1000, 3000).cpuCores(0.3)
                .prediction(predicted(5000, "cpu", 2, false, 0.05)).build();
        assertThat(LandscapeChecks.saturation(landscape(used).outcomes()).verdict()).isEqualTo(Check.Verdict.PASSED);
        Check failed = LandscapeChecks.saturation(landscape(used, idle).outcomes());
        assertThat(failed.verdict()).isEqualTo(Check.Verdict.FAILED);
        assertThat(failed.detail()).contains("60 % of its quota");
        WindowResult users = Windows.closed("reactive", 10, 900).prediction(predicted(900, "users", 5, false, 0.05))
                .build();
        assertThat(LandscapeChecks.saturation(landscape(users).outcomes()).verdict())
                .isEqualTo(Check.Verdict.NOT_MEASURED);
    }

    @Test
    void littlesLawFailsWhereTheUsersWereNotKeptBusy() {
        WindowResult kept = Windows.closed("imperative", 3000, 640).delay(300).meanMs(4690).build();
        WindowResult idle = Windows.closed("imperative", 3000, 400).delay(300).meanMs(4690).jvm(2).build();
        assertThat(LandscapeChecks.little(landscape(kept).outcomes()).verdict()).isEqualTo(Check.Verdict.PASSED);
        Check failed = LandscapeChecks.little(landscape(kept, idle).outcomes());
        assertThat(failed.verdict()).isEqualTo(Check.Verdict.FAILED);
        assertThat(failed.detail()).contains("(1,876 busy: the load generator did not keep its users busy)")
                .doesNotContain("the service held");
        // the map of 2026-11-27: 2 req/s at 1,000 users, 23.6 s each, every user's request in flight at the end:
        // the users were busy, the service did not answer them
        WindowResult held = Windows.closed("imperative", 1000, 2.33).delay(1).meanMs(23623).inFlight(1000).jvm(3)
                .build();
        Check unanswered = LandscapeChecks.little(landscape(kept, held).outcomes());
        assertThat(unanswered.verdict()).isEqualTo(Check.Verdict.FAILED);
        assertThat(unanswered.detail()).contains("(55 busy: 1,000 in flight at its end, unanswered")
                .doesNotContain("did not keep its users busy");
        assertThat(LandscapeChecks.little(List.of()).verdict()).isEqualTo(Check.Verdict.NOT_MEASURED);
    }
}
