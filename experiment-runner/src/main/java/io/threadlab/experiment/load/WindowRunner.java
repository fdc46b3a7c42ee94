package io.threadlab.experiment.load;

import io.threadlab.experiment.collect.Manifest;
import io.threadlab.experiment.collect.ResultsWriter;
import io.threadlab.experiment.collect.RunManifest;
import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.confine.Confinement;
import io.threadlab.experiment.confine.CpuSets;
import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.Burst;
import io.threadlab.experiment.plan.Calibration;
import io.threadlab.experiment.plan.ExperimentPlan;
import io.threadlab.experiment.plan.Headroom;
import io.threadlab.experiment.plan.Knobs;
import io.threadlab.experiment.plan.Point;
import io.threadlab.experiment.plan.WarmUpPolicy;
import io.threadlab.experiment.plan.Window;
import io.threadlab.experiment.predict.BurstForecast;
import io.threadlab.experiment.predict.Forecast;
import io.threadlab.experiment.predict.Predictions;
import io.threadlab.experiment.predict.RecentMachine;
import io.threadlab.experiment.process.ServiceProcess;
import io.threadlab.experiment.progress.Console;
import io.threadlab.experiment.record.Recorder;
import io.threadlab.experiment.record.Yardstick;
import io.threadlab.experiment.start.LabDatabase;
import io.threadlab.experiment.start.RunningJvm;

import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Measures one window: tells the delay service the wait, predicts the window from its JVM's calibration (before
 * anything is measured), starts its recording if it is a recorded twin, measures it (closed or open model), and
 * writes its row, warning where the variant broke its quota or the load generator ran short of room.
 */
public final class WindowRunner {

    private final Loads loads;
    private final Recorder recorder;
    private final Confinement confinement;
    private final ServiceProcess delayService;
    private final WaitControl waits;
    private final ResultsWriter results;
    private final Manifest manifest;
    private final Console console;
    private final Path dir;
    private final ExperimentPlan plan;
    private final CpuSets cpuSets;
    private final Predictions predictions;
    /** The lab's PostgreSQL, in a run that has it; else null. */
    private final LabDatabase database;
    /** Whether k6 has this machine to itself, the services on another engine: its headroom is all of it. */
    private final boolean loadAlone;
    private final ClosedWindow closed;
    private final OpenWindow open;
    private final BurstWindow burst;
    /** The highest closed-model throughput of each JVM at each delay, for open-model steps given as shares of it. */
    private final Map<String, Double> closedPeak = new HashMap<>();
    /** The fewest CPU-µs the machine's yardstick took in a window so far: the machine at its fastest in this run. */
    private double fastestYardstick = Double.POSITIVE_INFINITY;
    /** The machine's speed in the windows measured last: the speed a forecast is made for. */
    private final RecentMachine machineBefore = new RecentMachine();

    public WindowRunner(Loads loads, Recorder recorder, Confinement confinement, ServiceProcess delayService,
                        WaitControl waits, ResultsWriter results, Manifest manifest, Console console, Path dir,
                        ExperimentPlan plan, CpuSets cpuSets, Predictions predictions, LabDatabase database,
                        boolean loadAlone, Yardstick yardstick) {
        this.loads = loads;
        this.recorder = recorder;
        this.confinement = confinement;
        this.delayService = delayService;
        this.waits = waits;
        this.results = results;
        this.manifest = manifest;
        this.console = console;
        this.dir = dir;
        this.plan = plan;
        this.cpuSets = cpuSets;
        this.predictions = predictions;
        this.database = database;
        this.loadAlone = loadAlone;
        EdgeReader edges = new EdgeReader(confinement, delayService, dir.resolve("metrics"), database,
                loads::cpu, yardstick);
        Settle settle = new Settle(console, this::requireAlive);
        this.closed = new ClosedWindow(loads, settle, edges, console, this::requireAlive);
        this.open = new OpenWindow(loads, settle, edges, console, this::requireAlive, this::warn);
        this.burst = new BurstWindow(loads, edges, delayService, console, this::requireAlive);
    }

