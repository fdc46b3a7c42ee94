package io.threadlab.experiment.report;

import java.util.List;
import java.util.Locale;

/** How the report writes numbers: grouped thousands, "–" for what was not measured, ratios with their interval. */
final class Numbers {

    private Numbers() {
    }

    /** The intervals' confidence as the report says it: "95 %". */
    static final String CONFIDENCE = Thresholds.ENFORCED.confidencePct();

    static String number(double v, int digits) {
        return Double.isNaN(v) ? "–" : String.format(Locale.ROOT, "%,." + digits + "f", v);
    }

    static String pct(double share) {
        return Double.isNaN(share) ? "–" : String.format(Locale.ROOT, "%.1f %%", share * 100);
    }

    /** A quota as the manifest writes it (0.5, 2.0), as the report always quoted it. */
    static String quota(double cpus) {
        return Double.isNaN(cpus) ? "unknown" : String.valueOf(cpus);
    }

    /** "10 ms", "10 and 300 ms". */
    static String delays(List<Integer> delays) {
        if (delays.isEmpty()) {
            return "unknown";
        }
        List<String> ms = delays.stream().map(String::valueOf).toList();
        return (ms.size() == 1 ? ms.getFirst()
                : String.join(", ", ms.subList(0, ms.size() - 1)) + " and " + ms.getLast()) + " ms";
    }

    /** Median [interval]; the median alone when there is no interval or it rounds to one number. */
    static String cell(Stats.Summary s, int digits) {
        if (s.n() == 0) {
            return "–";
        }
        String low = number(s.low(), digits);
        String high = number(s.high(), digits);
        if (!s.hasInterval() || low.equals(high)) {
            return number(s.median(), digits);
        }
        return number(s.median(), digits) + " [" + low + "–" + high + "]";
    }

    /** "1.50× (95 % CI 1.41–1.59)", or "1.50×" without an interval; the confidence is {@link #CONFIDENCE}. */
    static String times(Stats.Ratio r) {
        if (Double.isNaN(r.ratio())) {
            return "–";
        }
        if (!hasInterval(r)) {
            return String.format(Locale.ROOT, "%.2f×", r.ratio());
        }
        return String.format(Locale.ROOT, "%.2f× (", r.ratio()) + CONFIDENCE + String.format(Locale.ROOT,
                " CI %.2f–%.2f)", r.low(), r.high());
    }

    /**
     * A ratio as a table cell: its interval, and whether that contains 1. One repetition gives no interval, and so
     * no judgement of noise either: the cell says so.
     */
    static String ratio(Stats.Ratio r) {
        if (Double.isNaN(r.ratio())) {
            return "–";
        }
        return times(r) + (!hasInterval(r) ? ", " + NO_INTERVAL : r.withinNoise() ? ", within noise" : "");
    }

    static final String NO_INTERVAL = "no interval (one repetition)";

    static boolean hasInterval(Stats.Ratio r) {
        return !Double.isNaN(r.low());
    }
}
