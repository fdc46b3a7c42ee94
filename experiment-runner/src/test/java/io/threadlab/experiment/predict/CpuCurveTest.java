package io.threadlab.experiment.predict;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The CPU curve in what is in flight: a request's cost as a curve in the requests waiting in the JVM, times a power of
 * the calls out at the downstream, the power measured where the calibration spans two delays, and the error it earns
 * from the levels it predicts without having seen them.
 */
class CpuCurveTest {

    /** A JVM whose cost is exactly 0.2 - 0.02 ln(w), times (c / 50)^β. */
    private static double truth(double inJvm, double inFlight, double beta) {
        return (0.2 - 0.02 * Math.log(inJvm)) * Math.pow(inFlight / 50, beta);
    }

    private static CpuCurve.Level level(int users, int delay, double inJvm, double inFlight, double beta) {
        return new CpuCurve.Level(users, delay, inJvm, inFlight, truth(inJvm, inFlight, beta));
    }

    /** Four levels at 10 ms (about 50 calls out) and two at 50 ms (about 250), interleaved in the requests waiting. */
    private static List<CpuCurve.Level> twoDelays(double beta) {
        return List.of(level(700, 10, 640, 62, beta), level(300, 10, 240, 58, beta), level(150, 10, 90, 55, beta),
                level(900, 50, 610, 290, beta), level(400, 50, 110, 280, beta));
    }

    @Test
    void whatTheCallsInFlightCostIsMeasuredWhereTheCalibrationSpansTwoDelays() {
        CpuCurve curve = CpuCurve.fit(twoDelays(0.2));
        assertThat(curve.betaMeasured()).isTrue();
        assertThat(curve.beta()).isCloseTo(0.2, within(0.011));
        // a point at 100 ms (about 550 calls out) with 400 waiting: the truth, within the step β is searched by
        CpuCurve.Cost cost = curve.at(400, 550, true);
        assertThat(cost.cpuMs()).isCloseTo(truth(400, 550, 0.2), within(truth(400, 550, 0.2) * 0.03));
        assertThat(cost.extrapolated()).isTrue();
        // beyond the most calls a level had, the error is wider than between them
        assertThat(cost.error()).isGreaterThan(curve.at(400, 150, false).error());
    }

    @Test
    void aCostOfTheCallsThatOneDearLevelAloneShowsDoesNotEarnItsPlace() {
        // no cost of the calls in truth (β 0), the levels off it by a few per cent as windows are, and the 400-user
        // level at 50 ms 15 % dearer: the best fit takes a β from that one level, and left out level by level that β
        // predicts no better than none beyond its standard error
        double[] off = {1.03, 1.15, 0.97, 1.02, 0.98};
        List<CpuCurve.Level> levels = new ArrayList<>();
        List<CpuCurve.Level> truth = List.of(level(150, 10, 90, 45, 0), level(400, 50, 200, 190, 0),
                level(300, 10, 240, 50, 0), level(700, 10, 640, 62, 0), level(900, 50, 630, 270, 0));
        for (int i = 0; i < truth.size(); i++) {
            CpuCurve.Level t = truth.get(i);
            levels.add(new CpuCurve.Level(t.users(), t.delayMs(), t.inJvm(), t.inFlight(), t.cpuMs() * off[i]));
        }
        CpuCurve curve = CpuCurve.fit(levels);
        assertThat(curve.fittedBeta()).isGreaterThan(0.03);
        assertThat(curve.beta()).isZero();
        assertThat(curve.betaNotEarned()).isTrue();
        // at 100 ms (530 calls out, 470 waiting) a request costs what the levels say at as many waiting (the 630 and
        // 640 waiting are one point of the curve), without what the fitted β would add
        double between = curveThrough(levels.get(2), levels.get(3), 470);
        assertThat(curve.at(470, 530, true).cpuMs()).isCloseTo(between, within(between * 0.02));
        // where every level shows the cost, it is earned and taken
        CpuCurve shown = CpuCurve.fit(twoDelays(0.2));
        assertThat(shown.beta()).isEqualTo(shown.fittedBeta());
        assertThat(shown.betaNotEarned()).isFalse();
    }

    @Test
    void atOneDelayTheCallsInFlightAreNotMeasuredAndAnotherDelayIsAnExtrapolationOfThem() {
        List<CpuCurve.Level> oneDelay = twoDelays(0.2).stream().filter(l -> l.delayMs() == 10).toList();
        CpuCurve curve = CpuCurve.fit(oneDelay);
        assertThat(curve.betaMeasured()).isFalse();
        assertThat(curve.beta()).isZero();
        // at its own calls in flight nothing is widened; at 5 times as many, 25 % per e-fold beyond those of the
        // levels the cost is read from (240 and 640 waiting: 58 and 62 calls out), past half a factor of 2 of them
        double at = curve.at(400, 60, false).error();
        assertThat(curve.at(400, 80, false).error()).isEqualTo(at);
        assertThat(curve.at(400, 290, false).error()).isCloseTo(at + CpuCurve.EXTRAPOLATION_PER_EFOLD
                * (Math.log(290) - readFrom(240, 58, 640, 62, 400) - Math.log(2) / 2), within(1e-9));
    }

