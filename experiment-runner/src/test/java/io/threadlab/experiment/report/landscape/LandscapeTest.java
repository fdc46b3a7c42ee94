package io.threadlab.experiment.report.landscape;

import io.threadlab.experiment.collect.OpenStep;
import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.testing.Windows;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The landscape on windows made to obey (or break) what it reads: who wins, the open model, memory, the seeds. */
class LandscapeTest {

    private static final double CORES = 2;

    /** A plain closed-model window of a JVM, with its mean response time and what it holds in memory. */
    static WindowResult window(String variant, String jvm, int delayMs, int users, double rps, double meanMs,
                               int workerMax, double rssMb, double threads) {
        return Windows.closed(variant, users, rps).jvmLabel(jvm).delay(delayMs).meanMs(meanMs).workers(workerMax)
                .pool(3000).rss(rssMb).liveThreads(threads).build();
    }

    private static WindowResult.Prediction predicted(double rps, String binding, double margin) {
        return new WindowResult.Prediction(rps, binding, margin, 10.0, 300.0, 0.05, false, "2026-11-23T10:00:00Z",
                "reactive-jvm1", Map.of(binding, rps), null, null, null, null);
    }

    @Test
    void aPointIsHeldOutOnlyWhenItsJvmWasNotCalibratedThere() {
        List<WindowResult> rows = List.of(
                Windows.closed("reactive", 1000, 6000).calibration().build(),
                Windows.closed("reactive", 1000, 5900).prediction(predicted(6000, "cpu", 2)).build(),
                Windows.closed("reactive", 500, 6300).prediction(predicted(6200, "cpu", 2)).build(),
                Windows.closed("reactive", 500, 6300).jvm(2).build());
        List<Outcome> outcomes = Landscape.of(rows, CORES, false).outcomes();
        assertThat(outcomes).hasSize(3); // the calibration window itself is no outcome
        assertThat(outcomes.get(0).calibrated()).isTrue();
        assertThat(outcomes.get(0).heldOut()).isFalse();
        assertThat(outcomes.get(1).heldOut()).isTrue();
        assertThat(outcomes.get(1).ratio()).isCloseTo(6300 / 6200.0, within(1e-9));
        assertThat(outcomes.get(2).heldOut()).isFalse(); // no prediction: JVM 2 was not calibrated
        assertThat(outcomes.get(2).binding()).isEmpty();
    }

    @Test
    void whoWinsWhereAndTheCrossovers() {
        List<WindowResult> rows = new ArrayList<>();
        rows.add(window("imperative", "imperative", 10, 100, 2000, 50, 200, 500, 200));
        rows.add(window("reactive", "reactive", 10, 100, 1900, 52, 200, 300, 16));
        rows.add(window("imperative", "imperative", 10, 500, 2500, 200, 200, 500, 200));
        rows.add(window("reactive", "reactive", 10, 500, 4500, 111, 200, 300, 16));
        List<Winners.Cell> cells = Landscape.of(rows, CORES, false).cells();
        assertThat(cells).extracting(c -> c.winner().jvm()).containsExactly("imperative", "reactive");
        assertThat(cells.get(1).margin()).isCloseTo(1.8, within(0.001));
        assertThat(Winners.crossovers(cells)).singleElement().satisfies(c -> {
            assertThat(c.along()).isEqualTo("users");
            assertThat(c.from()).isEqualTo("imperative");
            assertThat(c.to()).isEqualTo("reactive");
            assertThat(c.fromAt()).isEqualTo(100);
            assertThat(c.toAt()).isEqualTo(500);
        });
    }

    @Test
    void aLeadUnderFivePercentIsATieAndNoCrossover() {
        List<WindowResult> rows = new ArrayList<>();
        rows.add(window("imperative", "imperative", 10, 100, 2000, 50, 200, 500, 200));
        rows.add(window("reactive", "reactive", 10, 100, 1000, 52, 200, 300, 16));
        // reactive ahead by 2 %: a tie, not a crossover
        rows.add(window("imperative", "imperative", 10, 500, 4400, 200, 200, 500, 200));
        rows.add(window("reactive", "reactive", 10, 500, 4500, 111, 200, 300, 16));
        // reactive clearly ahead: the crossover is from the 100-user lead to this one
        rows.add(window("imperative", "imperative", 10, 1000, 2500, 200, 200, 500, 200));
        rows.add(window("reactive", "reactive", 10, 1000, 5000, 111, 200, 300, 16));
        List<Winners.Cell> cells = Landscape.of(rows, CORES, false).cells();
        assertThat(cells).extracting(Winners.Cell::clear).containsExactly(true, false, true);
        assertThat(cells.get(1).leaders()).extracting(Outcome::jvm).containsExactly("reactive", "imperative");
        assertThat(cells.get(0).leaders()).extracting(Outcome::jvm).containsExactly("imperative");
        assertThat(Winners.crossovers(cells)).singleElement().satisfies(c -> {
            assertThat(c.fromAt()).isEqualTo(100);
            assertThat(c.toAt()).isEqualTo(1000);
        });
    }

