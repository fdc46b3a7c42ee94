package io.threadlab.experiment.predict;

import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.plan.Headroom;

import java.util.List;
import java.util.Locale;

/**
 * What the load costs the machine it shares with the service: k6's CPU, its own upkeep (its metrics, its REST API, the
 * scheduler of its users) and a cost per request, and the delay service's, a cost per call; fitted by least squares
 * to a JVM's calibration windows, where both were read. Not per user: in a map of 2026-11-28 k6 used 0.83 CPU for
 * 4,786 req/s at 3,000 users and 0.77 for 5,008 at 200; its requests, not its users, cost it. With k6 on the same
 * cores as the services, it is a ceiling of the measurement: k6 cannot use more than the CPUs the service's quota and
 * the delay service leave it, and the report does not judge a point where it used more than
 * {@link Headroom#MOST_SHARE} of them. Said before measuring, so that a point the load generator will bind is known as
 * such. A calibration's windows ran k6 without the live latency histogram every measured window keeps until
 * 2026-12-04, and the histogram costs k6: such a window's k6 CPU is taken {@link #HISTOGRAM} times over, as a measured
 * window would have spent it.
 *
 * <p>k6's CPU is not steady from one window to the next (at 3,000 users and 300 ms, heldout-17's windows of one point
 * read 0.52 to 1.23 CPU), so the forecast states an error it earned: each calibration window left out
 * in turn, the line fitted to the others read at its throughput, the worst of those misses; and past the most users
 * calibrated, widened as the CPU's cost is ({@link CpuCurve#EXTRAPOLATION_PER_EFOLD} per e-fold of users beyond).
 * Where that error reaches past the report's rule, k6 <em>may</em> crowd the point, and the forecast says so.
 *
 * @param baseCores      k6's CPUs whatever the throughput (the line's intercept, at least 0)
 * @param msPerRequest   k6's CPU-ms per request
 * @param delayMsPerCall the delay service's CPU-ms per call
 * @param error          the relative error of k6's CPU, the worst calibration window left out (NaN: fewer than
 *                       {@link #LEFT_OUT_FROM} windows read k6)
 * @param mostUsers      the most users a calibration window read k6 at
 */
record LoadCost(double baseCores, double msPerRequest, double delayMsPerCall, double error, int mostUsers) {

    /** The fewest windows that leave one out and still fit a line through two. */
    static final int LEFT_OUT_FROM = 3;

    /**
     * What k6 spends with its live latency histogram over what it spends without, at one throughput: in the runs
     * published by 2026-12-04, each calibrated JVM's measured windows within its calibration's throughput, over the
     * calibration's line read there, 1.093× (± 0.022 in logarithms; 212 windows of 23 runs; each default run
     * 1.07-1.26×).
     * {@link LoadCostEvidence} says whether it still holds.
     */
    static final double HISTOGRAM = 1.09;

    /** From the windows that read k6's and the delay service's CPU; unknown (NaN) where none did. */
    static LoadCost fit(List<WindowResult> windows) {
        List<WindowResult> read = windows.stream().filter(w -> w.load().windowSeconds() > 0
                && w.load().requestsPerSecond() > 0 && w.users() != null && w.instruments().k6CpuSeconds() > 0).toList();
        if (read.isEmpty()) {
            return new LoadCost(Double.NaN, Double.NaN, Double.NaN, Double.NaN, 0);
        }
        double[] k6 = k6Line(read);
        double calls = read.stream().mapToDouble(w -> w.load().requestsPerSecond() * w.load().windowSeconds()
                * callsOf(w)).sum();
        double delaySeconds = read.stream().mapToDouble(w -> w.instruments().delayCpuSeconds()).sum();
        return new LoadCost(k6[0], k6[1] * 1000, calls > 0 ? delaySeconds * 1000 / calls : Double.NaN,
                leftOutError(read), read.stream().mapToInt(WindowResult::users).max().orElseThrow());
    }

    /** {base CPUs, CPU-seconds per request} of k6 in these windows. */
    private static double[] k6Line(List<WindowResult> read) {
        double[] line = Line.fit(read.stream().map(w -> new double[] {w.load().requestsPerSecond(),
                k6CpuSeconds(w) / w.load().windowSeconds()}).toList());
        if (Double.isNaN(line[0]) || line[0] < 0 || line[1] < 0) { // one throughput, or a line through the origin
            return new double[] {0, read.stream().mapToDouble(LoadCost::k6CpuSeconds).sum()
                    / read.stream().mapToDouble(w -> w.load().requestsPerSecond() * w.load().windowSeconds()).sum()};
        }
        return new double[] {line[1], line[0]};
    }