    /**
     * The most users k6 may hold at once in an open-model window, all steps together (each step half), as the
     * manifest records it: for fixed rates, enough that only a saturated service drops iterations; for shares of the
     * closed peak (the map), the ceiling, each window taking what its top rate needs at the SLO's latency.
     */
    public static int openModelMaxUsers(ExperimentPlan plan) {
        return plan.open().shares().isEmpty() ? 2 * Math.max(1000, plan.topLevel()) : OpenWindow.VUS_CEILING;
    }

    /** The window's row, or empty when the window was lost (an open model whose k6 did not end). */
    public Optional<WindowResult> measure(RunningJvm jvm, Window window) {
        Knobs knobs = plan.knobsOf(window.jvm());
        if (window.load() instanceof Burst b) {
            return measureBurst(jvm, window, b, knobs);
        }
        // a point of the closed model, as it is: not a calibration, not the recording's twin, not the open model
        Optional<Forecast> forecast = window.calibration() || window.recorded() || window.users() == null
                ? Optional.empty()
                : predictions.before(window.jvm(), knobs.asPoint().and(window.at()), machineBefore.speed());
        Instant predictedAt = Instant.now();
        forecast.ifPresent(f -> {
            console.say(String.format(Locale.ROOT, "%s %s: predicted %s", window.jvm(), window.id(), f.describe()));
            // said before measuring: a point the load generator will bind or crowd is not the service's (a warning);
            // one it may crowd, within the error of k6's forecast, is said: a default run's forecasts say so of half
            // their points, and k6 crowds few of them
            f.notes().stream().filter(n -> n.startsWith("k6 ") && n.contains(": ")).findFirst()
                    .ifPresent(n -> {
                        if (n.contains(" may crowd ")) {
                            console.say(window.id() + ": " + n);
                        } else {
                            console.warn(window.id() + ": " + n);
                        }
                    });
        });
        Path jfr = dir.resolve("jfr/" + window.id() + ".jfr");
        if (window.recorded()) {
            recorder.start(jvm.service(), jfr); // before the settle: starting a recording costs CPU of its own
        }
        boolean changed = waits.set(window.downstream(), window.delayMs()) | window.recorded();
        boolean separate = plan.placement().separate(window.number(), plan.jvmStarts());
        if (cpuSets != null) {
            changed |= cpuSets.apply(separate ? CpuSets.Mode.SEPARATE : CpuSets.Mode.SHARED);
        }
        if (changed) {
            loads.changed();
        }
        Measured measured;
        WindowResult row;
        for (int attempt = 1; ; attempt++) {
            String startedAt = Instant.now().toString();
            try {
                measured = window.load() instanceof Window.Closed c ? closed.measure(jvm, window, c,
                        knobs.cpuQuota(), sessionSeconds(c)) : openModel(jvm, window, (Window.OpenSteps) window.load(),
                        knobs.cpuQuota());
            } catch (OpenWindow.Lost e) {
                // one open-model point lost is marked (manifest warnings, the report's checks), not a run lost
                warn(RunManifest.POINT_LOST + window.id() + ": " + e.getMessage());
                return Optional.empty();
            } finally {
                if (window.recorded()) {
                    recorder.stop(jvm.service(), jfr);
                }
            }
            row = WindowFigures.of(new WindowFigures.Context(window, knobs, confinement.limits(), startedAt,
                    separate, plan.database()), measured.before(), measured.after(), measured.load(),
                    measured.perSecond(), measured.cpuPerSecond(), measured.settled());
            double compiler = row.compiler().compilerShare();
            double waiting = row.compiler().compilerWaitMs() / 1000 / row.load().windowSeconds();
            double slowest = Calibration.slowestSecondShare(row.load().perSecond());
            if (!window.calibration() || !plan.calibration().measureAgain(attempt, compiler, waiting, slowest)) {
                break;
            }
            warn(slowest < Calibration.STALLED_SECOND_SHARE
                    ? String.format(Locale.ROOT, "%s: its slowest second served %.0f %% of its fastest (%s req/s; %.3f"
                            + " CPU-ms a request at %.0f req/s), below a steady one's %.0f %%; a calibration is taken"
                            + " on a steady window, so it is measured again (try %d of %d)", window.id(), slowest * 100,
                    row.load().perSecond().stream().map(r -> String.format(Locale.ROOT, "%.0f", r)).toList(),
                    row.cpu().cpuMsPerRequest(), row.load().requestsPerSecond(),
                    Calibration.STALLED_SECOND_SHARE * 100, attempt + 1, plan.calibration().tries())
                    : String.format(Locale.ROOT, "%s: its compiler used %.1f %% of the quota and waited to run %.1f %%"
                            + " of the window (%.3f CPU-ms a request at %.0f req/s), above a finished one's %.0f %% and"
                            + " %.0f %%; a calibration is taken on a finished compiler, so it is measured again (try %d"
                            + " of %d)", window.id(), compiler * 100, waiting * 100, row.cpu().cpuMsPerRequest(),
                    row.load().requestsPerSecond(), WarmUpPolicy.COMPILER_QUIET_SHARE * 100,
                    Calibration.COMPILER_WAITING_SHARE * 100, attempt + 1, plan.calibration().tries()));
        }
        if (forecast.isPresent()) {
            row = row.predicted(forecast.get().asRecorded(predictedAt));
        }
        if (!measured.settled().answeredEveryUser() && window.users() != null) {
            warn(String.format(Locale.ROOT, "%s: not every one of its %d users was answered in the %.0f s before it;"
                    + " the window may still be reaching its steady state", window.id(), window.users(),
                    measured.settled().seconds()));
        }
        report(window, row);
        results.add(row);
        if (window.calibration()) {
            predictions.calibrated(window.jvm(), row);
        } else if (window.users() != null && !window.recorded()) {
            closedPeak.merge(window.jvm().id() + "@" + window.delayMs(), row.load().requestsPerSecond(), Math::max);
        }
        return Optional.of(row);
    }

