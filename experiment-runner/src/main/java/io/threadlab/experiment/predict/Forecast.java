package io.threadlab.experiment.predict;

import io.threadlab.experiment.collect.Interval;
import io.threadlab.experiment.collect.WindowResult;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What the capacity model says of one point before it is measured.
 *
 * @param margin        the next ceiling over the binding one: how clearly one ceiling binds (1.0: two bind together)
 * @param p50Ms         the closed model's response time, users ÷ throughput (the mean; the median is near it where
 *                      nothing stalls)
 * @param expectedError the relative error to expect of the throughput: the one its ceiling's cost earned in the
 *                      calibration (each level predicted from the others before it was seen), widened by how far the
 *                      point lies beyond what was calibrated
 * @param holdMs        the time a request holds a worker or a connection, as the model takes it
 * @param notes         what the prediction assumes beyond its calibration, in words
 * @param nextError     the next ceiling's own relative error
 * @param k6Cores       k6's CPU at the predicted throughput, where the calibration read it (NaN: not)
 * @param k6Error       the relative error of {@code k6Cores} its calibration earned, widened past its users (NaN:
 *                      none earned)
 * @param machineUs     the machine's speed it was made for, where it differs from the calibration's: the CPU-µs of
 *                      the runner's fixed piece of work ({@link MachineSpeed}; null: the calibration's speed)
 */
public record Forecast(String jvm, double rps, Ceiling binding, double margin, Map<Ceiling, Double> ceilings,
                       double p50Ms, Double rssMb, double expectedError, boolean extrapolated, double holdMs,
                       List<String> notes, double nextError, double k6Cores, double k6Error,
                       Double machineUs)
        implements Interval.Stated {

    /** Where one ceiling binds: the next one is at least this much higher. The map's 15 % target holds there. */
    public static final double CLEAR_MARGIN = 1.15;

    /** The target of held-out points where one ceiling binds: measured within this of predicted. */
    public static final double TOLERANCE = 0.15;
    /** The share of held-out points where one ceiling binds that should be measured within {@link #TOLERANCE}. */
    public static final double WITHIN_TARGET = 0.90;
    /** The share of held-out points whose measurement should fall inside the interval stated before it. */
    public static final double COVERAGE_TARGET = 0.90;
    /** The share of held-out points whose binding ceiling the prediction should name right. */
    public static final double NAMED_TARGET = 0.95;

    public boolean oneCeilingBinds() {
        return margin >= CLEAR_MARGIN;
    }

    /** Whether the next ceiling lies within the two ceilings' errors of the binding one: either may bind. */
    public boolean twoClose() {
        return margin - 1 <= expectedError + nextError;
    }

    /**
     * The interval stated with the prediction: ± its expected error, reaching further down where the next ceiling,
     * within its own error, may bind below it ({@link Interval}).
     */
    @Override
    public Interval interval() {
        return Interval.of(rps, expectedError, margin, nextError);
    }

    /** The next ceiling over the binding one: what {@link #margin} is measured to. */
    public Ceiling next() {
        return ceilings.entrySet().stream().filter(e -> e.getKey() != binding)
                .min(Map.Entry.comparingByValue()).map(Map.Entry::getKey).orElseThrow();
    }

    /** As a window's row keeps it, stamped with when it was made. */
    public WindowResult.Prediction asRecorded(Instant madeAt) {
        Map<String, Double> byName = new LinkedHashMap<>();
        ceilings.forEach((c, v) -> byName.put(c.name().toLowerCase(Locale.ROOT), round(v)));
        return new WindowResult.Prediction(round(rps), binding.name().toLowerCase(Locale.ROOT), round(margin),
                round(p50Ms), rssMb == null ? null : round(rssMb), round(expectedError), extrapolated,
                madeAt.toString(), jvm, byName, Double.isNaN(k6Cores) ? null : round(k6Cores), round(nextError),
                machineUs, Double.isNaN(k6Cores) || Double.isNaN(k6Error) ? null : round(k6Error));
    }

    /** "4,800 req/s (CPU, ±6 %)", with k6's CPU and its error where it was forecast. */
    public String describe() {
        return String.format(Locale.ROOT, "%,.0f req/s (%s, %s%s%s)", rps, binding.label(), spread(),
                extrapolated ? ", extrapolated" : "", twoClose() ? ", " + next().label() + " close" : "")
                + (Double.isNaN(k6Cores) ? "" : String.format(Locale.ROOT, ", k6 about %.2f CPU", k6Cores)
                + (!Double.isNaN(k6Error) ? String.format(Locale.ROOT, " ±%.0f %%", k6Error * 100) : ""));
    }

    static String number(double v) {
        return v % 1 == 0 ? String.valueOf((long) v) : String.valueOf(v);
    }

    private static double round(double v) {
        return Math.round(v * 1000) / 1000.0;
    }
}
