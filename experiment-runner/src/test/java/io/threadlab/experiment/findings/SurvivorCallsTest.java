package io.threadlab.experiment.findings;

import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.testing.Windows;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Each point beyond a calibration that read the survivor space: its call, its windows, and whether they agree. */
class SurvivorCallsTest {

    /** A 10-s window at 100 ms, its survivor space (17.9 MB) holding {@code survivorMb}, {@code promotedMb} out. */
    private static Windows window(String variant, int users, double survivorMb, double promotedMb) {
        return Windows.closed(variant, users, 4000).delay(100).cpuCores(0.5).youngCollections(3, 0.05)
                .survivors(survivorMb, 17.9, promotedMb);
    }

    /** A calibration up to 1,000 users keeping 8 KB a user there (10 KB at 100), nothing promoted. */
    private static List<WindowResult> calibration(String variant) {
        return List.of(window(variant, 1000, 8.0, 0).calibration().build(),
                window(variant, 100, 1.0, 0).calibration().build());
    }

    @Test
    void eachPointBeyondTheCalibrationIsCalledAndSetBesideItsWindows() {
        List<WindowResult> windows = new ArrayList<>(calibration("reactive"));
        // 2,000 users: 16 MB called none, and no window promoted 1 MB/s (10 MB in 10 s would be 1 MB/s)
        windows.add(window("reactive", 2000, 15.0, 9.9).build());
        windows.add(window("reactive", 2000, 16.0, 0).jvm(2).build());
        // 3,000 users: 24 MB called overflow; two of three windows promoted
        windows.add(window("reactive", 3000, 17.9, 120).build());
        windows.add(window("reactive", 3000, 17.9, 0).repetition(2).build());
        windows.add(window("reactive", 3000, 17.9, 80).jvm(2).build());
        // within the calibrated users: no call
        windows.add(window("reactive", 500, 4.0, 0).build());
        List<SurvivorCalls.Row> rows = SurvivorCalls.rows("run", "r.csv", windows);
        assertThat(rows).extracting(SurvivorCalls.Row::at).containsExactly("100 ms, 2,000 users",
                "100 ms, 3,000 users");
        assertThat(rows.getFirst().perUser()).isEqualTo("[8.0 KB](r.csv)");
        assertThat(rows.getFirst().expected()).isEqualTo("[16 MB](r.csv) of [17.9 MB](r.csv)");
        assertThat(rows.getFirst().called()).isEqualTo("none");
        assertThat(rows.getFirst().promoted()).isEqualTo("[0](r.csv) of [2](r.csv)");
        assertThat(rows.getFirst().survivors()).isEqualTo("[15.5](r.csv) MB");
        assertThat(rows.getFirst().matched()).isTrue();
        assertThat(rows.get(1).called()).isEqualTo("overflow");
        assertThat(rows.get(1).promoted()).isEqualTo("[2](r.csv) of [3](r.csv)");
        assertThat(rows.get(1).matched()).isTrue();
    }

    @Test
    void aCallTheWindowsGainsayIsNotMatchedAndACalibrationWithoutTheSpaceHasNoRows() {
        List<WindowResult> windows = new ArrayList<>(calibration("virtual-thread"));
        windows.add(window("virtual-thread", 3000, 17.9, 5).build()); // called overflow, 0.5 MB/s
        windows.add(window("virtual-thread", 2000, 17.9, 50).build()); // called none, 5 MB/s
        assertThat(SurvivorCalls.rows("run", "r.csv", windows)).extracting(SurvivorCalls.Row::matched)
                .containsExactly(false, false);
        List<WindowResult> unread = List.of(
                Windows.closed("reactive", 1000, 4000).delay(100).cpuCores(0.5).gcPauses(0.1, 0, 0).calibration()
                        .build(),
                Windows.closed("reactive", 100, 4000).delay(100).cpuCores(0.5).gcPauses(0.1, 0, 0).calibration()
                        .build(),
                window("reactive", 3000, 17.9, 120).build());
        assertThat(SurvivorCalls.rows("run", "r.csv", unread)).isEmpty();
    }

    @Test
    void aCalibrationAlreadyPromotingCallsNothingAndExpectsItsWindowsBeyondToPromote() {
        // the calibration's most users promoted 2 MB/s: the state is its own; 8 KB a user would not fill 17.9 MB at 2,000
        List<WindowResult> windows = new ArrayList<>(List.of(window("reactive", 1000, 8.0, 20).calibration().build(),
                window("reactive", 100, 1.0, 0).calibration().build()));
        windows.add(window("reactive", 2000, 17.9, 50).build());
        windows.add(window("reactive", 2500, 17.9, 0).build());
        List<SurvivorCalls.Row> rows = SurvivorCalls.rows("run", "r.csv", windows);
        assertThat(rows).extracting(SurvivorCalls.Row::called).containsExactly("in the calibration",
                "in the calibration");
        assertThat(rows).extracting(SurvivorCalls.Row::matched).as("promoted, as the calibration did; then not")
                .containsExactly(true, false);
    }
}
