package io.threadlab.experiment.report.landscape;

import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.testing.Windows;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sleeps are named for a CPU-ceiling miss only where the point's threads slept fewer or more times a request than
 * the calibration's with as many waiting, the way the miss runs and by enough of it. The calibration is the virtual
 * threads' at 10 ms of the map 2026-11-28T00-49-34Z: 30, 200 and 700 users, 4.46, 1.36 and 0.56 sleeps a request.
 */
class SleepGapTest {

    private static WindowResult.Prediction predicted(double rps) {
        return new WindowResult.Prediction(rps, "cpu", 2, 10.0, 300.0, 0.05, false, "2026-11-28T01:00:00Z",
                "virtual-thread-jvm1", Map.of("cpu", rps), null, null, null, null);
    }

    private static Optional<String> explain(double cpuMs, double rps, double sleeps) {
        List<WindowResult> rows = new ArrayList<>(List.of(
                Windows.closed("virtual-thread", 30, 2566).cpuMs(0.188).sleeps(4.46).calibration().build(),
                Windows.closed("virtual-thread", 200, 4519).cpuMs(0.110).sleeps(1.36).calibration().build(),
                Windows.closed("virtual-thread", 700, 5820).cpuMs(0.086).sleeps(0.56).calibration().build()));
        // predicted at the calibration's cost there (0.0962 CPU-ms: 5,196 req/s), measured cheaper
        rows.add(Windows.closed("virtual-thread", 500, rps).cpuMs(cpuMs).sleeps(sleeps).prediction(predicted(5196))
                .build());
        Outcome point = Landscape.of(rows, 2, false).outcomes().stream().filter(o -> o.users() == 500).findFirst()
                .orElseThrow();
        return SleepGap.explain(point, rows);
    }

    @Test
    void fewerSleepsThanTheCalibrationsWithAsManyWaitingNameTheSleeps() {
        // 500 - 6,200 x 10.4 ms = 435.5 waiting; the calibration slept 0.77 times a request there (in log, 73 % of
        // the way from 200 users' 1.36 to 700's 0.56); 0.40 here
        assertThat(explain(0.0806, 6200, 0.40)).hasValueSatisfying(n -> assertThat(n)
                .startsWith("the sleeps: its threads slept 0.40 times a request, the calibration's 0.77 with as many"
                        + " waiting (436): at ")
                .endsWith("of the -0.016 it paid against the prediction"));
    }

    @Test
    void asManySleepsAsTheCalibrationsAreNotNamed() {
        assertThat(explain(0.0806, 6200, 0.77)).hasValueSatisfying(n -> assertThat(n)
                .startsWith("not the sleeps: its threads slept 0.77 times a request, the calibration's 0.77"));
        // more sleeps than the calibration's, where the point was cheaper: the sleeps run the other way
        assertThat(explain(0.0806, 6200, 1.20)).hasValueSatisfying(n -> assertThat(n).startsWith("not the sleeps: "));
    }

    @Test
    void aPointWithinTheTargetOrWithoutCountedSleepsGetsNothing() {
        assertThat(explain(0.0962, 5196, 0.40)).as("within 15 %").isEmpty();
        List<WindowResult> rows = new ArrayList<>(List.of(
                Windows.closed("virtual-thread", 200, 4519).cpuMs(0.110).calibration().build(),
                Windows.closed("virtual-thread", 700, 5820).cpuMs(0.086).calibration().build()));
        rows.add(Windows.closed("virtual-thread", 500, 6200).cpuMs(0.0806).prediction(predicted(5196)).build());
        Outcome point = Landscape.of(rows, 2, false).outcomes().stream().filter(o -> o.users() == 500).findFirst()
                .orElseThrow();
        assertThat(SleepGap.explain(point, rows)).isEmpty();
    }
}
