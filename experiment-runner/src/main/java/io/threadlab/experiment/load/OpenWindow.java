package io.threadlab.experiment.load;

import io.threadlab.experiment.plan.Downstream;
import io.threadlab.experiment.plan.OpenModel;
import io.threadlab.experiment.plan.Window;
import io.threadlab.experiment.progress.Console;
import io.threadlab.experiment.start.RunningJvm;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * The open model's arrival-rate steps, one k6 run of their own after a settle at the plan's highest closed level; the
 * settle's load (in a map, the one its delay's last closed window ran) is parked with nothing in flight while the steps
 * run, and goes on with the next closed window at that level. Its seconds count from the delay service's first
 * answer to the steps; its throughput per second is the delay service's count.
 */
final class OpenWindow {

    /**
     * k6's users for the open model, all steps together, are capped here; k6/open.js gives each step half (two
     * overlap). With the live latency histogram every user cost k6 about 1.8 MB and 18,000 users once exhausted this
     * 24 GB machine; the open model now starts without it (k6/lib.js), at about 0.2 MB per user.
     */
    static final int VUS_CEILING = 8000;

    /** The open model's load did not end: its point is lost, the run goes on. */
    static final class Lost extends RuntimeException {
        Lost(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private final Loads loads;
    private final Settle settle;
    private final EdgeReader edges;
    private final Console console;
    private final Consumer<RunningJvm> requireAlive;
    private final Consumer<String> warn;

    OpenWindow(Loads loads, Settle settle, EdgeReader edges, Console console, Consumer<RunningJvm> requireAlive,
               Consumer<String> warn) {
        this.loads = loads;
        this.settle = settle;
        this.edges = edges;
        this.console = console;
        this.requireAlive = requireAlive;
        this.warn = warn;
    }

    /**
     * @param settleUsers the users of the settle before the steps (the plan's highest level)
     * @param rates       the offered rates, resolved
     * @param maxUsers    what k6 may hold, all steps together
     */
    Measured measure(RunningJvm jvm, Window window, Window.OpenSteps open, int settleUsers, List<Integer> rates,
                     int maxUsers, double quota) {
        String id = window.id().format();
        // with the histogram: it is the closed load the next closed window at this level goes on with
        LoadSession settleLoad = loads.session(jvm, settleUsers, window.path(), open.settleMaxSeconds() + 600,
                id + "-settle", true);
        Settled settled = settle.until(jvm, settleLoad, settleUsers, 0, open.settleMaxSeconds(), quota);
        int latencyMs = window.delayMs() + OpenModel.SLO_ABOVE_DELAY_MS;
        int topRate = rates.stream().mapToInt(i -> i).max().orElse(100);
        if (topRate * latencyMs / 1000.0 > maxUsers / 2.0) {
            warn.accept(String.format(Locale.ROOT, "%s: k6 may hold %,d users per step; a step above %,.0f req/s at"
                    + " %d ms may find k6 short of users, and its dropped arrivals are k6's as much as the service's",
                    id, maxUsers / 2, maxUsers / 2 / (latencyMs / 1000.0), latencyMs));
        }
        List<Double> perSecond = new ArrayList<>();
        try (K6Run load = loads.open(jvm, window.path(), rates, open.stepSeconds(), maxUsers, latencyMs, id)) {
            awaitFirstRequests(load, id, window.downstream());
            Edge before = edges.read(jvm, id + "-before", load.pid(), null, true);
            var k6Seen = before.k6();
            double lastServed = before.served(window.downstream());
            long lastAt = before.nanos();
            int stepsSeconds = open.seconds();
            long giveUp = System.nanoTime() + (stepsSeconds + Window.OPEN_MODEL_STRAGGLERS_SECONDS) * 1_000_000_000L;
            for (int tick = 1; load.isAlive() && System.nanoTime() < giveUp; tick++) {
                Pause.millis(1000);
                requireAlive.accept(jvm);
                k6Seen = latest(k6Seen, edges.k6(load.pid()));
                if (tick < stepsSeconds) { // after the last step only k6's end is awaited
                    double served = edges.served(window.downstream());
                    long at = System.nanoTime();
                    perSecond.add(WindowFigures.round((served - lastServed) / ((at - lastAt) / 1e9)));
                    lastServed = served;
                    lastAt = at;
                }
                if (tick % 3 == 0) {
                    console.status(String.format(Locale.ROOT, "%s open: %d/%d s, %.0f req/s", jvm.jvm(),
                            Math.min(tick, stepsSeconds), stepsSeconds, perSecond.isEmpty() ? 0
                                    : perSecond.getLast()), tick % 15 == 0);
                }
            }
            K6Summary summary;
            try {
                summary = load.finish(Duration.ofSeconds(Window.OPEN_MODEL_STRAGGLERS_SECONDS));
            } catch (IOException e) {
                throw new Lost("the open model's k6 failed after its last step: " + e.getMessage(), e);
            }
            Edge end = edges.read(jvm, id + "-after", load.pid(), null, false);
            return new Measured(before, end.withK6(latest(k6Seen, end.k6())), LoadFigures.of(summary), perSecond,
                    List.of(), settled);
        }
    }

    /**
     * Until the downstream has served the open model's first requests: k6 first makes all its users (thousands
     * take it more than 10 s on 2 cores), and the first answer comes a delay after the first request.
     */
    private void awaitFirstRequests(K6Run load, String windowId, Downstream downstream) {
        double initial = edges.served(downstream);
        long deadline = System.nanoTime() + Duration.ofSeconds(Window.OPEN_MODEL_STARTUP_SECONDS).toNanos();
        while (load.isAlive() && System.nanoTime() < deadline) {
            if (edges.served(downstream) > initial) {
                return;
            }
            Pause.millis(100);
        }
        warn.accept(windowId + ": " + (downstream == Downstream.DB ? "the database" : "the delay service")
                + " served none of the open model's requests in its first "
                + Window.OPEN_MODEL_STARTUP_SECONDS + " s");
    }

    /** Unconfined k6 is read from /proc while it runs; keep the largest reading seen, the last one before exit. */
    private static io.threadlab.experiment.confine.CpuReading latest(io.threadlab.experiment.confine.CpuReading a,
                                                                     io.threadlab.experiment.confine.CpuReading b) {
        return b.usageNanos() >= a.usageNanos() ? b : a;
    }
}
