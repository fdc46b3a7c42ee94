package io.threadlab.experiment.predict;

import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.Downstream;
import io.threadlab.experiment.plan.FanOutMode;
import io.threadlab.experiment.plan.Point;

import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * One calibration level, as the capacity model uses it: the mean of its windows at one number of users and one delay
 * (a window measured again is one more window of it). {@code inJvm}: the requests that waited in the JVM, its users
 * less those at the downstream; {@code inFlight}: the calls out at the downstream; {@code pausedShare}: the share of
 * its time the collector paused the JVM (NaN where the variant's metrics did not say); {@code yardstickUs}: the
 * machine's speed, the CPU-µs the runner's fixed piece of work took (NaN where it was not timed).
 */
record Level(int users, int delayMs, double inJvm, double inFlight, double rps, double cpuMs, double meanMs,
             double rssMb, double cores, double dbCpuMs, double pausedShare, double yardstickUs) {

    /** A level counts where its users were at least this busy (throughput × mean response time). */
    static final double BUSY_SHARE = 0.9;

    /**
     * The levels of these calibration windows, by users then delay: those with a CPU per request, a mean response
     * time and their users busy, at one call per request.
     */
    static List<Level> of(List<WindowResult> calibration) {
        return of(calibration, Level::cpuMs);
    }

    /** The levels, each window's CPU per request read by {@code reading} ({@link CostReadingEvidence}). */
    static List<Level> of(List<WindowResult> calibration, ToDoubleFunction<WindowResult> reading) {
        List<WindowResult> usable = calibration.stream().filter(r -> r.users() != null && r.delayMs() != null
                && r.cpu().cpuMsPerRequest() > 0 && r.load().meanMs() != null && r.load().requestsPerSecond() > 0
                && keptBusy(r) && calls(r) == 1).toList();
        List<Level> levels = new ArrayList<>();
        usable.stream().map(r -> List.of(r.users(), r.delayMs())).distinct()
                .sorted(java.util.Comparator.comparing((List<Integer> k) -> k.get(0)).thenComparing(k -> k.get(1)))
                .forEach(k -> {
                    List<WindowResult> at = usable.stream().filter(r -> r.users().equals(k.get(0))
                            && r.delayMs().equals(k.get(1))).toList();
                    levels.add(new Level(k.get(0), k.get(1), mean(at, Level::inJvm), mean(at, Level::inFlight),
                            mean(at, r -> r.load().requestsPerSecond()), mean(at, reading),
                            mean(at, r -> r.load().meanMs()), mean(at, r -> r.memory().rssMb()),
                            mean(at, r -> r.cpu().cpuCores()), mean(at, Level::dbCpuMs),
                            mean(at, Level::pausedShare), mean(at, Level::yardstickUs)));
                });
        return levels;
    }

    /**
     * The CPU a request cost in a window, as the model reads it: the window's whole, its CPU over the requests served
     * in it, which its throughput times it makes the CPU used; not the median of its seconds', which the model read
     * before. Where a pool or a queue released its requests in waves, the seconds swing and their median is far from
     * the window's: database-jpa-5's imperative JVM served 503, 74, 631 and 85 requests in the four seconds of its
     * level at 900 users and 50 ms, whose median second cost 3.34 CPU-ms a request and the window 1.49, and that one
     * level made its forecasts' error ±99 %. Each calibration level left out and predicted from the others, the
     * window's whole predicts them better over the published calibrations ({@link CostReadingEvidence}, on the
     * findings page), though a second of a stall now counts in its window.
     */
    static double cpuMs(WindowResult r) {
        return r.cpu().cpuMsPerRequest();
    }

    /** The same level at another CPU per request ({@link MachineSpeed#atCalibration}). */
    Level withCpuMs(double cpu) {
        return new Level(users, delayMs, inJvm, inFlight, rps, cpu, meanMs, rssMb, cores, dbCpuMs, pausedShare,
                yardstickUs);
    }

    /** This level as a point of the CPU curve. */
    CpuCurve.Level onCurve() {
        return new CpuCurve.Level(users, delayMs, inJvm, inFlight, cpuMs);
    }

    /**
     * The requests that waited in the JVM in a window: its users, at most as many as the REST client's pool holds
     * ({@link #holding}), less those at the downstream, its throughput times the downstream's time (the delay service's
     * mean where it timed it, else the delay; N of them one after another), at least one.
     */
    static double inJvm(WindowResult r) {
        double downstreamMs = downstreamMs(r) * (mode(r) == FanOutMode.SEQUENTIAL ? calls(r) : 1);
        return Math.max(1, Math.min(r.users(), holding(r.at())) - r.load().requestsPerSecond() * downstreamMs / 1000);
    }

    /**
     * How many requests the REST client's pool to the delay service lets into the JVM's work at once. A request holds
     * its connection from its call until its answer has been read, and that read waits for the CPU like any other
     * work: past the pool, users queue for a connection, parked, and neither wait for the CPU nor spare a thread a
     * sleep as requests queued for it do. The client's own timers say so: with a pool of 300 at 50 ms and 2,000 users a
     * call waited 451 ms for its connection and then held it 95 ms. The pool ÷ the calls a request holds at once (N in
     * parallel, one in turn); unbounded where the point has no pool or its downstream is the database.
     */
    static double holding(Point at) {
        if (!at.has(Axis.POOL_SIZE) || at.has(Axis.DOWNSTREAM) && at.get(Axis.DOWNSTREAM) == Downstream.DB) {
            return Double.POSITIVE_INFINITY;
        }
        FanOut calls = FanOut.at(at);
        return at.get(Axis.POOL_SIZE) / (double) (calls.parallel() ? calls.calls() : 1);
    }

    /** The calls out at the downstream in a window: its throughput × the calls per request × a call's time. */
    static double inFlight(WindowResult r) {
        return Math.max(1, r.load().requestsPerSecond() * calls(r) * downstreamMs(r) / 1000);
    }

    private static double downstreamMs(WindowResult r) {
        double served = r.instruments().delayServedMeanMs();
        return Double.isNaN(served) || served <= 0 ? Math.max(r.delayMs(), 0.05) : served;
    }

    static int calls(WindowResult r) {
        return r.at().getOrFallback(Axis.FAN_OUT);
    }

    static FanOutMode mode(WindowResult r) {
        return r.at().getOrFallback(Axis.FAN_OUT_MODE);
    }

    /** The database's CPU per request of a window (its query's), or NaN where it has none. */
    private static double dbCpuMs(WindowResult r) {
        Double seconds = r.instruments().dbCpuSeconds();
        return seconds == null || r.load().requests() <= 0 ? Double.NaN : seconds * 1000 / r.load().requests();
    }

    private static double yardstickUs(WindowResult r) {
        Double us = r.instruments().yardstickUs();
        return us == null ? Double.NaN : us;
    }

    /** The share of a window's time the collector paused the JVM, or NaN where its metrics did not say. */
    private static double pausedShare(WindowResult r) {
        return r.gc() == null || r.load().windowSeconds() <= 0 ? Double.NaN
                : r.gc().pauseShare(r.load().windowSeconds());
    }

    /**
     * Whether the load kept its users busy (Little's law within {@link #BUSY_SHARE}): where it did not, the load
     * generator, not the JVM, set the pace, and the level says nothing of the JVM (seen here: the event loop at 1,000
     * users answered 821 at a time, at 0.32 of its 0.5 CPU).
     */
    static boolean keptBusy(WindowResult r) {
        return r.load().requestsPerSecond() * r.load().meanMs() / 1000 >= BUSY_SHARE * r.users();
    }

    static double mean(List<WindowResult> rows, ToDoubleFunction<WindowResult> f) {
        return rows.stream().mapToDouble(f).average().orElse(Double.NaN);
    }
}
