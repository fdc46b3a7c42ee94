package io.threadlab.experiment.plan;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The fan-out's rules over a plan's points: what a service will do (and so what the plan refuses), which points a JVM
 * can be driven at, what a fanning JVM is calibrated at besides one call, and what the plan flags before it starts.
 * It reads the plan's parts (its grid, knobs and calibration), never the plan itself.
 */
record FanOutPoints(Grid grid, Knobs knobs, Calibration calibration) {

    /**
     * The fan-out a service will do: from 1 to {@link #MAX_FAN_OUT} calls, and never more than the delay client's
     * connection pool holds (each service refuses both with a 400, so that every request of such a window would
     * fail); only to the delay service, and only where a variant has the endpoint.
     */
    static void require(Grid grid, Knobs knobs, List<Point> setups, List<Variant> variants) {
        List<Integer> calls = grid.values(Axis.FAN_OUT);
        if (calls.isEmpty() || calls.equals(List.of(1))) {
            return;
        }
        Axis.FAN_OUT.check(calls, "--fan-out");
        int pool = Stream.concat(Stream.of(knobs), setups.stream().map(knobs::at))
                .mapToInt(Knobs::connectionPoolSize).min().orElseThrow();
        int most = calls.stream().mapToInt(n -> n).max().orElseThrow();
        if (most > pool) {
            throw new IllegalArgumentException("--fan-out " + most + " is more calls than the delay client's"
                    + " connection pool holds (" + pool + ", --pool-size): a request would wait for connections its"
                    + " own calls hold, and the services refuse it");
        }
        if (!grid.values(Axis.DOWNSTREAM).isEmpty() && !grid.values(Axis.DOWNSTREAM).contains(Downstream.HTTP)) {
            throw new IllegalArgumentException("--fan-out calls the delay service: it needs --downstream http");
        }
        if (variants.stream().allMatch(v -> v.fanOutPath() == null)) {
            throw new IllegalArgumentException("--fan-out: no fan-out endpoint in " + variants);
        }
    }

    /**
     * What a JVM whose grid fans out is calibrated at besides one call: per mode, the most calls per request its
     * points make, at the calibration's delay, so that the CPU a request costs at N calls is measured against one
     * call's at the same users, measured there or on the one-call curve (measured here at 8 parallel calls and 10 ms:
     * 4.2-4.3 times one call's, not 8: the request's own HTTP work is paid once). The users are, of the calibration's
     * levels and the most users the pool has room for, those nearest (in log) to the mode's points whose calls all
     * get a connection and, for a worker variant in parallel, whose requests and calls all get a worker (a queue would
     * measure the queue); else the fewest it can be driven at.
     */
    List<Point> calibrations(Jvm jvm, List<Point> windowPoints) {
        if (jvm.variant().path(Downstream.HTTP) == null) { // nothing to compare with: a mistake that only fans out
            return List.of();
        }
        List<Point> fanning = windowPoints.stream().filter(p -> calls(p) > 1 && drivable(jvm, p))
                .toList();
        List<Point> out = new ArrayList<>();
        for (FanOutMode mode : FanOutMode.values()) {
            List<Point> inMode = fanning.stream().filter(p -> mode(p) == mode).toList();
            inMode.stream().mapToInt(FanOutPoints::calls).max().ifPresent(n -> {
                Point at = Point.NONE.with(Axis.DELAY_MS, calibration.delayMs()).with(Axis.FAN_OUT, n)
                        .with(Axis.FAN_OUT_MODE, mode);
                // where its points are: the CPU a call adds moves with the users (imperative, 16 parallel calls:
                // 2.04 CPU-ms per request at 10 users, 1.75 at 100; 16 in turn: 2.34 at 700, 1.53 at 100)
                double middle = inMode.stream().filter(p -> p.has(Axis.USERS))
                        .mapToDouble(p -> Math.log(p.get(Axis.USERS))).average().orElse(0);
                List<Integer> drivable = calibration.levels().stream()
                        .filter(u -> drivable(jvm, at.with(Axis.USERS, u))).toList(); // most users first
                // the most users whose calls all have room too: with 8 parallel calls on a pool of 1,000 only 10 of
                // the levels did (fanout-1), too few to load the quota, and what a further call adds was measured
                // among sleeps (reactive: 0.038 CPU-ms there, about 0.06 at its points)
                Stream.concat(drivable.stream(), mostWithRoom(jvm, at).stream())
                        .filter(u -> roomFor(jvm, at.with(Axis.USERS, u)) && drivable(jvm, at.with(Axis.USERS, u)))
                        .min(Comparator.comparingDouble(u -> Math.abs(Math.log(u) - middle)))
                        .or(() -> drivable.isEmpty() ? Optional.empty() : Optional.of(drivable.getLast()))
                        .ifPresent(u -> out.add(at.with(Axis.USERS, u)));
            });
        }
        return out;
    }

