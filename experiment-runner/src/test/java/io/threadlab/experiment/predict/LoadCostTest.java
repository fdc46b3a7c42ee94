package io.threadlab.experiment.predict;

import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.Point;
import io.threadlab.experiment.plan.Variant;
import io.threadlab.experiment.testing.Windows;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The load generator in the forecast: k6's upkeep and CPU per request fitted to the calibration windows, and the point
 * where k6, on the cores it shares with the service, would run out of room named before it is measured.
 */
class LoadCostTest {

    /** k6 spends 0.3 CPU on itself and 0.15 CPU-ms a request; the delay service 0.04 CPU-ms a call. */
    private static WindowResult window(int users, double rps, double cpuMs, double cores, double k6PerRequestMs) {
        return Windows.closed("reactive", users, rps).cpuMs(cpuMs).cpuCores(cores)
                .k6Cores(0.3 + k6PerRequestMs * rps / 1000).delayCores(0.04 * rps / 1000).calibration()
                .withoutPercentiles().build();
    }

    private static List<WindowResult> calibration(double k6PerRequestMs) {
        return List.of(window(700, 5000, 0.1, 0.5, k6PerRequestMs), window(300, 4700, 0.106, 0.5, k6PerRequestMs),
                window(150, 4500, 0.111, 0.5, k6PerRequestMs), window(10, 900, 0.13, 0.12, k6PerRequestMs));
    }

    /** A calibration whose windows ran k6 without the histogram the measured windows keep: its cost is added. */
    @Test
    void kSixsUpkeepAndCostPerRequestAreFittedFromTheCalibration() {
        LoadCost load = LoadCost.fit(calibration(0.15));
        assertThat(load.baseCores()).isCloseTo(0.3 * LoadCost.HISTOGRAM, within(1e-9));
        assertThat(load.msPerRequest()).isCloseTo(0.15 * LoadCost.HISTOGRAM, within(1e-9));
        assertThat(load.delayMsPerCall()).isCloseTo(0.04, within(1e-9));
        assertThat(load.k6Cores(5000)).isCloseTo(1.05 * LoadCost.HISTOGRAM, within(1e-9));
    }

    /** A calibration that kept the histogram (it measured percentiles), as every calibration now does: as it was. */
    @Test
    void windowsThatKeptTheHistogramAreTakenAsTheyWere() {
        List<WindowResult> calibration = List.of(
                Windows.closed("reactive", 700, 5000).k6Cores(0.3 + 0.15 * 5).calibration().build(),
                Windows.closed("reactive", 150, 4000).k6Cores(0.3 + 0.15 * 4).calibration().build());
        LoadCost load = LoadCost.fit(calibration);
        assertThat(load.baseCores()).isCloseTo(0.3, within(1e-9));
        assertThat(load.msPerRequest()).isCloseTo(0.15, within(1e-9));
    }

    /** k6's error: the worst miss at a calibration window the line was fitted without, none where k6 ran true. */
    @Test
    void kSixsErrorIsTheWorstMissOfAWindowLeftOut() {
        assertThat(LoadCost.fit(calibration(0.15)).error()).as("k6 on its line in every window").isCloseTo(0,
                within(1e-9));
        List<WindowResult> noisy = List.of(window(700, 5000, 0.1, 0.5, 0.15), window(300, 4700, 0.106, 0.5, 0.15),
                Windows.closed("reactive", 150, 4500).k6Cores(1.2 * (0.3 + 0.15 * 4.5)).delayCores(0.18)
                        .calibration().withoutPercentiles().build(), window(10, 900, 0.13, 0.12, 0.15));
        LoadCost load = LoadCost.fit(noisy);
        assertThat(load.error()).as("at least the 20 %% the window k6 overspent in misses by, left out")
                .isGreaterThanOrEqualTo(0.2 - 1e-9);
        assertThat(load.mostUsers()).isEqualTo(700);
        assertThat(load.errorAt(700)).isEqualTo(load.error());
        assertThat(load.errorAt(2000)).isCloseTo(load.error() + CpuCurve.EXTRAPOLATION_PER_EFOLD
                * Math.log(2000 / 700.0), within(1e-9));
        LoadCost two = LoadCost.fit(noisy.subList(0, 2));
        assertThat(two.error()).as("two windows leave none out").isNaN();
        assertThat(two.errorAt(2000)).as("none earned, none stated").isNaN();
        assertThat(two.crowded(4000, 1, 2, 0.5)).as("0.98 of the 1.34 CPU left to k6").isFalse();
        assertThat(two.mayCrowd(4000, 1, 2, 0.5, 2000)).as("no error earned: no 'may' beside it").isFalse();
    }