    /**
     * A burst: predicted before it fires (the capacity model at as many users as it has requests, where the JVM was
     * calibrated; else the pools' ceilings alone), fired, and written as its row with what it measured.
     */
    private Optional<WindowResult> measureBurst(RunningJvm jvm, Window window, Burst load, Knobs knobs) {
        Point closedAt = knobs.asPoint().and(window.at().without(Axis.REQUESTS)).with(Axis.USERS, load.requests());
        BurstForecast forecast = BurstForecast.of(predictions.before(window.jvm(), closedAt, machineBefore.speed()),
                load.requests(),
                window.delayMs(), window.variant().threads(), knobs.workerPoolMax(), knobs.connectionPoolSize());
        console.say(String.format(Locale.ROOT, "%s %s: predicted %s", window.jvm(), window.id(),
                forecast.describe()));
        Path jfr = dir.resolve("jfr/" + window.id() + ".jfr");
        if (window.recorded()) {
            recorder.start(jvm.service(), jfr);
        }
        if (waits.set(window.downstream(), window.delayMs()) | window.recorded()) {
            loads.changed();
        }
        boolean separate = plan.placement().separate(window.number(), plan.jvmStarts());
        if (cpuSets != null && cpuSets.apply(separate ? CpuSets.Mode.SEPARATE : CpuSets.Mode.SHARED)) {
            loads.changed();
        }
        String startedAt = Instant.now().toString();
        BurstWindow.Result measured;
        try {
            measured = burst.measure(jvm, window, load, forecast, forecast.slots(knobs.workerPoolMax(),
                    knobs.connectionPoolSize()), knobs.cpuQuota());
        } catch (BurstWindow.Lost e) {
            warn(RunManifest.POINT_LOST + window.id() + ": " + e.getMessage());
            return Optional.empty();
        } finally {
            if (window.recorded()) {
                recorder.stop(jvm.service(), jfr);
            }
        }
        Measured m = measured.measured();
        WindowResult row = WindowFigures.of(new WindowFigures.Context(window, knobs, confinement.limits(), startedAt,
                separate, plan.database()), m.before(), m.after(), m.load(), m.perSecond(), m.cpuPerSecond(),
                m.settled()).withBurst(measured.burst());
        WindowResult.BurstFigures b = row.burst();
        console.say(String.format(Locale.ROOT, "%s %s: last answer after %s ms%s, %d errors%s, at most %.0f calls at"
                        + " the delay service, %.0f %% of its CPU quota (k6 %.2f CPU)%s", window.jvm(), window.id(),
                b.timeToLastAnswerMs() == null ? "-" : String.format(Locale.ROOT, "%,.0f", b.timeToLastAnswerMs()),
                b.gap() == null ? "" : String.format(Locale.ROOT, " (predicted %,.0f, %+.0f %%)", b.predictedMs(),
                        b.gap() * 100), row.load().errors(), row.load().errorCauses().isEmpty() ? ""
                        : " " + row.load().errorCauses(), b.peakDownstreamInFlight(),
                b.cpuShareOfQuota() == null ? Double.NaN : b.cpuShareOfQuota() * 100,
                b.k6Cores() == null ? Double.NaN : b.k6Cores(),
                b.k6PeakRssMb() == null ? "" : String.format(Locale.ROOT, ", k6 peak %,.0f MB", b.k6PeakRssMb())));
        if (b.lateSenders() > 0) {
            warn(String.format(Locale.ROOT, "%s: %d of k6's %d senders fired more than 50 ms after the common start"
                    + " (at most %.0f ms): the burst was not all at once", window.id(), b.lateSenders(), b.senders(),
                    b.maxFireLagMs()));
        }
        if (b.preopenFailed() > 0) {
            warn(String.format(Locale.ROOT, "%s: %d of its connections could not be opened before the burst; those"
                    + " requests opened theirs in it", window.id(), b.preopenFailed()));
        }
        results.add(row);
        return Optional.of(row);
    }

