package io.threadlab.experiment.plan;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Precision on demand: after the planned JVM starts, the run adds blocks (one more JVM start of every variant, its
 * repetitions interleaved) until every headline ratio is decided and within {@code halfWidth}, or until the next
 * block would not end within {@code budget} of the run's start, or at {@code maxJvmStarts}. Null fields: no such
 * stop. {@link #NONE}: the plan as given, no blocks added.
 */
public record PrecisionGoal(Double halfWidth, Duration budget, int maxJvmStarts) {

    public static final int DEFAULT_MAX_JVM_STARTS = 12;
    public static final PrecisionGoal NONE = new PrecisionGoal(null, null, DEFAULT_MAX_JVM_STARTS);
    private static final Pattern DURATION = Pattern.compile("(?:(\\d+)h)?(?:(\\d+)m)?(?:(\\d+)s)?");

    public boolean active() {
        return halfWidth != null || budget != null;
    }

    /** "10%" or "0.1" as a relative half-width. */
    public static double parseHalfWidth(String text) {
        String t = text.trim();
        try {
            double v = t.endsWith("%") ? Double.parseDouble(t.substring(0, t.length() - 1).trim()) / 100
                    : Double.parseDouble(t);
            if (v > 0 && v < 1) {
                return v;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new IllegalArgumentException("--precision must be a half-width like 10% or 0.1, was '" + text + "'");
    }

    /** "90s", "30m", "1h30m". */
    public static Duration parseBudget(String text) {
        Matcher m = DURATION.matcher(text.trim().toLowerCase(Locale.ROOT));
        if (!text.isBlank() && m.matches()) {
            long seconds = 3600 * group(m, 1) + 60 * group(m, 2) + group(m, 3);
            if (seconds > 0) {
                return Duration.ofSeconds(seconds);
            }
        }
        throw new IllegalArgumentException("--budget must be a duration like 30m, 90s or 1h30m, was '" + text + "'");
    }

    private static long group(Matcher m, int i) {
        return m.group(i) == null ? 0 : Long.parseLong(m.group(i));
    }

    public String describe() {
        if (!active()) {
            return "none";
        }
        return String.format(Locale.ROOT, "until every headline ratio is decided%s%s, at most %d JVM starts",
                halfWidth == null ? "" : String.format(Locale.ROOT, " and within ±%.0f %%", halfWidth * 100),
                budget == null ? "" : ", within " + budget.toMinutes() + " min of the start", maxJvmStarts);
    }
}
