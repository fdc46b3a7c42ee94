package io.threadlab.experiment.predict;

import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.Point;
import io.threadlab.experiment.plan.Variant;
import io.threadlab.experiment.testing.Windows;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.function.IntToDoubleFunction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * What the young collections cost a request beyond the calibrated users where the requests alive overflow the survivor
 * space: a line in the users through their pauses.
 */
class YoungCopyingTest {

    /**
     * CapacityModelTest's calibration at 10 ms (10 users light; 100, 300 and 1,000 CPU-bound), 10-s windows, with 1,
     * 5, 5 and 6 young collections each pausing {@code msPerCollection} of its users.
     */
    private static List<WindowResult> calibration(IntToDoubleFunction msPerCollection) {
        return calibration(msPerCollection, 0);
    }

    /**
     * The same, the survivor space (17.9 MB) holding 10 KB a user at each window's end, the young collections
     * promoting {@code promotedMb} in each 10-s window.
     */
    private static List<WindowResult> calibration(IntToDoubleFunction msPerCollection, double promotedMb) {
        return List.of(
                window(1000, 6250, 0.08, 0.5, 6, msPerCollection, promotedMb),
                window(300, 0.5 / 0.105 * 1000, 0.105, 0.5, 5, msPerCollection, promotedMb),
                window(100, 0.5 / 0.11 * 1000, 0.11, 0.5, 5, msPerCollection, promotedMb),
                Windows.closed("reactive", 10, 10 / 0.011).cpuMs(0.13).meanMs(11)
                        .youngCollections(1, msPerCollection.applyAsDouble(10) / 1000)
                        .survivors(0.1, SURVIVOR_SPACE_MB, promotedMb).calibration().build());
    }

    private static final double SURVIVOR_SPACE_MB = 17.9;

    private static WindowResult window(int users, double rps, double cpuMs, double cores, int collections,
                                       IntToDoubleFunction msPerCollection, double promotedMb) {
        return Windows.closed("reactive", users, rps).cpuMs(cpuMs).cpuCores(cores)
                .youngCollections(collections, collections * msPerCollection.applyAsDouble(users) / 1000)
                .survivors(0.01 * users, SURVIVOR_SPACE_MB, promotedMb).calibration().build();
    }

    private static CapacityModel model(List<WindowResult> calibration) {
        return CapacityModel.fit("jvm", Variant.Threads.EVENT_LOOP, calibration).model().orElseThrow();
    }

    private static Point at(int users) {
        return Point.of(Axis.CPUS, 0.5).with(Axis.POOL_SIZE, 5000).with(Axis.DELAY_MS, 10).with(Axis.USERS, users);
    }

    /** Every window's requests: 10 s at its throughput, rounded as the fixture rounds them. */
    private static double requests(List<WindowResult> calibration) {
        return calibration.stream().mapToDouble(w -> w.load().requests()).sum();
    }

    @Test
    void aPauseGrowingWithTheUsersIsALineThroughThemWeightedByTheirCollections() {
        List<WindowResult> growing = calibration(users -> 2 + 0.03 * users);
        YoungCopying copying = YoungCopying.fit(growing, 1000);
        assertThat(copying.perRequest()).isCloseTo(17 / requests(growing), within(1e-12));
        assertThat(copying.msPerUser()).isCloseTo(0.03, within(1e-9));
        assertThat(copying.survivorMbPerUser()).isCloseTo(0.01, within(1e-12));
        assertThat(copying.survivorMaxMb()).isEqualTo(SURVIVOR_SPACE_MB);
        assertThat(copying.promoting()).isFalse();
        assertThat(copying.cpuMsAt(1000)).isZero();
        assertThat(copying.cpuMsAt(700)).isZero();
        assertThat(copying.cpuMsAt(3000)).isCloseTo(17 / requests(growing) * 0.03 * 2000, within(1e-12));
        // a pause the users do not lengthen (or shorten) adds nothing beyond them
        assertThat(YoungCopying.fit(calibration(users -> 5), 1000).cpuMsAt(3000)).isZero();
        assertThat(YoungCopying.fit(calibration(users -> 40 - 0.01 * users), 1000).cpuMsAt(3000)).isZero();
    }

    @Test
    void onlyWhereTheSurvivorsOverflowTheSurvivorSpaceAndTheCalibrationPromotedNothing() {
        IntToDoubleFunction growing = users -> 2 + 0.03 * users;
        YoungCopying copying = YoungCopying.fit(calibration(growing), 1000);
        // 10 KB a user fill 17.9 MB at 1,790 users: 1,700 fit, beyond the calibration or not; 1,800 overflow
        assertThat(copying.overflows(1700)).isFalse();
        assertThat(copying.cpuMsAt(1700)).isZero();
        assertThat(copying.overflows(1800)).isTrue();
        assertThat(copying.cpuMsAt(1800)).isPositive();
        // promoting 10 MB in a 10-s window (1 MB/s) already at the calibration: the curve has that state in its cost
        YoungCopying promoting = YoungCopying.fit(calibration(growing, 10), 1000);
        assertThat(promoting.promoting()).isTrue();
        assertThat(promoting.cpuMsAt(3000)).isZero();
        assertThat(YoungCopying.fit(calibration(growing, 9.9), 1000).cpuMsAt(3000)).isPositive();
        // a calibration that did not read the survivor space cannot say where it overflows
        List<WindowResult> unread = calibration(growing).stream().map(w -> Windows.closed("reactive", w.users(),
                w.load().requestsPerSecond()).cpuMs(w.cpu().cpuMsPerRequest()).cpuCores(w.cpu().cpuCores())
                .meanMs(w.load().meanMs()).youngCollections(w.gc().minorCollections(), w.gc().minorPauseSeconds())
                .calibration().build()).toList();
        assertThat(YoungCopying.fit(unread, 1000).msPerUser()).isCloseTo(0.03, within(1e-9));
        assertThat(YoungCopying.fit(unread, 1000).cpuMsAt(3000)).isZero();
    }