    /**
     * Long enough for a settle and a window and its twin at every delay, and an open model's steps after each while it
     * is parked (in case k6 counts paused time); the runner drains it sooner.
     */
    private int sessionSeconds(Window.Closed closedLoad) {
        int openModel = plan.open().any() ? plan.open().steps(0).ceilingSeconds() : 0;
        return (2 * closedLoad.ceilingSeconds() + openModel) * plan.delays().size() + 600;
    }

    private Measured openModel(RunningJvm jvm, Window window, Window.OpenSteps steps, double quota) {
        List<Integer> rates = rates(jvm, window, steps);
        int latencyMs = window.delayMs() + io.threadlab.experiment.plan.OpenModel.SLO_ABOVE_DELAY_MS;
        int topRate = rates.stream().mapToInt(i -> i).max().orElse(100);
        int stepNeeds = (int) Math.ceil(topRate * latencyMs / 1000.0 * 1.2); // as k6/open.js makes them
        int maxUsers = steps.shares().isEmpty() ? openModelMaxUsers(plan)
                : Math.min(OpenWindow.VUS_CEILING, Math.max(200, 2 * stepNeeds));
        return open.measure(jvm, window, steps, plan.topLevel(), rates, maxUsers, quota);
    }

    /** The open model's rates: given, or shares of the highest closed-model throughput of this JVM at this delay. */
    private List<Integer> rates(RunningJvm jvm, Window window, Window.OpenSteps steps) {
        if (steps.shares().isEmpty()) {
            return steps.rates();
        }
        Double peak = closedPeak.get(jvm.jvm().id() + "@" + window.delayMs());
        if (peak == null || peak <= 0) {
            throw new IllegalStateException(window.id() + ": open-model steps as shares of the closed model's peak,"
                    + " but " + jvm.jvm() + " has no closed-model window at " + window.delayMs() + " ms");
        }
        return steps.shares().stream().map(share -> (int) Math.max(1, Math.round(share * peak))).toList();
    }

