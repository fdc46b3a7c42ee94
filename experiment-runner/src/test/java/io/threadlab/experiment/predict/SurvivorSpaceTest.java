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

/** Whether the requests alive beyond the calibrated users will overflow the survivor space: read, called, said. */
class SurvivorSpaceTest {

    private static final double SURVIVOR_SPACE_MB = 17.9;

    /**
     * CapacityModelTest's calibration at 10 ms (10 users light; 100, 300 and 1,000 CPU-bound), 10-s windows, each with
     * three young collections, the survivor space holding {@code survivorMb} of its users at the window's end and the
     * collections promoting {@code promotedMb} in it.
     */
    private static List<WindowResult> calibration(IntToDoubleFunction survivorMb, double promotedMb) {
        return List.of(
                window(1000, 6250, 0.08, 0.5, survivorMb, promotedMb),
                window(300, 0.5 / 0.105 * 1000, 0.105, 0.5, survivorMb, promotedMb),
                window(100, 0.5 / 0.11 * 1000, 0.11, 0.5, survivorMb, promotedMb),
                Windows.closed("reactive", 10, 10 / 0.011).cpuMs(0.13).meanMs(11).youngCollections(3, 0.01)
                        .survivors(survivorMb.applyAsDouble(10), SURVIVOR_SPACE_MB, promotedMb).calibration().build());
    }

    private static WindowResult window(int users, double rps, double cpuMs, double cores,
                                       IntToDoubleFunction survivorMb, double promotedMb) {
        return Windows.closed("reactive", users, rps).cpuMs(cpuMs).cpuCores(cores).youngCollections(3, 0.03)
                .survivors(survivorMb.applyAsDouble(users), SURVIVOR_SPACE_MB, promotedMb).calibration().build();
    }

    /** 1 MB that does not grow with the users and 8 KB a user: 18 KB a user at 100, 9 KB at 1,000, the most. */
    private static final IntToDoubleFunction WITH_A_FIXED_PART = users -> 1 + 0.008 * users;

    private static Point at(int users) {
        return Point.of(Axis.CPUS, 0.5).with(Axis.POOL_SIZE, 5000).with(Axis.DELAY_MS, 10).with(Axis.USERS, users);
    }

    @Test
    void theSurvivorsAUserKeepsAreReadAtTheMostUsersAndOverflowPastTheSpace() {
        SurvivorSpace space = SurvivorSpace.fit(calibration(WITH_A_FIXED_PART, 0));
        assertThat(space.mbPerUser()).isCloseTo(0.009, within(1e-12));
        assertThat(space.sizeMb()).isEqualTo(SURVIVOR_SPACE_MB);
        assertThat(space.mostUsers()).isEqualTo(1000);
        assertThat(space.promoting()).isFalse();
        // 9 KB a user fill 17.9 MB past 1,988 users; within the calibrated users nothing is called
        assertThat(space.overflowsAt(1988)).isFalse();
        assertThat(space.overflowsAt(1989)).isTrue();
        assertThat(space.overflowsAt(3000)).isTrue();
        assertThat(SurvivorSpace.fit(calibration(users -> 0.02 * users, 0)).overflowsAt(1000)).isFalse();
    }

    @Test
    void aCalibrationThatPromotedIsInTheStateAlreadyAndOneThatDidNotReadTheSpaceSaysNothing() {
        // 10 MB in a 10-s window is 1 MB/s: promoting
        assertThat(SurvivorSpace.fit(calibration(WITH_A_FIXED_PART, 10)).promoting()).isTrue();
        assertThat(SurvivorSpace.fit(calibration(WITH_A_FIXED_PART, 10)).overflowsAt(3000)).isFalse();
        assertThat(SurvivorSpace.fit(calibration(WITH_A_FIXED_PART, 9.9)).overflowsAt(3000)).isTrue();
        List<WindowResult> unread = calibration(WITH_A_FIXED_PART, 0).stream().map(w -> Windows.closed("reactive",
                w.users(), w.load().requestsPerSecond()).cpuMs(w.cpu().cpuMsPerRequest()).cpuCores(w.cpu().cpuCores())
                .meanMs(w.load().meanMs()).youngCollections(3, 0.03).calibration().build()).toList();
        assertThat(SurvivorSpace.fit(unread)).isEqualTo(SurvivorSpace.NONE);
        assertThat(SurvivorSpace.NONE.overflowsAt(100_000)).isFalse();
    }

    @Test
    void theForecastSaysTheStateAndLeavesItsCostAlone() {
        CapacityModel overflowing = CapacityModel.fit("jvm", Variant.Threads.EVENT_LOOP,
                calibration(WITH_A_FIXED_PART, 0)).model().orElseThrow();
        CapacityModel roomy = CapacityModel.fit("jvm", Variant.Threads.EVENT_LOOP,
                calibration(users -> 0.001 * users, 0)).model().orElseThrow();
        Forecast far = overflowing.predict(at(3000));
        assertThat(far.notes()).contains("beyond the 1,000 users calibrated, the requests alive would overflow the"
                + " collector's survivor space (9.0 KB a user at 1,000 users: 27 MB at 3,000, of 17.9 MB): its young"
                + " collections will promote, a state no calibration window was in, whose cost the forecast does not"
                + " know");
        assertThat(far.ceilings().get(Ceiling.CPU)).isEqualTo(roomy.predict(at(3000)).ceilings().get(Ceiling.CPU));
        assertThat(roomy.predict(at(3000)).notes()).noneSatisfy(n -> assertThat(n).contains("survivor space"));
        assertThat(overflowing.predict(at(1900)).notes()).noneSatisfy(n -> assertThat(n).contains("survivor space"));
    }
}