    @Test
    void fewWaitingWithManyCallsOutIsReadFromTheLevelsWithFewWaitingAndCarriedAsFarAsTheirCallsAreFromThePoints() {
        // as at 100 ms behind a full pool: 95 waiting (between 90 at 10 ms, 55 calls out, and 110 at 50 ms, 280 out)
        // with 500 calls out. The cost is read mostly from the 10 ms level and carried by β from about 85 calls to 500:
        // β's error counts for that whole distance, not only for how far 500 lies beyond the most any level had (290)
        CpuCurve curve = CpuCurve.fit(twoDelays(0.2));
        double from = readFrom(90, 55, 110, 280, 95);
        double perEfold = Math.max(curve.betaSpread(), CpuCurve.BETA_ERROR);
        double there = curve.at(95, Math.exp(from), false).error();
        assertThat(curve.at(95, 500, false).error()).isCloseTo(Math.min(1, there + perEfold
                * (Math.log(500) - from - Math.log(2) / 2)), within(1e-9))
                .isGreaterThan(there + perEfold * (Math.log(500 / 290.0)));
    }

    /** The log of the calls in flight a cost at {@code inJvm} is read from, between two levels (waiting, calls). */
    private static double readFrom(double w1, double c1, double w2, double c2, double inJvm) {
        double t = (Math.log(inJvm) - Math.log(w1)) / (Math.log(w2) - Math.log(w1));
        return Math.log(c1) + t * (Math.log(c2) - Math.log(c1));
    }

    @Test
    void theErrorIsWhatALevelInsideTheCurveIsOffWhenItIsLeftOut() {
        List<CpuCurve.Level> levels = new ArrayList<>(twoDelays(0).stream().filter(l -> l.delayMs() == 10).toList());
        // the 300-user level 20 % dearer than the curve through its neighbours
        levels.set(1, new CpuCurve.Level(300, 10, 240, 58, truth(240, 58, 0) * 1.2));
        CpuCurve curve = CpuCurve.fit(levels);
        double left = curveThrough(levels.get(2), levels.get(0), 240);
        assertThat(curve.error()).isCloseTo(Math.abs(left / levels.get(1).cpuMs() - 1), within(1e-9))
                .isGreaterThan(0.15);
        // a curve that the levels follow exactly still claims the least error: windows of one JVM differ that much
        assertThat(CpuCurve.fit(twoDelays(0)).error()).isEqualTo(CpuCurve.LEAST_ERROR);
    }

    @Test
    void aLevelOfTheSecondDelayLeftOutTellsWhatCarryingTheCurveAcrossDelaysCosts() {
        // the truth has β 0.2, but one 50 ms level is 30 % off it: left out, it is predicted from the rest, and missed
        List<CpuCurve.Level> levels = new ArrayList<>(twoDelays(0.2));
        levels.set(3, new CpuCurve.Level(900, 50, 610, 290, truth(610, 290, 0.2) * 1.3));
        assertThat(CpuCurve.fit(levels).error()).isGreaterThan(0.15);
        assertThat(CpuCurve.fit(levels).betaSpread()).isGreaterThan(0);
    }

    @Test
    void fewerWaitingThanAnyLevelContinuesTheFirstSegmentWhereTheCostFallsAndWidensTheError() {
        CpuCurve curve = CpuCurve.fit(twoDelays(0));
        CpuCurve.Cost below = curve.at(30, 55, false);
        // from 90 to 240 waiting the cost falls 0.02 per e-fold: continued down to 30
        assertThat(below.cpuMs()).isCloseTo(truth(30, 55, 0), within(1e-9));
        assertThat(below.error()).isCloseTo(curve.error() + CpuCurve.EXTRAPOLATION_PER_EFOLD * Math.log(90 / 30.0),
                within(1e-9));
        // more waiting than any level, within the users calibrated: the last level's cost, not widened
        CpuCurve oneDelay = CpuCurve.fit(twoDelays(0).stream().filter(l -> l.delayMs() == 10).toList());
        CpuCurve.Cost above = oneDelay.at(2000, 60, false);
        assertThat(above.cpuMs()).isCloseTo(truth(640, 62, 0), within(1e-9));
        assertThat(above.error()).isEqualTo(oneDelay.error());
        // and beyond the users calibrated too: an extrapolation, widened per e-fold beyond the most waiting
        assertThat(oneDelay.at(2000, 60, true).error()).isCloseTo(oneDelay.error()
                + CpuCurve.EXTRAPOLATION_PER_EFOLD * Math.log(2000 / 640.0), within(1e-9));
    }

    private static double curveThrough(CpuCurve.Level a, CpuCurve.Level b, double inJvm) {
        double t = (Math.log(inJvm) - Math.log(a.inJvm())) / (Math.log(b.inJvm()) - Math.log(a.inJvm()));
        return a.cpuMs() + t * (b.cpuMs() - a.cpuMs());
    }
}
