package io.threadlab.experiment.load;

import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.plan.Burst;
import io.threadlab.experiment.plan.Window;
import io.threadlab.experiment.predict.BurstForecast;
import io.threadlab.experiment.process.ServiceProcess;
import io.threadlab.experiment.progress.Console;
import io.threadlab.experiment.record.DelayHeadroom;
import io.threadlab.experiment.start.RunningJvm;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * A burst, one k6 run of its own (k6/burst.js) against a JVM with nothing else in flight: k6 starts, its senders open
 * their connections, and at the common start every request is fired at once. Meanwhile the delay service is sampled
 * every {@link Burst#SAMPLE_MILLIS} (its count of answered calls and the calls it holds: the concurrency the variant's
 * model reached, at no cost to the variant, whose own metrics wait behind its queue), and k6's peak memory is read
 * where k6 runs here. Its opening edge is read just before the common start, its closing one after k6 has ended.
 */
final class BurstWindow {

    /** The burst's requests did not all end: its point is lost, the run goes on. */
    static final class Lost extends RuntimeException {
        Lost(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** What a burst measured: the window's figures, and the burst's own. */
    record Result(Measured measured, WindowResult.BurstFigures burst) {
    }

    /** The opening edge is read this long before the common start: its scrapes take a few tens of ms. */
    private static final long EDGE_BEFORE_START_MILLIS = 300;

    private final Loads loads;
    private final EdgeReader edges;
    private final ServiceProcess delayService;
    private final Console console;
    private final Consumer<RunningJvm> requireAlive;

    BurstWindow(Loads loads, EdgeReader edges, ServiceProcess delayService, Console console,
                Consumer<RunningJvm> requireAlive) {
        this.loads = loads;
        this.edges = edges;
        this.delayService = delayService;
        this.console = console;
        this.requireAlive = requireAlive;
    }

    /**
     * @param slots the workers or connections the forecast's binding ceiling counts (null: none)
     * @param quota the variant's CPU quota
     */
    Result measure(RunningJvm jvm, Window window, Burst burst, BurstForecast forecast, Integer slots, double quota) {
        String id = window.id().format();
        long startAt = System.currentTimeMillis() + burst.leadMillis();
        try (K6Run k6 = loads.burst(jvm, window.path(), burst, startAt, id)) {
            while (k6.isAlive() && System.currentTimeMillis() < startAt - EDGE_BEFORE_START_MILLIS) {
                Pause.millis(50);
            }
            if (!k6.isAlive()) {
                throw new Lost("k6 ended before the burst's start (exit " + k6.exitValue() + "); see " + k6.log(),
                        null);
            }
            Edge before = edges.read(jvm, id + "-before", k6.pid(), null, true);
            DelayHeadroom.Counters first = edges.servedCount();
            List<List<Double>> samples = new ArrayList<>();
            double peakHeld = 0;
            double peakRssMb = 0;
            boolean rssRead = loads.host() instanceof LocalK6;
            long giveUp = startAt + burst.ceilingSeconds() * 1000L;
            for (int tick = 1; k6.isAlive() && System.currentTimeMillis() < giveUp; tick++) {
                long at = System.currentTimeMillis();
                String text = delayService.tryGet("/q/metrics", Duration.ofMillis(Burst.SAMPLE_MILLIS * 10))
                        .orElse("");
                if (!text.isEmpty() && at >= startAt) {
                    double held = heldCalls(text);
                    peakHeld = Math.max(peakHeld, held);
                    samples.add(List.of((double) (at - startAt), DelayHeadroom.read(text, 0).count() - first.count(),
                            held));
                }
                if (rssRead) {
                    peakRssMb = Math.max(peakRssMb, peakRssMb(k6.pid()));
                }
                requireAlive.accept(jvm);
                if (tick % 50 == 0 && !samples.isEmpty()) { // every 5 s
                    console.status(String.format(Locale.ROOT, "%s burst: %.0f s, %.0f of %,d calls answered",
                            jvm.jvm(), (at - startAt) / 1000.0, samples.getLast().get(1), burst.requests()), false);
                }
                Pause.millis(Math.max(1, Burst.SAMPLE_MILLIS - (System.currentTimeMillis() - at)));
            }
            K6Summary summary;
            try {
                summary = k6.finish(Duration.ofSeconds(30));
            } catch (IOException e) {
                throw new Lost("the burst's k6 did not end: " + e.getMessage(), e);
            }
            Edge after = edges.read(jvm, id + "-after", k6.pid(), null, false);
            K6Summary.Burst b = summary.burst();
            if (b == null) {
                throw new Lost("k6/burst.js wrote no burst figures; see " + k6.log(), null);
            }
            // over the window between the edges: from just before the common start to k6's end, which holds the
            // burst; over the burst's own time alone, the CPU k6 and the variant spent before and after it would
            // count as the burst's (137 % of a quota, once)
            double seconds = (after.nanos() - before.nanos()) / 1e9;
            Double cpuShare = seconds > 0 ? after.cpu().minus(before.cpu()).cpuSeconds() / seconds / quota : null;
            Double k6Cores = seconds > 0 ? after.k6().minus(before.k6()).cpuSeconds() / seconds : null;
            WindowResult.BurstFigures figures = new WindowResult.BurstFigures((int) b.senders(),
                    // no sample read: the calls held are unknown, not none
                    b.timeToLastAnswerMs(), b.maxFireLagMs(), b.lateSenders(), b.preopenFailed(),
                    samples.isEmpty() ? null : peakHeld, slots,
                    cpuShare, k6Cores, rssRead && peakRssMb > 0 ? peakRssMb : null, forecast.predictedMs(),
                    forecast.binding(), forecast.ceilingsMs(), samples);
            return new Result(new Measured(before, after, LoadFigures.of(summary), List.of(), List.of(),
                    new Settled(0, true, true)), figures);
        }
    }

    /** The calls the delay service holds now: its HTTP server's requests in progress, less this scrape. */
    static double heldCalls(String prometheusText) {
        return Math.max(0, prometheusText.lines().filter(l -> l.startsWith("http_server_active_requests"))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum() - 1);
    }

    /** k6's peak resident memory so far (VmHWM), in MB; 0 once it has ended. */
    static double peakRssMb(long pid) {
        try {
            return Files.readAllLines(Path.of("/proc/" + pid + "/status")).stream()
                    .filter(l -> l.startsWith("VmHWM:")).findFirst()
                    .map(l -> Double.parseDouble(l.replaceAll("[^0-9]", "")) / 1024).orElse(0.0);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }
}