    private void report(Window window, WindowResult row) {
        double seconds = row.load().windowSeconds();
        double delayCores = row.instruments().delayCpuSeconds() / seconds;
        double k6Cores = row.instruments().k6CpuSeconds() / seconds;
        console.say(String.format(Locale.ROOT, "%s %s: %.0f req/s%s, p50 %s ms, p99 %s ms, %d errors,"
                        + " %.3f CPU-ms/req%s, %.2f CPU (k6 %.2f, delay %.2f%s%s), compiler %.1f %%%s",
                window.jvm(), window.id(), row.load().requestsPerSecond(), row.prediction() == null ? ""
                        : String.format(Locale.ROOT, " (predicted %,.0f, %+.0f %%)", row.prediction().predictedRps(),
                        (row.load().requestsPerSecond() / row.prediction().predictedRps() - 1) * 100),
                ms(row.load().p50Ms()), ms(row.load().p99Ms()), row.load().errors(), row.cpu().cpuMsPerRequest(),
                row.cpu().sleepsPerRequest() == null ? "" : String.format(Locale.ROOT, " (%.2f sleeps)",
                        row.cpu().sleepsPerRequest()), row.cpu().cpuCores(), k6Cores, delayCores,
                Double.isNaN(row.instruments().delayServedMeanMs()) ? ""
                        : String.format(Locale.ROOT, ", delay served %.1f ms", row.instruments().delayServedMeanMs()),
                row.instruments().dbCpuSeconds() == null ? "" : String.format(Locale.ROOT,
                        ", database %.2f CPU, %d connections, %d busy", row.instruments().dbCpuSeconds() / seconds,
                        row.instruments().dbConnections(), row.instruments().dbActive()),
                row.compiler().compilerShare() * 100, row.gc() == null ? "" : String.format(Locale.ROOT,
                        ", GC paused %.0f %%%s", row.gc().pauseShare(seconds) * 100, promoted(row.gc(), seconds)))
                + machine(row));
        if (Boolean.FALSE.equals(row.cpu().confinementHeld())) {
            warn(String.format(Locale.ROOT, "%s: %s used %.2f CPU, above its %.2f quota", window.id(),
                    window.variant(), row.cpu().cpuCores(), plan.knobsOf(window.jvm()).cpuQuota()));
        }
        Headroom room = row.headroom(loads.host().cores(), loadAlone);
        if (!room.measured()) {
            warn(window.id() + ": " + room.describe());
        } else if (!room.enough()) {
            warn(window.id() + ": " + room.describe() + "; it may be the bottleneck");
        }
        if (Boolean.FALSE.equals(row.countsAgree())) {
            warn(window.id() + ": " + row.countsDescribed() + (row.load().errors() == 0 ? "; k6's counters lagged, and"
                    + " its throughput is the delay service's count" : "; with failures its throughput is k6's count,"
                    + " and so in doubt"));
        }
        if (row.load().droppedIterations() > 0) {
            manifest.warn(window.id() + ": k6 dropped " + row.load().droppedIterations()
                    + " iterations (the offered rate was not reached)");
        }
    }

    /**
     * The machine's own speed in the window, against its fastest in this run so far; kept as the speed the next
     * forecast is made for.
     */
    private String machine(WindowResult row) {
        Double us = row.instruments().yardstickUs();
        if (us == null) {
            return "";
        }
        fastestYardstick = Math.min(fastestYardstick, us);
        machineBefore.measured(us);
        return String.format(Locale.ROOT, ", machine %.2f× its fastest", us / fastestYardstick);
    }

    private void warn(String warning) {
        console.warn(warning);
        manifest.warn(warning);
    }

    private void requireAlive(RunningJvm jvm) {
        if (!jvm.service().isAlive()) {
            throw new IllegalStateException(jvm.service().name() + " died during the run. Last lines of "
                    + jvm.service().logLocation() + ":\n" + jvm.service().logTail(30));
        }
        if (!delayService.isAlive()) {
            throw new IllegalStateException("the delay service died during the run. Last lines of "
                    + delayService.logLocation() + ":\n" + delayService.logTail(30));
        }
        if (database != null) {
            database.requireAlive();
        }
    }

    /** ", promoted 81 MB/s" where the young collections promoted at least 1 MB a second, else nothing. */
    private static String promoted(WindowResult.Gc gc, double seconds) {
        Double rate = gc.promotedMbPerSecond(seconds);
        return rate == null || rate < 1 ? "" : String.format(Locale.ROOT, ", promoted %.0f MB/s", rate);
    }

    private static String ms(Double d) {
        return d == null ? "-" : String.format(Locale.ROOT, "%.1f", d);
    }
}