    /**
     * map-4's cells at 1 ms × 500 users and 100 ms × 1,000, on a machine that changed its speed from window to window:
     * virtual threads ahead by 13 % where reactive's window found the machine 1.39× slower, reactive ahead by 36 %
     * where virtual threads' found it 1.32× slower. Neither lead clears the slowdown; 1.6× would.
     */
    @Test
    void aLeadTheMachinesSlowdownCouldHaveMadeIsATie() {
        List<WindowResult> rows = new ArrayList<>();
        rows.add(Windows.closed("virtual-thread", 500, 4495).jvmLabel("virtual-thread").delay(1).yardstick(1398)
                .build());
        rows.add(Windows.closed("reactive", 500, 3974).jvmLabel("reactive").delay(1).yardstick(1937).build());
        rows.add(Windows.closed("reactive", 1000, 4318).jvmLabel("reactive").delay(100).yardstick(1706).build());
        rows.add(Windows.closed("virtual-thread", 1000, 3172).jvmLabel("virtual-thread").delay(100).yardstick(2259)
                .build());
        rows.add(Windows.closed("reactive", 1000, 5200).jvmLabel("reactive").delay(300).yardstick(1706).build());
        rows.add(Windows.closed("virtual-thread", 1000, 3172).jvmLabel("virtual-thread").delay(300).yardstick(2259)
                .build());
        // 12 % slower: within the yardstick's own noise, so the 8 % lead stands
        rows.add(Windows.closed("reactive", 1000, 4320).jvmLabel("reactive").delay(1000).yardstick(1700).build());
        rows.add(Windows.closed("virtual-thread", 1000, 4000).jvmLabel("virtual-thread").delay(1000).yardstick(1904)
                .build());
        List<Winners.Cell> cells = Landscape.of(rows, CORES, false).cells();
        assertThat(cells).extracting(Winners.Cell::clear).containsExactly(false, false, true, true);
        assertThat(cells.get(0).leaders()).extracting(Outcome::jvm).containsExactly("virtual-thread", "reactive");
        assertThat(cells.get(0).excused()).extracting(Winners.Excuse::describe)
                .containsExactly("the machine 1.39× slower for reactive");
        assertThat(cells.get(1).excused()).extracting(Winners.Excuse::describe)
                .containsExactly("the machine 1.32× slower for virtual-thread");
        assertThat(cells.get(2).excused()).isEmpty();
        assertThat(cells.get(2).winner().jvm()).isEqualTo("reactive");
        assertThat(cells.get(3).winner().jvm()).isEqualTo("reactive");
        // the 1 ms lead of virtual threads and 100 ms lead of reactive are no winners to cross between
        assertThat(Winners.crossovers(cells)).isEmpty();
    }

    /**
     * A runner-up whose k6 crowded its room served what k6 could send: the leader's lead over it is no lead. One held
     * at its workers, as measured, served what they allow: k6 crowding it excuses nothing.
     */
    @Test
    void aLeadOverAWindowK6CrowdedIsATie() {
        List<WindowResult> rows = new ArrayList<>();
        rows.add(Windows.closed("virtual-thread", 3000, 3797).jvmLabel("virtual-thread").delay(1).cpuCores(0.5)
                .k6Cores(0.6).build());
        rows.add(Windows.closed("reactive", 3000, 2823).jvmLabel("reactive").delay(1).cpuCores(0.5)
                .k6Cores(1.28).build()); // 1.28 of the 1.4 CPUs the JVM and the delay service left
        rows.add(Windows.closed("imperative", 3000, 1900).jvmLabel("imperative").delay(1).cpuCores(0.3)
                .k6Cores(1.3).prediction(predicted(2000, "workers", 1.5)).build());
        // at 10 ms, reactive and virtual threads tie by 2 %; imperative, far behind, ties them too, k6 crowding it
        rows.add(Windows.closed("reactive", 3000, 3800).jvmLabel("reactive").delay(10).cpuCores(0.5).k6Cores(0.6)
                .build());
        rows.add(Windows.closed("virtual-thread", 3000, 3725).jvmLabel("virtual-thread").delay(10).cpuCores(0.5)
                .k6Cores(0.6).build());
        rows.add(Windows.closed("imperative", 3000, 1500).jvmLabel("imperative").delay(10).cpuCores(0.5)
                .k6Cores(1.3).build());
        List<Winners.Cell> cells = Landscape.of(rows, CORES, false).cells();
        Winners.Cell cell = cells.getFirst();
        assertThat(cell.clear()).isFalse();
        assertThat(cell.leaders()).extracting(Outcome::jvm).containsExactly("virtual-thread", "reactive");
        assertThat(cell.excused()).extracting(Winners.Excuse::describe).containsExactly("k6 crowded reactive");
        assertThat(cells.get(1).leaders()).extracting(Outcome::jvm)
                .containsExactly("reactive", "virtual-thread", "imperative");
        assertThat(cells.get(1).excused()).extracting(Winners.Excuse::describe)
                .containsExactly("k6 crowded imperative");
    }

