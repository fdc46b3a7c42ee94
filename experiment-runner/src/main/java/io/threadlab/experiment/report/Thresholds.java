package io.threadlab.experiment.report;

import io.threadlab.experiment.plan.OpenModel;
import io.threadlab.experiment.predict.CapacityModel;
import io.threadlab.experiment.predict.Forecast;
import io.threadlab.experiment.report.landscape.SleepCost;
import io.threadlab.experiment.report.landscape.SloCapacity;
import io.threadlab.experiment.report.landscape.Winners;

import java.util.Locale;

/**
 * Every threshold the report's prose names, taken from the constant that enforces it: the fragments quote these and
 * never type a number, so that a threshold changed in the code changes what the report says of it.
 *
 * @param tolerance      a prediction's target: measured within this share of it ({@link Forecast#TOLERANCE})
 * @param clearMargin    one ceiling binds where the next is at least this many times higher
 * @param busyShare      a calibration level is a point of the CPU curve from this share of its quota on
 * @param tie            a lead under this ratio is a tie ({@link Winners#CLEAR})
 * @param ratioHalfWidth the half-width a headline ratio should reach
 * @param sloAboveDelayMs the open model's p99 bound above the delay
 * @param sloAchieved    the share of the offered rate a step must achieve
 * @param sloDropped     the share of its arrivals a step may drop
 * @param sleepR         the correlation from which the sleeps are said to explain the CPU
 * @param sleepSpread    how far the sleeps must vary (most over fewest) for that
 * @param confidence     the intervals' confidence
 */
public record Thresholds(double tolerance, double clearMargin, double busyShare, double tie, double ratioHalfWidth,
                         int sloAboveDelayMs, double sloAchieved, double sloDropped, double sleepR,
                         double sleepSpread, double confidence) {

    /** The thresholds the code enforces today. */
    public static final Thresholds ENFORCED = new Thresholds(Forecast.TOLERANCE, Forecast.CLEAR_MARGIN,
            CapacityModel.LIGHT_SHARE, Winners.CLEAR, SpreadChecks.TARGET_RATIO_HALF_WIDTH,
            OpenModel.SLO_ABOVE_DELAY_MS, SloCapacity.ACHIEVED_SHARE, SloCapacity.DROPPED_SHARE, SleepCost.MIN_R,
            SleepCost.MIN_SPREAD, Stats.CONFIDENCE);

    public String tolerancePct() {
        return pct(tolerance);
    }

    /** How much higher the next ceiling is where one binds clearly: "15 %". */
    public String clearMarginPct() {
        return pct(clearMargin - 1);
    }

    public String busySharePct() {
        return pct(busyShare);
    }

    /** "5 %": the lead under which two are tied. */
    public String tiePct() {
        return pct(tie - 1);
    }

    public String ratioHalfWidthPct() {
        return "±" + pct(ratioHalfWidth);
    }

    public String sloBound() {
        return sloAboveDelayMs + " ms";
    }

    public String sloAchievedPct() {
        return pct(sloAchieved);
    }

    public String sloDroppedPct() {
        return pct(sloDropped);
    }

    public String sleepRText() {
        return String.format(Locale.ROOT, "%.1f", sleepR);
    }

    public String sleepSpreadText() {
        return String.format(Locale.ROOT, "%.1f×", sleepSpread);
    }

    public String confidencePct() {
        return pct(confidence);
    }

    private static String pct(double share) {
        double value = Math.round(share * 1000) / 10.0; // 0.15 × 100 is 15.000000000000002
        return String.format(Locale.ROOT, value == Math.rint(value) ? "%.0f %%" : "%.1f %%", value);
    }
}
