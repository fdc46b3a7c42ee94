package io.threadlab.experiment.load;

import io.threadlab.experiment.confine.CpuReading;
import io.threadlab.experiment.plan.Downstream;
import io.threadlab.experiment.plan.Window;
import io.threadlab.experiment.progress.Console;
import io.threadlab.experiment.start.RunningJvm;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * The closed model: the load at the window's users keeps running from the settle into the window (the same users on
 * the same connections), and the window is what k6's counters say happened between its two edges, read once a second
 * in between. During the interval the variant is asked nothing.
 */
final class ClosedWindow {

    /**
     * The least time between two readings of a window's seconds: behind a busy k6 one reading can take seconds to come
     * back, and a reading taken right after it would divide a burst of counts by a few milliseconds.
     */
    private static final long LEAST_NANOS = 500_000_000L;

    private final Loads loads;
    private final Settle settle;
    private final EdgeReader edges;
    private final Console console;
    private final Consumer<RunningJvm> requireAlive;

    ClosedWindow(Loads loads, Settle settle, EdgeReader edges, Console console, Consumer<RunningJvm> requireAlive) {
        this.loads = loads;
        this.settle = settle;
        this.edges = edges;
        this.console = console;
        this.requireAlive = requireAlive;
    }

    Measured measure(RunningJvm jvm, Window window, Window.Closed closed, double quota, int sessionSeconds) {
        int users = window.users();
        String id = window.id().format();
        // every closed window keeps k6's live latency histogram, the calibration's too, though it reads no percentile:
        // the histogram makes k6's heap grow with its users, and its collector sweeping that heap slows the service
        // beside it (heldout-14: the reactive variant at 50 ms x 1,000 users 0.082 CPU-ms a request where its
        // calibration without the histogram, at 900, said 0.055). A calibration measures what the windows it forecasts
        // will meet, at the cost of starting its load (seconds, at a thousand users) after the warm-up's, which has none
        LoadSession load = loads.session(jvm, users, window.path(), sessionSeconds, id, true);
        Settled settled = settle.until(jvm, load, users, closed.settleSeconds(), closed.settleMaxSeconds(), quota);
        Edge before = edges.read(jvm, id + "-before", load.pid(), load::read, true);
        List<Double> perSecond = new ArrayList<>();
        List<Double> cpuPerSecond = new ArrayList<>();
        LoadCounters last = before.load();
        CpuReading lastCpu = before.cpu();
        boolean delayServes = window.downstream() != Downstream.DB; // the database publishes its count late
        double lastServed = before.delayServed().count();
        for (int second = 1; second <= closed.measureSeconds(); second++) {
            long tick = before.nanos() + second * 1_000_000_000L;
            if (tick - last.nanos() < LEAST_NANOS) {
                continue; // the last reading came back late, near this second: the next one spans both
            }
            Pause.until(tick);
            requireAlive.accept(jvm);
            LoadCounters now = load.read();
            double served = delayServes ? edges.servedCount().count() : Double.NaN;
            CpuReading cpu = edges.cpu(jvm);
            WindowFigures.Second figures = WindowFigures.second(last, lastCpu, now, cpu,
                    delayServes ? (served - lastServed) / window.fanOut() : null);
            perSecond.add(figures.requestsPerSecond());
            cpuPerSecond.add(figures.cpuMsPerRequest());
            last = now;
            lastCpu = cpu;
            lastServed = served;
            if (second % 3 == 0) {
                console.status(String.format(Locale.ROOT, "%s %s: %d/%d s, %.0f req/s", jvm.jvm(),
                        window.id().scenario(), second, closed.measureSeconds(), perSecond.getLast()),
                        second % 15 == 0);
            }
        }
        Edge after = edges.read(jvm, id + "-after", load.pid(), load::read, false);
        return new Measured(before, after, LoadFigures.between(before.load(), after.load()), perSecond,
                cpuPerSecond, settled);
    }
}
