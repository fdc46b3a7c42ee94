package io.threadlab.experiment.predict;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** What calibrations' β say of β's least error: the pooled spread of one variant's β, and the 90 % error it gives. */
class BetaEvidenceTest {

    private static final Path DEFAULT_RUN = Path.of("..", "findings", "default-9").toAbsolutePath().normalize();

    @Test
    void eachGroupIsTakenFromItsOwnMeanAndTheirSquaresArePooled() {
        // reactive 0.10, 0.20 (mean 0.15: ±0.05); virtual threads 0.00, 0.10, 0.20 (mean 0.10: -0.1, 0, +0.1)
        // squares 0.005 + 0.02 = 0.025 over 1 + 2 degrees of freedom: spread √(0.025 / 3) = 0.0913
        BetaEvidence evidence = BetaEvidence.of(List.of(
                new BetaEvidence.Estimate("a", "reactive", 0.10), new BetaEvidence.Estimate("b", "reactive", 0.20),
                new BetaEvidence.Estimate("a", "virtual-thread", 0.0),
                new BetaEvidence.Estimate("b", "virtual-thread", 0.10),
                new BetaEvidence.Estimate("c", "virtual-thread", 0.20),
                // one calibration of a group says nothing of how far calibrations differ
                new BetaEvidence.Estimate("c", "imperative", 0.90)));
        double spread = Math.sqrt(0.025 / 3);
        assertThat(evidence.spread()).isCloseTo(spread, within(1e-12));
        assertThat(evidence.error()).isCloseTo(1.6449 * spread, within(1e-12));
        assertThat(evidence.standardError()).isCloseTo(1.6449 * spread / Math.sqrt(6), within(1e-12));
        assertThat(evidence.calibrations()).isEqualTo(5);
        assertThat(evidence.runs()).isEqualTo(3);
        assertThat(evidence.holds(1.6449 * spread)).isTrue();
        assertThat(evidence.holds(1.6449 * spread + 2.01 * evidence.standardError())).isFalse();
    }

    @Test
    void tooFewCalibrationsOfOneVariantSayNothing() {
        BetaEvidence none = BetaEvidence.of(List.of(new BetaEvidence.Estimate("a", "reactive", 0.10),
                new BetaEvidence.Estimate("b", "reactive", 0.20), new BetaEvidence.Estimate("a", "imperative", 0.0)));
        assertThat(none.spread()).isNaN();
        assertThat(none.holds(CpuCurve.BETA_ERROR)).isFalse();
    }

    @Test
    void aDefaultRunGivesEachModelsFittedBetaByPlatform() throws CannotPredict {
        CalibratedRun run = CalibratedRun.read(DEFAULT_RUN);
        List<BetaEvidence.Estimate> estimates = BetaEvidence.of("default-9", "Quarkus 3.33.2", run);
        assertThat(estimates).extracting(BetaEvidence.Estimate::group).containsExactly(
                "imperative on Quarkus 3.33.2", "reactive on Quarkus 3.33.2", "virtual-thread on Quarkus 3.33.2");
        for (BetaEvidence.Estimate e : estimates) {
            CpuCurve curve = run.calibrated(e.group().split(" ")[0]).fit().model().orElseThrow().curve();
            assertThat(curve.betaMeasured()).isTrue();
            assertThat(e.beta()).isEqualTo(curve.fittedBeta());
        }
    }
}
