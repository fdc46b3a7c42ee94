package io.threadlab.experiment.predict;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The CPU one request costs, as a function of what is in flight: the requests waiting in the JVM for its CPU ({@code
 * w}) and the calls outstanding at the downstream ({@code c}: the throughput × the downstream's time × the calls per
 * request). {@code cost(w, c) = G(w) × (c / cRef)^β}: G a curve in the log of w through the calibration's busy levels,
 * each deflated to {@code cRef} by β; β what the calls in flight add, per e-fold, on a log scale.
 *
 * <p>Why both: a request costs less where more wait in the JVM, for its threads then find the next request waiting
 * instead of sleeping (the report's SleepCost); and it costs more where more calls are out at the downstream, at as
 * many waiting (the open connections, timers and their objects: at 50 ms and 1,000 users a request cost 0.095-0.097
 * CPU-ms where a calibration at 10 ms had said 0.069-0.075). A calibration at one delay cannot tell the two apart:
 * its calls in flight hardly move. A stage at a longer delay puts several times more calls in flight for as many
 * waiting.
 *
 * <p>β is chosen as the value that best predicts each level from the others (leave one out), and kept only where it
 * earns its place: where it predicts the left-out levels better than β = 0 by more than the standard error of that
 * gain (the one-standard-error rule: the simpler curve unless the levels show the other is better). A single dear
 * level at the second delay is otherwise enough to set β, and a β set by one level carried default-6's virtual threads
 * from 260 calls out to 530-600 at 100 ms +9 % too dear: 21-29 % under what heldout-6 measured. The same, done
 * again with each level left out of the choice of β as well (nested), gives the error the curve earns: how far a
 * level it never saw is off, judged where the curve interpolates (a level with others on both sides of it in the
 * requests waiting; beyond them the error is widened by the distance instead). A level of the second delay that lies
 * between the first delay's is predicted across the delays: its error is what carrying the curve from one delay to
 * another costs. With every level at one delay, β is not measured: it is 0, and a point elsewhere is an extrapolation
 * in the calls in flight, its error widened per e-fold beyond those of the levels its cost is read from.
 */
final class CpuCurve {

    /** A busy calibration level: its users and delay, what was in flight, and its CPU per request. */
    record Level(int users, int delayMs, double inJvm, double inFlight, double cpuMs) {
    }

    /**
     * The CPU per request somewhere, the relative error it earned there, and whether it is an extrapolation (beyond
     * the most users calibrated, or beyond every calibrated delay).
     */
    record Cost(double cpuMs, double error, boolean extrapolated) {
    }

    /** The β that best predicted the levels left out, and the β the curve takes (0 where it did not earn its place). */
    private record Beta(double fitted, double taken) {
    }

    /**
     * The least relative error any cost claims: two windows of one JVM at one point differ by about this much (where
     * a run measured a calibrated point again: {@link WindowEvidence}, on the findings page).
     */
    static final double LEAST_ERROR = 0.05;
    /**
     * How much wider the expected error grows per e-fold beyond what was calibrated (in the requests waiting, or in the
     * calls in flight): calibrated up to 700 users at 10 ms, the CPU per request at 3,000 users and 300 ms was 0.105 and
     * 0.111 ms (reactive, virtual threads) against 0.059 and 0.068 at 700: -32 % and -33 % at 1.46 e-folds, 0.22 a
     * fold. First set from two points of an earlier map at 25 %; the calibrations' own end levels, left out and
     * predicted with it ({@link ExtrapolationEvidence}, on the findings page), say how it holds, and with default-13
     * published, 25 % covered 50 of 56 (89 %), under the 90 % target: the rule is now the least step of 5 % that covers
     * it (30 %: 51 of 56; 35 %: 52).
     */
    static final double EXTRAPOLATION_PER_EFOLD = 0.30;
    /**
     * How far below the fewest waiting a cost held flat (the first segment rising) is widened, in e-folds: as far as
     * the calibrations' own fewest-waiting levels, left out, lay beyond the others (less than one e-fold in the
     * published default runs), and there their cost was up to 27 % above the level held flat ({@link
     * ExtrapolationEvidence}). Unwidened, three of those ends fell outside the error stated; beyond this reach no
     * calibration says how the cost moves.
     */
    static final double HELD_FLAT_REACH = 1.0;
    /**
     * The least error a measured β carries, per e-fold of the calls in flight it is carried: what one calibration's β is
     * off by. The β of calibrations of one variant on one machine and platform differ by a standard deviation the
     * findings page states ({@link BetaEvidence}, from the published default runs), and 1.645 of it covers 90 % of
     * them. How far β moved when a level was left out, where that is more, is taken instead.
     */
    static final double BETA_ERROR = 0.075;
    /** The calls in flight must span this many e-folds over the levels (a factor of 2) for β to be measured. */
    private static final double LEAST_SPAN = Math.log(2);
    private static final double BETA_LOW = -0.5;
    private static final double BETA_HIGH = 1.0;
    private static final double BETA_STEP = 0.01;
    /** Levels whose requests waiting are within this of each other (in e-folds) are one point of the curve. */
    private static final double SAME_WAITING = 0.05;

    private final List<Level> levels;
    private final double beta;
    private final double fittedBeta;
    private final boolean betaMeasured;
    private final double betaSpread;
    private final double cRef;
    private final double error;
    /** The curve: ln w and the cost deflated to cRef, fewest waiting first. */
    private final List<double[]> curve;

    private CpuCurve(List<Level> levels, Beta beta, boolean betaMeasured, double betaSpread, double cRef,
                     double error) {
        this.levels = levels;
        this.fittedBeta = beta.fitted();
        this.beta = beta.taken();
        this.betaMeasured = betaMeasured;
        this.betaSpread = betaSpread;
        this.cRef = cRef;
        this.error = error;
        this.curve = curve(levels, this.beta, cRef);
    }

    /** The curve through these busy levels (at least one). */
    static CpuCurve fit(List<Level> levels) {
        List<Level> sorted = levels.stream().sorted(Comparator.comparingDouble(Level::inJvm)).toList();
        double cRef = Math.exp(sorted.stream().mapToDouble(l -> Math.log(l.inFlight())).average().orElse(0));
        boolean measurable = spans(sorted);
        Beta chosen = measurable ? chosenBeta(sorted, cRef) : new Beta(0, 0);
        double beta = chosen.taken();
        double worst = LEAST_ERROR;
        double spread = 0;
        for (int i = 0; i < sorted.size() && sorted.size() > 2; i++) {
            List<Level> others = new ArrayList<>(sorted);
            Level out = others.remove(i);
            double b = measurable && spans(others) ? chosenBeta(others, cRef).taken() : 0;
            spread = Math.max(spread, Math.abs(b - beta));
            if (between(others, out)) {
                worst = Math.max(worst, Math.abs(predicted(others, b, cRef, out) / out.cpuMs() - 1));
            }
        }
        return new CpuCurve(sorted, chosen, measurable, spread, cRef, worst);
    }

    /** Whether {@code level} has levels with fewer and with more requests waiting among {@code others}. */
    private static boolean between(List<Level> others, Level level) {
        return others.stream().anyMatch(o -> o.inJvm() < level.inJvm())
                && others.stream().anyMatch(o -> o.inJvm() > level.inJvm());
    }

    /**
     * Whether the levels tell what the calls in flight cost: at two delays or more, their calls in flight a factor
     * apart. At one delay they move with the throughput alone, and with it the requests waiting: the two would be
     * confused.
     */
    private static boolean spans(List<Level> levels) {
        double[] logs = levels.stream().mapToDouble(l -> Math.log(l.inFlight())).toArray();
        return levels.size() > 2 && levels.stream().map(Level::delayMs).distinct().count() > 1
                && java.util.Arrays.stream(logs).max().orElse(0) - java.util.Arrays.stream(logs).min().orElse(0)
                >= LEAST_SPAN;
    }

    /**
     * The best β and the β taken: the best where it earns its place (see the class), else 0. Each level's gain is how
     * much smaller its squared log error left out is with the best β than with none.
     */
    private static Beta chosenBeta(List<Level> levels, double cRef) {
        double best = bestBeta(levels, cRef);
        double[] gains = new double[levels.size()];
        for (int i = 0; i < levels.size(); i++) {
            List<Level> others = new ArrayList<>(levels);
            Level out = others.remove(i);
            double none = Math.log(predicted(others, 0, cRef, out) / out.cpuMs());
            double with = Math.log(predicted(others, best, cRef, out) / out.cpuMs());
            gains[i] = none * none - with * with;
        }
        double mean = java.util.Arrays.stream(gains).average().orElse(0);
        double variance = java.util.Arrays.stream(gains).map(g -> (g - mean) * (g - mean)).sum() / (gains.length - 1);
        return new Beta(best, mean > Math.sqrt(variance / gains.length) ? best : 0);
    }

    /** The β whose curve best predicts each level from the others. */
    private static double bestBeta(List<Level> levels, double cRef) {
        double best = 0;
        double least = Double.POSITIVE_INFINITY;
        for (double b = BETA_LOW; b <= BETA_HIGH + 1e-9; b += BETA_STEP) {
            double squares = 0;
            for (int i = 0; i < levels.size(); i++) {
                List<Level> others = new ArrayList<>(levels);
                Level out = others.remove(i);
                double r = Math.log(predicted(others, b, cRef, out) / out.cpuMs());
                squares += r * r;
            }
            if (squares < least - 1e-12) {
                least = squares;
                best = Math.round(b / BETA_STEP) * BETA_STEP;
            }
        }
        return best;
    }

    private static double predicted(List<Level> from, double beta, double cRef, Level at) {
        return deflated(curve(from, beta, cRef), Math.log(at.inJvm())) * Math.pow(at.inFlight() / cRef, beta);
    }

    /**
     * Each level's cost deflated to cRef, by its requests waiting; levels as many waiting averaged. A point is {ln w,
     * deflated cost, levels in it, their mean ln of the calls in flight}.
     */
    private static List<double[]> curve(List<Level> levels, double beta, double cRef) {
        List<double[]> points = new ArrayList<>();
        for (Level l : levels.stream().sorted(Comparator.comparingDouble(Level::inJvm)).toList()) {
            double x = Math.log(l.inJvm());
            double g = l.cpuMs() / Math.pow(l.inFlight() / cRef, beta);
            double c = Math.log(l.inFlight());
            double[] last = points.isEmpty() ? null : points.getLast();
            if (last != null && x - last[0] < SAME_WAITING) {
                last[0] = (last[0] * last[2] + x) / (last[2] + 1);
                last[1] = (last[1] * last[2] + g) / (last[2] + 1);
                last[3] = (last[3] * last[2] + c) / (last[2] + 1);
                last[2]++;
            } else {
                points.add(new double[] {x, g, 1, c});
            }
        }
        return points;
    }

    /**
     * The calls in flight (their log) of what the curve is read from at ln w: the two points around it, weighted as
     * they are in the cost; the nearest end beyond them. A cost read there and carried by β to other calls in flight
     * is off by β's own error times the distance (in e-folds) between the two.
     */
    private static double readFrom(List<double[]> curve, double x) {
        if (x <= curve.getFirst()[0]) {
            return curve.getFirst()[3];
        }
        for (int i = 1; i < curve.size(); i++) {
            double[] a = curve.get(i - 1);
            double[] b = curve.get(i);
            if (x <= b[0]) {
                double t = (x - a[0]) / (b[0] - a[0]);
                return a[3] + t * (b[3] - a[3]);
            }
        }
        return curve.getLast()[3];
    }

    /**
     * The deflated cost at ln w: linear in ln w between points; below the first, the first segment continued where the
     * cost falls along it (fewer waiting, dearer), else the first point's; above the last, the last point's.
     */
    private static double deflated(List<double[]> curve, double x) {
        double[] first = curve.getFirst();
        if (x <= first[0]) {
            double slope = curve.size() < 2 ? 0 : (first[1] - curve.get(1)[1]) / (curve.get(1)[0] - first[0]);
            return slope > 0 ? first[1] + slope * (first[0] - x) : first[1];
        }
        for (int i = 1; i < curve.size(); i++) {
            double[] a = curve.get(i - 1);
            double[] b = curve.get(i);
            if (x <= b[0]) {
                return a[1] + (x - a[0]) / (b[0] - a[0]) * (b[1] - a[1]);
            }
        }
        return curve.getLast()[1];
    }

    /**
     * The CPU one request costs with {@code inJvm} requests waiting in the JVM and {@code inFlight} calls out at the
     * downstream, with the error it earned there: the curve's own, widened per e-fold beyond the requests waiting
     * that any level had (below the fewest: all the way where the first segment is continued, up to {@link
     * #HELD_FLAT_REACH} where the first level's cost is held; above the most, where the point also has more users than
     * any level: then an extrapolation), and by the distance between the point's calls in flight and those of the
     * levels its cost is read from, past half a factor of 2 ({@link #readFrom}: the cost is carried that far by β, so
     * β's error counts that many times; by how far β moved when a level was left out, at least {@link #BETA_ERROR},
     * where β was measured; by the rule where β was not measured). Measured from those levels, not from every
     * level's: at 100 ms and 1,000 users, with the pool of 500
     * full, few requests wait in the JVM, where only the 10 ms levels had so few, with a sixth of the calls out; the
     * cost carried from them by default-8's β (+8 % a doubling) left the forecast 17 % under what heldout-10 measured,
     * and an error widened only beyond the most calls any level had (a 50 ms level's) said ±5 %.
     *
     * @param outside whether the point lies beyond every calibrated delay or user count: an extrapolation
     */
    Cost at(double inJvm, double inFlight, boolean outside) {
        double x = Math.log(inJvm);
        double widened = 0;
        double fewest = Math.log(levels.getFirst().inJvm());
        double most = Math.log(levels.getLast().inJvm());
        // Held flat, the first level's cost is widened only as far below it as the evidence reaches: points the
        // connections bind (hardly any waiting, several e-folds below) would otherwise get an interval without a
        // lower end, as three held-out points did when it was widened all the way
        if (x < fewest - 0.01) {
            double below = continuesBelow() ? fewest - x : Math.min(fewest - x, HELD_FLAT_REACH);
            widened += EXTRAPOLATION_PER_EFOLD * below;
        }
        if (x > most && outside) {
            widened += EXTRAPOLATION_PER_EFOLD * (x - most);
        }
        // within half a factor of 2 of the calls in flight the cost is read from is no extrapolation: at one delay
        // they move a little with the throughput alone
        double beyond = Math.max(0, Math.abs(Math.log(inFlight) - readFrom(curve, x)) - LEAST_SPAN / 2);
        // a measured β narrows the guess per e-fold carried, never below what one calibration's β is off by
        widened += (betaMeasured ? Math.max(betaSpread, BETA_ERROR) : EXTRAPOLATION_PER_EFOLD) * beyond;
        double cost = deflated(curve, x) * Math.pow(inFlight / cRef, beta);
        return new Cost(cost, Math.min(1, error + widened), outside);
    }

    /** Whether the curve's first segment falls as more wait: it is continued below the fewest waiting. */
    boolean continuesBelow() {
        return curve.size() > 1 && curve.getFirst()[1] > curve.get(1)[1];
    }

    List<Level> levels() {
        return levels;
    }

    /**
     * Each end level (the fewest and the most requests waiting) left out and predicted from the others, as a point
     * beyond the calibration is ({@link #at}: below the fewest, the first segment continued; above the most, an
     * extrapolation): {how far beyond the others it lies, in e-folds of requests waiting; its relative error; the
     * error the others' curve states there}. An end within a tenth of an e-fold of the others is none, nor are the
     * ends of fewer than four levels.
     */
    List<double[]> endsLeftOut() {
        List<double[]> ends = new ArrayList<>();
        if (levels.size() < 4) {
            return ends;
        }
        for (int i : List.of(0, levels.size() - 1)) {
            List<Level> others = new ArrayList<>(levels);
            Level out = others.remove(i);
            double beyond = i == 0 ? Math.log(others.getFirst().inJvm() / out.inJvm())
                    : Math.log(out.inJvm() / others.getLast().inJvm());
            if (beyond >= 0.1) {
                Cost cost = fit(others).at(out.inJvm(), out.inFlight(), i > 0);
                ends.add(new double[] {beyond, cost.cpuMs() / out.cpuMs() - 1, cost.error()});
            }
        }
        return ends;
    }

    /** What the calls in flight add to a request's CPU per e-fold, on a log scale (0: not measured or not earned). */
    double beta() {
        return beta;
    }

    /** The β that best predicted the levels left out, whether or not it earned its place (0 where not measured). */
    double fittedBeta() {
        return fittedBeta;
    }

    /** Whether β was measured and did not earn its place: the curve takes it as 0. */
    boolean betaNotEarned() {
        return betaMeasured && fittedBeta != 0 && beta == 0;
    }

    boolean betaMeasured() {
        return betaMeasured;
    }

    /** How far β moved when a level was left out of its choice. */
    double betaSpread() {
        return betaSpread;
    }

    /** The worst relative error of a level predicted from the others: the curve's own error, at least the least. */
    double error() {
        return error;
    }
}