    /** The most users at which every call of a point has a connection (and a worker: {@link #roomFor}). */
    private Optional<Integer> mostWithRoom(Jvm jvm, Point at) {
        boolean parallel = mode(at) == FanOutMode.PARALLEL;
        int most = poolOf(jvm) / (parallel ? calls(at) : 1);
        if (parallel && jvm.variant().threads() == Variant.Threads.WORKER) {
            most = Math.min(most, knobs.at(jvm.setup()).workerPoolMax() / (1 + calls(at)));
        }
        return most >= 1 ? Optional.of(most) : Optional.empty();
    }

    /** Whether every call of a point has a connection, and, for a worker variant in parallel, a worker. */
    private boolean roomFor(Jvm jvm, Point at) {
        int users = at.get(Axis.USERS);
        boolean parallel = mode(at) == FanOutMode.PARALLEL;
        return (long) users * (parallel ? calls(at) : 1) <= poolOf(jvm)
                && !(parallel && jvm.variant().threads() == Variant.Threads.WORKER
                && (long) users * (1 + calls(at)) > knobs.at(jvm.setup()).workerPoolMax());
    }

    /**
     * Whether a JVM's requests can be driven at a point at all: a worker variant whose parallel fan-out runs its calls
     * on the pool that runs its requests stops answering, for good, once every worker is a request waiting for its
     * calls (they queue behind it): at as many users as workers. Such a point is left out of its schedule (and
     * {@link #flags} says so), for it would lose every later window of that JVM too. A mistake is driven there
     * all the same: that starvation is its lesson (fanout-worker-starvation), and it ends, since each request waits
     * for its calls at most the client's connect and read timeouts and is then answered 503 (the services'
     * FanoutResource), and k6 gives up on a request after its own timeout: every window ends within its ceiling and
     * the drain after it ({@link Step#MARGIN_SECONDS}). Left out for any variant: more calls per request than its own
     * connection pool holds, which the services refuse (400) for every request.
     */
    boolean drivable(Jvm jvm, Point at) {
        return !(starves(jvm, at) && !jvm.variant().isMistake()) && calls(at) <= poolOf(jvm);
    }

    /** A worker variant's parallel fan-out at as many users as workers: every worker a request waiting for calls. */
    private boolean starves(Jvm jvm, Point at) {
        return jvm.variant().threads() == Variant.Threads.WORKER && at.has(Axis.USERS) && calls(at) > 1
                && mode(at) == FanOutMode.PARALLEL && at.get(Axis.USERS) >= knobs.at(jvm.setup()).workerPoolMax();
    }

    /** The delay client's connection pool of a JVM: its variant's own setting, else the run's. */
    private int poolOf(Jvm jvm) {
        return knobs.of(jvm).connectionPoolSize();
    }

