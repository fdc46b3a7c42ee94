package io.threadlab.experiment.predict;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** Calibrations' end levels left out and predicted as points beyond the calibration, against the error stated. */
class ExtrapolationEvidenceTest {

    private static final Path DEFAULT_RUN = Path.of("..", "findings", "default-9").toAbsolutePath().normalize();

    @Test
    void anEndIsCoveredWhereItsErrorLiesInsideTheErrorStatedForIt() {
        ExtrapolationEvidence evidence = ExtrapolationEvidence.of(List.of(
                new ExtrapolationEvidence.End("a", 0.5, 0.10, 0.15), new ExtrapolationEvidence.End("a", 0.9, -0.20, 0.15),
                new ExtrapolationEvidence.End("b", 0.3, -0.05, 0.15), new ExtrapolationEvidence.End("b", 1.2, 0.15, 0.15)));
        assertThat(evidence.covered()).isEqualTo(3);
        assertThat(evidence.ends()).isEqualTo(4);
        assertThat(evidence.share()).isEqualTo(0.75);
        assertThat(evidence.beyond()).isCloseTo(0.7, within(1e-12));
        assertThat(evidence.runs()).isEqualTo(2);
        assertThat(evidence.holds()).isFalse();
    }

    @Test
    void noEndsSayNothing() {
        ExtrapolationEvidence none = ExtrapolationEvidence.of(List.of());
        assertThat(none.share()).isNaN();
        assertThat(none.holds()).isFalse();
    }

    @Test
    void eachEndOfACalibrationIsPredictedFromTheOthersAsAPointBeyondThem() throws CannotPredict {
        CalibratedRun run = CalibratedRun.read(DEFAULT_RUN);
        List<ExtrapolationEvidence.End> ends = ExtrapolationEvidence.of("default-9", run);
        assertThat(ends).isNotEmpty().allSatisfy(e -> {
            assertThat(e.run()).isEqualTo("default-9");
            assertThat(e.beyond()).isGreaterThanOrEqualTo(0.1);
            assertThat(e.stated()).isGreaterThanOrEqualTo(CpuCurve.LEAST_ERROR);
        });
        // the reactive calibration's most-waiting level, left out: the others' curve read above its last level and
        // widened by the rule for the distance
        CpuCurve curve = run.calibrated("reactive").fit().model().orElseThrow().curve();
        List<CpuCurve.Level> levels = curve.levels();
        List<CpuCurve.Level> others = levels.subList(0, levels.size() - 1);
        CpuCurve.Level top = levels.getLast();
        CpuCurve.Cost expected = CpuCurve.fit(others).at(top.inJvm(), top.inFlight(), true);
        assertThat(curve.endsLeftOut()).anySatisfy(e -> {
            assertThat(e[0]).isCloseTo(Math.log(top.inJvm() / others.getLast().inJvm()), within(1e-12));
            assertThat(e[1]).isCloseTo(expected.cpuMs() / top.cpuMs() - 1, within(1e-12));
            assertThat(e[2]).isCloseTo(expected.error(), within(1e-12));
        });
    }
}
