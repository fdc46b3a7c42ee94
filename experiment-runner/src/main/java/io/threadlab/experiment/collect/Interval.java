package io.threadlab.experiment.collect;

import java.util.Locale;

/**
 * The interval stated with a prediction. The throughput is the lower of the two lowest ceilings, each within its own
 * error, so each end of the interval is the lower of theirs: ± the binding ceiling's error where the next ceiling lies
 * clear above it, reaching further down where the next one's own low end lies below the binding one's (two ceilings
 * close: either may bind).
 */
public record Interval(double rps, double low, double high) {

    /**
     * @param error     the binding ceiling's relative error
     * @param margin    the next ceiling over the binding one
     * @param nextError the next ceiling's error; null where it is not known (the binding ceiling's alone)
     */
    public static Interval of(double rps, double error, double margin, Double nextError) {
        boolean alone = nextError == null || !Double.isFinite(margin);
        // an error of 100 % or more reaches down to nothing: no throughput is below zero (heldout-5's connection-bound
        // points were stated as -24 to 3,077 req/s, the next ceiling's error above 100 %)
        return new Interval(rps, Math.max(0, alone ? rps * (1 - error)
                : Math.min(rps * (1 - error), rps * margin * (1 - nextError))),
                alone ? rps * (1 + error) : Math.min(rps * (1 + error), rps * margin * (1 + nextError)));
    }

    /** "±6 %", or "-14 %/+6 %" where the next ceiling widens the interval below. */
    public String spread() {
        double below = 1 - low / rps;
        double above = high / rps - 1;
        return Math.abs(below - above) < 0.005 ? String.format(Locale.ROOT, "±%.0f %%", above * 100)
                : String.format(Locale.ROOT, "-%.0f %%/+%.0f %%", below * 100, above * 100);
    }

    /** Whether a measurement fell inside it. */
    public boolean covers(double measured) {
        return measured >= low && measured <= high;
    }

    /** What is stated with an interval: its ends and its spread are the interval's. */
    public interface Stated {

        Interval interval();

        default double low() {
            return interval().low();
        }

        default double high() {
            return interval().high();
        }

        /** "±6 %", or "-14 %/+6 %" where the next ceiling widens the interval below. */
        default String spread() {
            return interval().spread();
        }
    }
}
