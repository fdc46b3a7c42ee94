package io.threadlab.experiment.predict;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The collector's pauses a request served grow with the users (each keeps a request alive for the young collections
 * to copy): fitted as a power of them, carried beyond the calibrated users with the error their share there earns, and
 * taken from the ceilings a slot sets, not the CPU's.
 */
class CollectorPausesTest {

    /** A level at {@code users} and {@code rps}, paused {@code share} of its time. */
    private static Level level(int users, double rps, double share) {
        return new Level(users, 10, 0, 0, rps, 0.1, users / rps * 1000, 300, 0.5, 0, share, Double.NaN);
    }

    /**
     * Paused 0.03 µs a request for each user: 150 users at 4,000 req/s paused 1.8 % of the time, 1,000 at 5,000 15 %.
     */
    private static final double PER_USER = 3e-8;

    private static List<Level> growingAsTheUsers() {
        List<Level> levels = new ArrayList<>();
        for (int[] ur : new int[][] {{150, 4000}, {300, 4200}, {700, 4600}, {1000, 5000}}) {
            levels.add(level(ur[0], ur[1], PER_USER * ur[0] * ur[1]));
        }
        return levels;
    }

    @Test
    void thePausesARequestServedGrowAsAPowerOfTheUsersFittedToTheLevels() {
        CollectorPauses pauses = CollectorPauses.fit(growingAsTheUsers(), List.of());
        assertThat(pauses.growth()).isCloseTo(1, within(1e-9));
        assertThat(pauses.mostUsers()).isEqualTo(1000);
        // at 3,000 users and 2,600 req/s: three times the pauses a request of 1,000 users, at that throughput
        assertThat(pauses.shareAt(2600, 3000)).isCloseTo(PER_USER * 3000 * 2600, within(1e-9));
        // a line in the throughput alone, as the model read them before, says a fraction of that there
        double line = growingAsTheUsers().stream().mapToDouble(l -> l.pausedShare() * l.rps()).sum()
                / growingAsTheUsers().stream().mapToDouble(l -> l.rps() * l.rps()).sum();
        assertThat(line * 2600).isLessThan(pauses.shareAt(2600, 3000) / 2);
    }

    @Test
    void levelsPausedAtOneNumberOfUsersGiveAConstantPauseARequestTheLineInTheThroughput() {
        CollectorPauses pauses = CollectorPauses.fit(List.of(level(700, 4000, 0.02), level(700, 4400, 0.022),
                level(10, 850, 0)), List.of());
        assertThat(pauses.growth()).isZero();
        assertThat(pauses.shareAt(4200, 3000)).isCloseTo(pauses.shareAt(4200, 100), within(1e-12));
        assertThat(pauses.perRequestAt(700)).isCloseTo(Math.sqrt(0.02 / 4000 * 0.022 / 4400), within(1e-12));
    }

    @Test
    void morePausesARequestAtFewerUsersAreReadAsNoneGrowing() {
        CollectorPauses pauses = CollectorPauses.fit(List.of(level(150, 4000, 0.04), level(700, 4600, 0.02)),
                List.of());
        assertThat(pauses.growth()).as("more requests alive do not make a collection shorter").isZero();
    }

    @Test
    void aCalibrationThatNeverPausedTakesNothingFromTheSlots() {
        CollectorPauses pauses = CollectorPauses.fit(List.of(level(150, 4000, 0), level(700, 4600, Double.NaN)),
                List.of());
        assertThat(pauses.slotCeiling(3000, 3000)).isEqualTo(3000);
        List<String> notes = new ArrayList<>();
        Map<Ceiling, Double> ceilings = new EnumMap<>(Map.of(Ceiling.CONNECTIONS, 2980.0, Ceiling.CPU, 4000.0));
        pauses.apply(ceilings, 3000, notes);
        assertThat(ceilings).containsEntry(Ceiling.CONNECTIONS, 2980.0);
        assertThat(notes).isEmpty();
    }

    @Test
    void theSlotsAreHeldThroughThePausesAndBeyondTheUsersReadTheirShareIsInTheError() {
        CollectorPauses pauses = CollectorPauses.fit(growingAsTheUsers(), List.of());
        Map<Ceiling, Double> ceilings = new EnumMap<>(Map.of(Ceiling.CONNECTIONS, 2980.0, Ceiling.USERS, 2985.0,
                Ceiling.CPU, 3100.0));
        List<String> notes = new ArrayList<>();
        pauses.apply(ceilings, 3000, notes);
        double lowered = 2980 / (1 + PER_USER * 3000 * 2980);
        assertThat(ceilings.get(Ceiling.CONNECTIONS)).isCloseTo(lowered, within(1e-6));
        assertThat(ceilings.get(Ceiling.CPU)).as("the collector's CPU is in a request's cost").isEqualTo(3100.0);
        assertThat(notes).singleElement().asString().contains("to the power 1.00")
                .contains("beyond the 1,000 users it read them at");
        assertThat(pauses.beyond(Ceiling.CONNECTIONS, lowered, 3000)).isCloseTo(pauses.shareAt(lowered, 3000),
                within(1e-12));
        assertThat(pauses.beyond(Ceiling.CONNECTIONS, lowered, 1000)).as("within the users read").isZero();
        assertThat(pauses.beyond(Ceiling.CPU, 3100, 3000)).as("not a slot's").isZero();
    }
}