    /**
     * What the plan flags before it starts about its fan-out points, for the console and the manifest: the points a
     * worker variant cannot be driven at (left out), the connections in flight beyond the pool (users × calls: the
     * pool binds), and the delay service's calls per second beyond what the grid asks of it at one call (at most
     * users × calls ÷ delay, parallel; users ÷ delay, sequential: it serves them beside the variant).
     */
    List<String> flags(List<Jvm> jvms) {
        List<String> flags = new ArrayList<>();
        List<Point> points = grid.points().stream().map(FanOutPoints::oneCallParallel).distinct()
                .filter(p -> calls(p) > 1 && p.has(Axis.USERS)).toList();
        if (points.isEmpty()) {
            return flags;
        }
        double oneCall = grid.points().stream().filter(p -> p.has(Axis.USERS))
                .mapToDouble(p -> delayCallsPerSecond(p.with(Axis.FAN_OUT, 1))).max().orElse(0);
        for (Point at : points) {
            for (Jvm jvm : jvms.stream().filter(j -> j.start() == 1 && j.variant().path(at) != null).toList()) {
                if (calls(at) > poolOf(jvm)) {
                    flags.add(String.format(Locale.ROOT, "%s at %s: left out; %d calls per request are more than its"
                            + " connection pool of %d holds, and the service refuses such requests", jvm.label(),
                            at.describe(), calls(at), poolOf(jvm)));
                } else if (starves(jvm, at) && drivable(jvm, at)) {
                    flags.add(String.format(Locale.ROOT, "%s at %s: driven, the mistake's lesson; %,d users on %d"
                            + " workers, each request waiting for %d calls queued on the same pool, starve it: its"
                            + " requests are answered 503 once they waited the client's connect and read timeouts",
                            jvm.label(), at.describe(), at.get(Axis.USERS), knobs.at(jvm.setup()).workerPoolMax(), calls(at)));
                } else if (!drivable(jvm, at)) {
                    flags.add(String.format(Locale.ROOT, "%s at %s: left out; %,d users on %d workers, each request"
                            + " waiting for %d calls queued on the same pool, would stop the service for good",
                            jvm.label(), at.describe(), at.get(Axis.USERS), knobs.at(jvm.setup()).workerPoolMax(), calls(at)));
                }
            }
            int pool = knobs.connectionPoolSize();
            long inFlight = (long) at.get(Axis.USERS) * (mode(at) == FanOutMode.PARALLEL ? calls(at) : 1);
            if (inFlight > pool) {
                flags.add(String.format(Locale.ROOT, "%s: up to %,d connections in flight, the pool holds %,d: the"
                        + " connections bind, requests queue for them", at.describe(), inFlight, pool));
            }
            double perSecond = delayCallsPerSecond(at);
            if (perSecond > oneCall) {
                flags.add(String.format(Locale.ROOT, "%s: the delay service may be asked up to %,.0f calls/s, more"
                        + " than this grid asks at one call (%,.0f/s); its headroom is measured in every window",
                        at.describe(), perSecond, oneCall));
            }
        }
        return flags;
    }

    /** The most calls per second a closed-model point can ask of the delay service: each user's calls per delay. */
    private static double delayCallsPerSecond(Point at) {
        double delaySeconds = Math.max(1, at.get(Axis.DELAY_MS)) / 1000.0;
        return at.get(Axis.USERS) * (mode(at) == FanOutMode.PARALLEL ? calls(at) : 1) / delaySeconds;
    }

    static int calls(Point at) {
        return at.getOrFallback(Axis.FAN_OUT);
    }

    static FanOutMode mode(Point at) {
        return at.getOrFallback(Axis.FAN_OUT_MODE);
    }

    /** One call is one call in either mode: such a point is the parallel one. */
    static Point oneCallParallel(Point p) {
        return p.has(Axis.FAN_OUT_MODE) && (!p.has(Axis.FAN_OUT) || p.get(Axis.FAN_OUT) == 1)
                ? p.with(Axis.FAN_OUT_MODE, FanOutMode.PARALLEL) : p;
    }
}
