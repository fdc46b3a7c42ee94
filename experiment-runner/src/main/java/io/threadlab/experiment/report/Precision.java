package io.threadlab.experiment.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What a ratio's interval says beyond its bounds, and what it would take to decide it.
 *
 * <p>Direction: across JVM starts, how often one variant's JVM mean is ahead of the other's, with the exact
 * probability of a split at least that lopsided if the two were the same (a two-sided Mann-Whitney test, every
 * assignment of the JVM means to the two variants counted). "Ahead in all 9 pairs of JVM starts, exact p = 0.10"
 * is what three JVM starts each can say at best.
 *
 * <p>What it would take: the interval of a ratio between k JVM starts of each narrows as t(2k-2) sqrt(2/k); from the spread
 * the run measured, the number of JVM starts at which it would exclude 1 (decided) or be within the target
 * half-width, and the minutes that many more blocks would take at the run's own pace.
 */
public final class Precision {

    private Precision() {
    }

    /** One variant's JVM means against another's: pairs of (JVM of a, JVM of b) with a ahead, and the exact p. */
    public record Direction(int ahead, int pairs, double p) {
        public String words(String a, String b) {
            if (pairs == 0) {
                return "no JVM starts to compare";
            }
            String who = ahead * 2 >= pairs ? a : b;
            int count = ahead * 2 >= pairs ? ahead : pairs - ahead;
            return String.format(Locale.ROOT, "%s ahead in %d of %d pairs of JVM starts (exact p = %.3g)", who, count,
                    pairs, p);
        }
    }

    /** @param a the JVM means of one variant; {@code b} the other's */
    public static Direction direction(List<Double> a, List<Double> b) {
        int u = count(a, b);
        int pairs = a.size() * b.size();
        if (pairs == 0) {
            return new Direction(0, 0, Double.NaN);
        }
        List<Double> pooled = new ArrayList<>(a);
        pooled.addAll(b);
        double observed = Math.abs(u - pairs / 2.0);
        int[] total = {0};
        int[] extreme = {0};
        assignments(pooled, a.size(), 0, new ArrayList<>(), (chosenA, chosenB) -> {
            total[0]++;
            if (Math.abs(count(chosenA, chosenB) - pairs / 2.0) >= observed - 1e-9) {
                extreme[0]++;
            }
        });
        return new Direction(u, pairs, (double) extreme[0] / total[0]);
    }

    private static int count(List<Double> a, List<Double> b) {
        int ahead = 0;
        for (double x : a) {
            for (double y : b) {
                ahead += x > y ? 1 : 0;
            }
        }
        return ahead;
    }

    private interface Split {
        void accept(List<Double> a, List<Double> b);
    }

    /** Every way of choosing {@code k} of the pooled values for one side (the rest for the other). */
    private static void assignments(List<Double> pooled, int k, int from, List<Integer> chosen, Split split) {
        if (chosen.size() == k) {
            List<Double> a = new ArrayList<>();
            List<Double> b = new ArrayList<>();
            for (int i = 0; i < pooled.size(); i++) {
                (chosen.contains(i) ? a : b).add(pooled.get(i));
            }
            split.accept(a, b);
            return;
        }
        for (int i = from; i <= pooled.size() - (k - chosen.size()); i++) {
            chosen.add(i);
            assignments(pooled, k, i + 1, chosen, split);
            chosen.removeLast();
        }
    }

    /** What it would take: JVM starts in all, and the minutes to add them. */
    public record Need(int jvmStarts, double minutes) {
        public String words(int have) {
            return jvmStarts <= have ? "decided with the JVM starts it has"
                    : String.format(Locale.ROOT, "about %d JVM starts (%d more, about %.0f min)", jvmStarts,
                    jvmStarts - have, minutes);
        }
    }

    /**
     * The JVM starts (of each variant) at which a ratio's interval would exclude 1 and be within {@code halfWidth} (relative),
     * if the spread between JVM starts stays what it was; empty when it cannot be told (one JVM start, or no spread
     * measured) or would take more than {@code most}.
     *
     * @param ratio           the ratio now, with its interval from {@code jvmStarts} JVM starts
     * @param minutesPerStart what one more JVM start of every variant took in this run
     */
    public static Optional<Need> toDecide(Stats.Ratio ratio, int jvmStarts, double halfWidth, double minutesPerStart,
                                          int most) {
        if (jvmStarts < 2 || Double.isNaN(ratio.low()) || ratio.ratio() <= 0) {
            return Optional.empty();
        }
        double log = Math.log(ratio.ratio());
        double halfLog = (Math.log(ratio.high()) - Math.log(ratio.low())) / 2;
        // the pooled sd of one JVM mean, back from the interval: half = t(2k - 2) * sd * sqrt(2 / k) at k starts each
        double spread = halfLog / (Stats.tCritical(2 * jvmStarts - 2) * Math.sqrt(2.0 / jvmStarts));
        for (int k = jvmStarts; k <= most; k++) {
            double h = Stats.tCritical(2 * k - 2) * spread * Math.sqrt(2.0 / k);
            if (h < Math.abs(log) && Math.exp(h) - 1 <= halfWidth) {
                return Optional.of(new Need(k, (k - jvmStarts) * minutesPerStart));
            }
        }
        return Optional.empty();
    }
}
