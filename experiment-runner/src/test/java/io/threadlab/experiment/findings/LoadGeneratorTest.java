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

/** The load generator's forecast judged per request on held-out windows, and whether it foresaw k6 crowding. */
class LoadGeneratorTest {

    private static Outcome window(double measuredRps, double k6Cores, double room, double predictedRps,
                                  Double predictedK6, boolean calibrated) {
        return window(measuredRps, k6Cores, room, predictedRps, predictedK6, null, calibrated);
    }

    private static Outcome window(double measuredRps, double k6Cores, double room, double predictedRps,
                                  Double predictedK6, Double k6Error, boolean calibrated) {
        WindowResult.Prediction p = new WindowResult.Prediction(predictedRps, "cpu", 1.5, null, null, 0.1, false,
                "2026-12-04T18:00:00Z", "reactive-jvm1", Map.of("cpu", predictedRps), predictedK6, null, null,
                k6Error);
        return new Outcome("reactive", "reactive-jvm1", "reactive", Point.of(Axis.DELAY_MS, 50).with(Axis.USERS, 1000),
                measuredRps, Optional.of(p), calibrated, Optional.of(new Headroom(k6Cores, room)),
                new Outcome.Readings(0.99, null, null, 0, Map.of(), Double.NaN, null, null, null,
                        null));
    }

    @Test
    void kSixIsJudgedPerRequestAndItsCrowdingAgainstWhatTheForecastSaid() {
        LoadGenerator k6 = LoadGenerator.of(List.of(
                window(1000, 0.2, 1.0, 1000, 0.1, false),     // twice the CPU a request the forecast said, room left
                window(2000, 0.9, 1.0, 2000, 0.9, false),     // crowded, and said so (0.9 of the room)
                window(2000, 0.95, 1.0, 2000, 0.5, false),    // crowded, said to leave room: 1.9 times the cost
                window(2000, 0.95, 1.0, 1000, 0.1, true),     // a calibrated point: no test of the forecast
                window(2000, Double.NaN, 1.0, 2000, 0.5, false), // k6 not read
                window(2000, 0.5, 1.0, 2000, null, false)), List.of());  // no forecast of k6 (an older run)
        assertThat(k6.windows()).isEqualTo("[3](../findings/)");
        assertThat(k6.ratio()).isEqualTo("[1.90×](../findings/)");
        assertThat(k6.crowded()).isEqualTo("[2](../findings/)");
        assertThat(k6.foreseen()).isEqualTo("[1](../findings/)");
        assertThat(k6.under()).isTrue();
        assertThat(k6.unforeseen()).as("1 of 2 foreseen: half").isFalse();
        LoadGenerator blind = LoadGenerator.of(List.of(window(2000, 0.95, 1.0, 2000, 0.5, false),
                window(2000, 0.95, 1.0, 2000, 0.5, false), window(2000, 0.9, 1.0, 2000, 0.9, false)), List.of());
        assertThat(blind.foreseen()).isEqualTo("[1](../findings/)");
        assertThat(blind.unforeseen()).as("1 of 3 foreseen").isTrue();
        // per request: a forecast that had the throughput wrong but k6's cost a request right is right
        LoadGenerator right = LoadGenerator.of(List.of(window(1000, 0.1, 1.0, 2000, 0.2, false)), List.of());
        assertThat(right.ratio()).isEqualTo("[1.00×](../findings/)");
        assertThat(right.under()).isFalse();
        assertThat(LoadGenerator.of(List.of(window(1000, 0.1, 1.0, 1000, null, false)), List.of())).isNull();
    }

    @Test
    void theErrorStatedOfKSixSaysWhichWindowsItCoversAndWhichItMightCrowd() {
        Outcome within = window(1000, 0.12, 1.0, 1000, 0.1, 0.3, false);    // 1.2× the cost a request: within ±30 %
        Outcome outside = window(1000, 0.15, 1.0, 1000, 0.1, 0.3, false);   // 1.5×: outside
        List<Outcome> windows = List.of(within, outside,
                window(2000, 0.9, 1.0, 2000, 0.7, 0.3, false),    // crowded; said 0.7 of the room, up to 0.91: might
                window(2000, 0.9, 1.0, 2000, 0.7, 0.1, false),    // crowded; up to 0.77: not foreseen at all
                window(2000, 0.85, 1.0, 2000, 0.85, 0.1, false),  // crowded, and said it would
                window(2000, 0.6, 1.0, 2000, 0.7, 0.3, false),    // room left, but said it might: an alarm
                window(2000, 0.6, 1.0, 2000, 0.6, null, false));  // room left; no error stated (an older forecast)
        LoadGenerator k6 = LoadGenerator.of(windows, List.of(within));
        assertThat(k6.windows()).isEqualTo("[7](../findings/)");
        assertThat(k6.all().stated()).as("the older forecast stated no error: not judged by one")
                .isEqualTo("[6](../findings/)");
        assertThat(k6.all().inside()).as("1.2×, 1.29×, 0.86× within their ±30 %%, 1.0× within ±10 %%; 1.5× and"
                + " 1.29× (±10 %%) outside").isEqualTo("[4](../findings/)");
        assertThat(k6.all().share()).isEqualTo("[67 %](../findings/)");
        assertThat(k6.all().under()).isTrue();
        // the windows predicted from calibrations that kept k6's histogram, counted on their own
        assertThat(k6.kept().inside()).isEqualTo("[1](../findings/)");
        assertThat(k6.kept().stated()).isEqualTo("[1](../findings/)");
        assertThat(k6.kept().under()).isFalse();
        assertThat(LoadGenerator.of(windows, List.of(within, outside)).kept().share()).isEqualTo("[50 %](../findings/)");
        assertThat(k6.crowded()).isEqualTo("[3](../findings/)");
        assertThat(k6.foreseen()).isEqualTo("[1](../findings/)");
        assertThat(k6.warned()).isEqualTo("[1](../findings/)");
        assertThat(k6.unforeseen()).as("2 of 3 said would or might").isFalse();
        assertThat(k6.calm()).isEqualTo("[4](../findings/)");
        assertThat(k6.alarms()).isEqualTo("[1](../findings/)");
        LoadGenerator covered = LoadGenerator.of(List.of(within), List.of());
        assertThat(covered.all().under()).isFalse();
        assertThat(covered.kept()).as("no window from a calibration that kept the histogram").isNull();
        // no forecast stated an error (none earned, or older runs): no coverage to judge, neither met nor missed
        Outcome unstated = window(1000, 0.3, 1.0, 1000, 0.1, null, false);
        LoadGenerator none = LoadGenerator.of(List.of(unstated), List.of(unstated));
        assertThat(none.all().stated()).isEqualTo("[0](../findings/)");
        assertThat(none.all().share()).isEqualTo("–");
        assertThat(none.all().under()).isFalse();
        assertThat(none.kept()).as("none stated an error there either").isNull();
    }
}
