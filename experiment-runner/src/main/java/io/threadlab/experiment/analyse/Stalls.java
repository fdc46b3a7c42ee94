package io.threadlab.experiment.analyse;

import java.util.ArrayList;
import java.util.List;

/**
 * Stalls in a window's per-second throughput: seconds far below the window's own steady rate. A stall is a run of
 * such seconds; it says nothing about why (the recording and the docs do), only that the window is not one steady
 * state.
 * <p>
 * The steady rate is the median second, or half the best second when that is higher: a window that stalls for most
 * of its seconds has its median inside the stall (an imperative window ran 3,680 and 3,532 req/s, then 0–125 for
 * eight seconds: median 63), and the best second bounds what it did while it ran. In a steady window the best second
 * is within about 1.3× the median, so half of it never replaces the median there.
 * <p>
 * Seconds that k6 counted late are no stall: a k6 starved of CPU answers its counters late, and a map window read 3
 * seconds at 0 and then 80,000 req/s. A closed model cannot do that: after a real stall the most it can answer above
 * its steady rate in one second is its users' requests held meanwhile, one each. So where the second after a run of
 * low seconds exceeds the others' rate by more than the users, those seconds were counted late, and are taken
 * together (their mean) before stalls are sought.
 */
public final class Stalls {

    /** A second below this share of the window's steady rate is stalled. */
    public static final double STALLED_SHARE = 0.25;

    /**
     * One run of stalled seconds: the first (0-based, within the window) and how many, with their mean rate and the
     * window's steady rate they fell below.
     */
    public record Stall(int firstSecond, int seconds, double meanRate, double steadyRate) {
    }

    private Stalls() {
    }

    /** @param users the closed model's users (null: unknown, or the open model; no second is taken as counted late) */
    public static List<Stall> find(List<Double> perSecond, Integer users) {
        List<Stall> stalls = new ArrayList<>();
        if (perSecond == null || perSecond.size() < 3) {
            return stalls;
        }
        perSecond = users == null ? perSecond : countedInTime(perSecond, users);
        double steady = steadyRate(perSecond);
        if (!(steady > 0)) {
            return stalls;
        }
        int start = -1;
        double sum = 0;
        for (int i = 0; i <= perSecond.size(); i++) {
            boolean stalled = i < perSecond.size() && perSecond.get(i) < STALLED_SHARE * steady;
            if (stalled) {
                if (start < 0) {
                    start = i;
                    sum = 0;
                }
                sum += perSecond.get(i);
            } else if (start >= 0) {
                stalls.add(new Stall(start, i - start, sum / (i - start), steady));
                start = -1;
            }
        }
        return stalls;
    }

    /**
     * The seconds with each late count spread back over the low seconds before it: a run of seconds below
     * {@link #STALLED_SHARE} of the other seconds' steady rate, then one above that rate by more than {@code users}.
     */
    static List<Double> countedInTime(List<Double> perSecond, int users) {
        List<Double> out = new ArrayList<>(perSecond);
        for (int late = 1; late < out.size(); late++) {
            List<Double> rest = new ArrayList<>(out);
            rest.remove(late);
            double steady = steadyRate(rest);
            int first = late;
            while (first > 0 && out.get(first - 1) < STALLED_SHARE * steady) {
                first--;
            }
            if (first == late || out.get(late) - steady <= users) {
                continue; // a stall's release: at most every user's held request on top of the steady rate
            }
            double spread = 0;
            for (int i = first; i <= late; i++) {
                spread += out.get(i);
            }
            spread /= late - first + 1;
            for (int i = first; i <= late; i++) {
                out.set(i, spread);
            }
        }
        return out;
    }

    static double steadyRate(List<Double> perSecond) {
        List<Double> sorted = perSecond.stream().sorted().toList();
        int n = sorted.size();
        double median = n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
        return Math.max(median, sorted.getLast() / 2);
    }
}
