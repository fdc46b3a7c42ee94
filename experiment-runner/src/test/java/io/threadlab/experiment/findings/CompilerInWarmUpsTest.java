package io.threadlab.experiment.findings;

import io.threadlab.experiment.collect.CompilerSample;
import io.threadlab.experiment.collect.WarmUpResult;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** What the compiler got of the CPU in each published JVM's boost, by kind of work and variant, and the two groups. */
class CompilerInWarmUpsTest {

    private static final String ALL = "](../findings/)";

    /** A sample of the compiler's threads: at {@code cpus}, ran and waited the ms a second given. */
    private static CompilerSample sample(double cpus, double ranMs, double waitedMs) {
        return new CompilerSample(2, cpus, 700, 400, 0, 10, 20, 1000, ranMs, waitedMs);
    }

    /** A JVM at 0.5 CPU, boosted to 2 CPUs for {@code boostSeconds}, with a worker pool of {@code workers} threads. */
    private static WarmUpResult warmUp(String variant, int start, int workers, double boostSeconds, boolean finished,
                                       List<CompilerSample> samples) {
        return new WarmUpResult(variant + "-jvm" + start, variant, start, "boosted", 0.5, 2.0, finished, 200,
                boostSeconds, 3, null, List.of(), samples, new WarmUpResult.Ergonomics(Map.of(), Map.of(), List.of(),
                Map.of(), Map.of("worker pool", workers, "JIT compiler", 2)), 60);
    }

    /** On the delay service, boosted once, its compiler waiting 1.5 ms for each ms run, 200 workers beside it. */
    private static final CompilerInWarmUps.Boosted IMPERATIVE_WAITING_1_5 = new CompilerInWarmUps.Boosted(
            "the delay service", warmUp("imperative", 1, 200, 60, true, List.of(sample(2.0, 200, 300))));
    /** ... and 1 ms for each ms run, one worker. */
    private static final CompilerInWarmUps.Boosted REACTIVE_WAITING_1 = new CompilerInWarmUps.Boosted(
            "the delay service", warmUp("reactive", 1, 1, 50, true, List.of(sample(2.0, 250, 250))));

    @Test
    void onlyTheSamplesAboveTheQuotaAreTheBoosts() {
        WarmUpResult w = warmUp("imperative", 1, 200, 150, false, List.of(sample(0.5, 10, 990),
                sample(2.0, 100, 800), sample(2.0, 140, 760), sample(0.5, 50, 900)));
        WarmUpResult.CompilerTimes c = w.compilerInBoost().orElseThrow();
        assertThat(c.ranMsPerSecond()).isEqualTo(120.0);
        assertThat(c.waitedMsPerSecond()).isEqualTo(780.0);
        assertThat(c.waitedPerRan()).isEqualTo(6.5);
        assertThat(warmUp("imperative", 1, 200, 0, true, List.of(sample(0.5, 100, 800))).compilerInBoost())
                .as("never boosted").isEmpty();
        assertThat(new WarmUpResult.CompilerTimes(0, 500).waitedPerRan()).as("it never ran").isNaN();
    }

    @Test
    void eachKindOfWorkAndVariantIsARowOfMediansAndTheTwoGroupsAreSetSideBySide() {
        List<CompilerInWarmUps.Boosted> boosted = List.of(
                new CompilerInWarmUps.Boosted("the delay service", warmUp("imperative", 1, 200, 150, false,
                        List.of(sample(2.0, 100, 800), sample(2.0, 140, 760)))),
                new CompilerInWarmUps.Boosted("the delay service", warmUp("reactive", 1, 1, 50, true,
                        List.of(sample(2.0, 250, 250), sample(2.0, 250, 300)))),
                new CompilerInWarmUps.Boosted("the delay service", warmUp("imperative", 2, 200, 110, true,
                        List.of(sample(2.0, 200, 500)))));
        CompilerInWarmUps.Section section = CompilerInWarmUps.ofBoosted(boosted).orElseThrow();
        assertThat(section.rows()).extracting(CompilerInWarmUps.Row::variant).containsExactly("imperative",
                "reactive");
        CompilerInWarmUps.Row imperative = section.rows().getFirst();
        assertThat(imperative.work()).isEqualTo("the delay service");
        assertThat(imperative.jvms()).isEqualTo("[2" + ALL);
        assertThat(imperative.workers()).isEqualTo("[200" + ALL);
        assertThat(imperative.ran()).as("the median of 120 and 200").isEqualTo("[160" + ALL);
        assertThat(imperative.waited()).as("of 780 and 500").isEqualTo("[640" + ALL);
        assertThat(imperative.perRan()).as("of 6.5 and 2.5").isEqualTo("[4.5" + ALL);
        assertThat(imperative.boostSeconds()).isEqualTo("[130" + ALL);
        assertThat(imperative.finished()).isEqualTo("[1 of 2" + ALL);
        CompilerInWarmUps.Contrast contrast = section.contrasts().getFirst();
        assertThat(contrast.manyJvms()).isEqualTo("[2" + ALL);
        assertThat(contrast.manyPerRan()).isEqualTo("[4.5" + ALL);
        assertThat(contrast.manyBoost()).isEqualTo("[130" + ALL);
        assertThat(contrast.othersJvms()).isEqualTo("[1" + ALL);
        assertThat(contrast.othersPerRan()).isEqualTo("[1.1" + ALL);
        assertThat(contrast.othersBoost()).isEqualTo("[50" + ALL);
        assertThat(contrast.twice()).as("4.5 against 1.1").isTrue();
        assertThat(section.anyTwice()).isTrue();
    }

    @Test
    void rowsGoByKindOfWorkAndOnlyAKindWithBothKindsOfJvmIsContrasted() {
        List<CompilerInWarmUps.Boosted> boosted = List.of(IMPERATIVE_WAITING_1_5,
                new CompilerInWarmUps.Boosted("the database", REACTIVE_WAITING_1.warmUp()), REACTIVE_WAITING_1);
        CompilerInWarmUps.Section section = CompilerInWarmUps.ofBoosted(boosted).orElseThrow();
        assertThat(section.rows()).extracting(r -> r.work() + ": " + r.variant()).containsExactly(
                "the delay service: imperative", "the delay service: reactive", "the database: reactive");
        assertThat(section.contrasts()).extracting(CompilerInWarmUps.Contrast::work)
                .as("the database has no JVM with a worker pool").containsExactly("the delay service");
    }

    @Test
    void theyAreNotSaidToDifferWhereTheyDoNot() {
        List<CompilerInWarmUps.Boosted> boosted = List.of(IMPERATIVE_WAITING_1_5, REACTIVE_WAITING_1);
        CompilerInWarmUps.Section section = CompilerInWarmUps.ofBoosted(boosted).orElseThrow();
        assertThat(section.contrasts().getFirst().twice()).as("1.5 against 1.0").isFalse();
        assertThat(section.anyTwice()).isFalse();
        assertThat(CompilerInWarmUps.ofBoosted(List.of())).isEmpty();
    }
}