    /** At a throughput whose k6 fits its room, more users than calibrated widen the error until k6 may crowd it. */
    @Test
    void beyondTheUsersCalibratedKSixMayCrowdWhereItsErrorReachesPastTheRule() {
        LoadCost load = new LoadCost(0, 0.1, 0.04, 0.5, 700); // at 6,000 req/s: k6 0.6 of the 1.26 CPU left to it
        assertThat(load.crowded(6000, 1, 2, 0.5)).isFalse();
        assertThat(load.mayCrowd(6000, 1, 2, 0.5, 700)).as("up to 0.90 CPU, 71 %% of its room").isFalse();
        assertThat(load.mayCrowd(6000, 1, 2, 0.5, 2000)).as("±82 %%: up to 1.09 CPU, 86 %%").isTrue();
        assertThat(load.describe(6000, 1, 2, 0.5, 2000))
                .isEqualTo("k6 about 0.60 of the 1.26 CPU left to it (48 %), ±81 % (up to 1.09, 86 %)");
        assertThat(new LoadCost(0, 0.1, 0.04, Double.NaN, 700).describe(6000, 1, 2, 0.5, 2000))
                .as("no error earned: none stated").isEqualTo("k6 about 0.60 of the 1.26 CPU left to it (48 %)");
    }

    @Test
    void whereKSixWouldRunOutOfItsRoomTheLoadGeneratorBindsAndTheForecastSaysSo() {
        // a heavy k6: 0.3 CPU-ms a request, and its upkeep 0.3 CPU, each HISTOGRAM times over in a measured window.
        // On 2 cores 1.5 are left beside the quota: (1.5 - 0.327) / (0.327 + 0.04) CPU-ms = 3,196 req/s, below the
        // CPU's ceiling
        CapacityModel model = CapacityModel.fit("reactive-jvm1", Variant.Threads.EVENT_LOOP, calibration(0.3)).model()
                .orElseThrow();
        Point at = Point.of(Axis.CPUS, 0.5).with(Axis.POOL_SIZE, 10000).with(Axis.DELAY_MS, 10)
                .with(Axis.USERS, 700);
        Forecast shared = model.onMachine(2).predict(at);
        assertThat(shared.binding()).isEqualTo(Ceiling.LOAD);
        double k6 = 0.3 * LoadCost.HISTOGRAM;
        assertThat(shared.rps()).isCloseTo((1.5 - k6) / ((k6 + 0.04) / 1000), within(0.5));
        assertThat(shared.notes()).anySatisfy(n -> assertThat(n).startsWith("k6 about")
                .contains("the load generator binds here, not the service"));
        // k6 elsewhere: no such ceiling, and the service's CPU binds
        Forecast alone = model.predict(at);
        assertThat(alone.ceilings()).doesNotContainKey(Ceiling.LOAD);
        assertThat(alone.binding()).isEqualTo(Ceiling.CPU);
        assertThat(alone.k6Cores()).isCloseTo(k6 + k6 * alone.rps() / 1000, within(1e-6));
        // a light k6 has room, but more of it than the report's rule allows: said, and not bound
        Forecast crowded = CapacityModel.fit("reactive-jvm1", Variant.Threads.EVENT_LOOP, calibration(0.15)).model()
                .orElseThrow().onMachine(2).predict(at);
        assertThat(crowded.binding()).isEqualTo(Ceiling.CPU);
        assertThat(crowded.notes()).anySatisfy(n -> assertThat(n).contains("will not be judged"));
        assertThat(crowded.k6Error()).as("k6 on its line in every calibration window").isCloseTo(0, within(1e-9));
    }
}