    /** The worst relative miss of k6's CPU at a window the line was fitted without. */
    private static double leftOutError(List<WindowResult> read) {
        if (read.size() < LEFT_OUT_FROM) {
            return Double.NaN;
        }
        double worst = 0;
        for (WindowResult out : read) {
            double[] others = k6Line(read.stream().filter(w -> w != out).toList());
            double said = others[0] + others[1] * out.load().requestsPerSecond();
            if (said > 0) {
                worst = Math.max(worst, Math.abs(k6CpuSeconds(out) / out.load().windowSeconds() / said - 1));
            }
        }
        return worst;
    }

    /**
     * k6's CPU in a window, as a window that keeps the histogram would have spent it: a window without percentiles ran
     * k6 without it (a calibration before 2026-12-04; since, a calibration keeps it too, as ClosedWindow says why).
     */
    private static double k6CpuSeconds(WindowResult w) {
        return w.instruments().k6CpuSeconds() * (w.load().keptHistogram() ? 1 : HISTOGRAM);
    }

    private static int callsOf(WindowResult w) {
        return w.at().has(io.threadlab.experiment.plan.Axis.FAN_OUT) ? w.at().get(io.threadlab.experiment.plan.Axis
                .FAN_OUT) : 1;
    }

    boolean known() {
        return !Double.isNaN(msPerRequest);
    }

    /** k6's CPUs at a throughput. */
    double k6Cores(double rps) {
        return baseCores + msPerRequest * rps / 1000;
    }

    /** The delay service's CPUs at so many calls a second (0 where it was not read). */
    double delayCores(double callsPerSecond) {
        return Double.isNaN(delayMsPerCall) ? 0 : delayMsPerCall * callsPerSecond / 1000;
    }

    /**
     * The most requests a second k6 can drive on a machine of {@code machineCores} beside a service at its quota:
     * where its CPU meets what the others leave it (0 where its upkeep alone does not fit).
     */
    double ceiling(int calls, double machineCores, double quota) {
        double room = machineCores - quota - baseCores;
        double perRequest = (msPerRequest + (Double.isNaN(delayMsPerCall) ? 0 : delayMsPerCall * calls)) / 1000;
        return room <= 0 ? 0 : perRequest <= 0 ? Double.POSITIVE_INFINITY : room / perRequest;
    }

    /**
     * "k6 about 1.10 of the 1.28 CPU left to it (86 %), ±21 % (up to 1.33, 104 %)", at a throughput, with the error
     * where it was earned.
     */
    String describe(double rps, int calls, double machineCores, double quota, int users) {
        double room = machineCores - quota - delayCores(rps * calls);
        double k6 = k6Cores(rps);
        double high = k6 * (1 + errorAt(users));
        return String.format(Locale.ROOT, "k6 about %.2f of the %.2f CPU left to it (%.0f %%)", k6, room,
                room > 0 ? 100 * k6 / room : 100) + (Double.isNaN(error) ? "" : String.format(Locale.ROOT,
                ", ±%.0f %% (up to %.2f, %.0f %%)", errorAt(users) * 100, high, room > 0 ? 100 * high / room : 100));
    }

    /** Whether k6 would use more of its room than the report's rule allows: the point would not be judged. */
    boolean crowded(double rps, int calls, double machineCores, double quota) {
        return share(k6Cores(rps), rps, calls, machineCores, quota) > Headroom.MOST_SHARE;
    }

    /**
     * Whether k6, at the high end of its error, would use more of its room than the report's rule allows (never where
     * no error was earned).
     */
    boolean mayCrowd(double rps, int calls, double machineCores, double quota, int users) {
        return !Double.isNaN(error)
                && share(k6Cores(rps) * (1 + errorAt(users)), rps, calls, machineCores, quota) > Headroom.MOST_SHARE;
    }

    /**
     * The relative error of k6's CPU with so many users: the calibration's, widened per e-fold of users beyond the
     * most it read (NaN where it was not earned: fewer than {@link #LEFT_OUT_FROM} windows).
     */
    double errorAt(int users) {
        if (Double.isNaN(error)) {
            return Double.NaN;
        }
        double beyond = users > mostUsers ? Math.log((double) users / mostUsers) : 0;
        return error + CpuCurve.EXTRAPOLATION_PER_EFOLD * beyond;
    }

    private double share(double k6, double rps, int calls, double machineCores, double quota) {
        return new Headroom(k6, machineCores - quota - delayCores(rps * calls)).share();
    }
}