    @Test
    void whatARequestInFlightCostsIsTheSlopeOfALeastSquaresLine() {
        List<WindowResult> rows = new ArrayList<>();
        for (int users : new int[] {10, 100, 1000, 3000}) {
            // 1 MB and one platform thread per request in flight, on top of 300 MB and 20 threads
            rows.add(window("imperative", "imperative", 300, users, users / 0.3, 300, 200, 300 + users,
                    20 + users));
        }
        InFlightCost cost = InFlightCost.of(rows).getFirst();
        assertThat(cost.jvm()).isEqualTo("imperative");
        assertThat(cost.perThousand().get("RSS (MB)")).isCloseTo(1000, within(1e-6));
        assertThat(cost.atZero().get("RSS (MB)")).isCloseTo(300, within(1e-6));
        assertThat(cost.perThousand().get("platform threads")).isCloseTo(1000, within(1e-6));
        // too few points, or no spread: no line
        assertThat(InFlightCost.of(rows.subList(0, 2))).isEmpty();
    }

    @Test
    void theSloCapacityIsTheHighestRateThatMetTheSloAndNamesTheMissesBelowIt() {
        WindowResult open = Windows.open("reactive", List.of(
                new OpenStep(250, 1500, 200, 320.0, 500.0, 900.0, 950.0, 300), // k6 still making its users
                new OpenStep(500, 3000, 500, 301.0, 305.0, 320.0, 330.0, 0),
                new OpenStep(1000, 6000, 1000, 301.0, 320.0, 390.0, 420.0, 0),
                new OpenStep(2000, 11000, 1830, 900.0, 1400.0, 2100.0, 2500.0, 120))).delay(300).build();
        SloCapacity slo = SloCapacity.of(List.of(open)).getFirst();
        assertThat(slo.boundMs()).isEqualTo(400.0);
        assertThat(slo.capacity()).isEqualTo(1000);
        assertThat(slo.missedBelow()).containsExactly(250);
        WindowResult none = Windows.open("reactive", List.of(
                new OpenStep(500, 3000, 500, 900.0, 905.0, 920.0, 930.0, 0))).delay(300).build();
        assertThat(SloCapacity.of(List.of(none)).getFirst().capacity()).isNull();
    }

    @Test
    void aFewDroppedArrivalsAreMeasuredAgainstTheStepsArrivalsNotOneSecondsWorth() {
        // 8 of 3,008 arrivals dropped is 0.3 %: under the 1 % allowed (the count is of the whole step, not per second)
        OpenStep few = new OpenStep(500, 3000, 500, 12.0, 20.0, 45.0, 60.0, 8);
        OpenStep many = new OpenStep(1000, 5900, 983, 12.0, 20.0, 45.0, 60.0, 100);
        assertThat(SloCapacity.met(few, 110)).isTrue();
        assertThat(SloCapacity.met(many, 110)).isFalse();
    }

    @Test
    void theSeedsTableMatchesOurJvmsAtItsOwnRegime() {
        List<WindowResult> rows = List.of(
                window("imperative", "imperative-w512", 300, 10, 33, 301, 512, 300, 30),
                Windows.closed("imperative", 3000, 1500).jvmLabel("imperative-w512").delay(300).workers(512)
                        .pool(3000).prediction(predicted(1700, "workers", 3)).build(),
                window("virtual-thread", "virtual-thread", 300, 3000, 4300, 697, 200, 400, 18));
        SeedTable seeds = Landscape.of(rows, CORES, false).seeds();
        assertThat(seeds.anyMeasured()).isTrue();
        assertThat(seeds.rows()).extracting(SeedTable.Row::matchingJvm).containsExactly("imperative-w200",
                "imperative-w512", "imperative-w800", "virtual-thread", "reactive");
        assertThat(seeds.rows().get(0).ours()).isEmpty();
        assertThat(seeds.rows().get(0).explanation()).contains("not measured here").contains("--worker-max");
        assertThat(seeds.rows().get(1).ours()).hasValueSatisfying(p -> assertThat(p.workerMax()).isEqualTo(512));
        assertThat(seeds.rows().get(1).explanation()).startsWith("ours bound by workers")
                .contains("predicted 1,700 req/s before it was measured");
        assertThat(seeds.rows().get(3).explanation()).contains("not predicted");
    }

    @Test
    void aLandscapeIsDrawnForSeveralDelaysWithThePredictionsDashed() {
        List<WindowResult> rows = List.of(
                Windows.closed("imperative", 10, 33).delay(300).prediction(predicted(33, "users", 20)).build(),
                Windows.closed("imperative", 3000, 650).delay(300).prediction(predicted(664, "workers", 6)).build(),
                Windows.closed("imperative", 10, 900).build());
        Landscape landscape = Landscape.of(rows, CORES, false);
        assertThat(landscape.isMap()).isTrue();
        assertThat(landscape.charts()).containsKeys("landscape-throughput-imperative", "landscape-p99-imperative");
        assertThat(landscape.charts().get("landscape-throughput-imperative").getSeriesMap()).containsKeys("300 ms",
                "300 ms predicted", "10 ms").doesNotContainKey("10 ms predicted");
        assertThat(Landscape.of(rows.subList(2, 3), CORES, false).isMap()).isFalse();
    }
}