    @Test
    void theSurvivorsAUserKeepsAreReadAtTheMostUsers() {
        // 1 MB that does not grow with the users and 8 KB a user: 18 KB a user at 100, 9 KB at 1,000, the most
        List<WindowResult> withAFixedPart = calibration(users -> 2 + 0.03 * users).stream().map(w -> {
            WindowResult.Gc gc = w.gc();
            return Windows.closed("reactive", w.users(), w.load().requestsPerSecond()).cpuMs(w.cpu().cpuMsPerRequest())
                    .cpuCores(w.cpu().cpuCores()).meanMs(w.load().meanMs())
                    .youngCollections(gc.minorCollections(), gc.minorPauseSeconds())
                    .survivors(1 + 0.008 * w.users(), SURVIVOR_SPACE_MB, 0).calibration().build();
        }).toList();
        YoungCopying copying = YoungCopying.fit(withAFixedPart, 1000);
        assertThat(copying.survivorMbPerUser()).isCloseTo(0.009, within(1e-12));
        // 9 KB a user fill 17.9 MB past 1,988 users
        assertThat(copying.overflows(1988)).isFalse();
        assertThat(copying.overflows(1989)).isTrue();
    }

    @Test
    void collectionsAtOneNumberOfUsersOrNoneSayNothing() {
        List<WindowResult> one = calibration(users -> 2 + 0.03 * users).stream().map(w -> w.users() == 1000 ? w
                : Windows.closed("reactive", w.users(), w.load().requestsPerSecond()).cpuMs(w.cpu().cpuMsPerRequest())
                .cpuCores(w.cpu().cpuCores()).meanMs(w.load().meanMs()).youngCollections(0, 0).calibration().build())
                .toList();
        assertThat(YoungCopying.fit(one, 1000)).isEqualTo(YoungCopying.NONE);
        List<WindowResult> uncounted = calibration(users -> 2 + 0.03 * users).stream().map(w -> Windows.closed(
                "reactive", w.users(), w.load().requestsPerSecond()).cpuMs(w.cpu().cpuMsPerRequest())
                .cpuCores(w.cpu().cpuCores()).meanMs(w.load().meanMs()).calibration().build()).toList();
        assertThat(YoungCopying.fit(uncounted, 1000)).isEqualTo(YoungCopying.NONE);
    }

    @Test
    void beyondTheCalibratedUsersTheCpuCeilingPaysForTheCopyingAndSaysSoWithinThemNothingChanges() {
        List<WindowResult> growing = calibration(users -> 2 + 0.03 * users);
        CapacityModel copying = model(growing);
        CapacityModel flat = model(calibration(users -> 5));
        double added = 17 / requests(growing) * 0.03 * 2000;
        Forecast far = copying.predict(at(3000));
        Forecast held = flat.predict(at(3000));
        assertThat(far.binding()).isEqualTo(Ceiling.CPU);
        assertThat(500 / far.ceilings().get(Ceiling.CPU))
                .isCloseTo(500 / held.ceilings().get(Ceiling.CPU) + added, within(1e-6));
        assertThat(far.notes()).anySatisfy(n -> assertThat(n).isEqualTo(String.format(java.util.Locale.ROOT,
                "beyond the 1,000 users calibrated, the requests alive overflow the survivor space (10.0 KB a user, 30"
                        + " MB at 3,000 users, of 17.9 MB): each young collection promotes what it cannot keep, and"
                        + " copies what more requests keep alive, at least +%.3f CPU-ms a request (0.10 collections per"
                        + " 1,000 requests, each paused 30.0 µs more per user, a line through the calibration's)",
                added)));
        assertThat(held.notes()).noneSatisfy(n -> assertThat(n).contains("young collection"));
        // beyond the calibrated users with the survivors fitting (1,500 users, 15 MB), as held flat
        assertThat(copying.predict(at(1500)).ceilings().get(Ceiling.CPU))
                .isCloseTo(flat.predict(at(1500)).ceilings().get(Ceiling.CPU), within(1e-9));
        // within the calibrated users the curve has the pauses in its cost already
        assertThat(copying.predict(at(500)).ceilings().get(Ceiling.CPU))
                .isCloseTo(flat.predict(at(500)).ceilings().get(Ceiling.CPU), within(1e-9));
        assertThat(copying.predict(at(500)).notes()).noneSatisfy(n -> assertThat(n).contains("young collection"));
    }
}
