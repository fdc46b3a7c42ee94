package io.threadlab.experiment.load;

import io.threadlab.experiment.progress.Console;
import io.threadlab.experiment.collect.Manifest;
import io.threadlab.experiment.collect.ResultsWriter;
import io.threadlab.experiment.collect.RunManifest;
import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.confine.Confinement;
import io.threadlab.experiment.confine.CpuSets;
import io.threadlab.experiment.confine.CpuReading;
import io.threadlab.experiment.plan.ExperimentPlan;
import io.threadlab.experiment.plan.OpenModel;
import io.threadlab.experiment.plan.WarmUpPolicy;
import io.threadlab.experiment.plan.Window;
import io.threadlab.experiment.record.CompilerActivity;
import io.threadlab.experiment.record.DelayHeadroom;
import io.threadlab.experiment.record.ProcessStats;
import io.threadlab.experiment.record.Recorder;
import io.threadlab.experiment.record.ThreadGroupTimes;
import io.threadlab.experiment.start.RunningJvm;
import io.threadlab.experiment.process.ServiceProcess;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Measures one window. Closed model: the load at the window's level runs on (started for the window or kept from
 * the step before), settles the JVM until its compiler is quiet, then the runner takes its "before" readings (CPU,
 * k6's counters, the delay service's count, thread groups, metrics), reads k6's counters once a second, and takes its
 * "after" readings exactly a window later, the load still running. CPU per request divides the variant's CPU by the
 * calls the delay service answered over exactly that interval. During the interval the variant is asked nothing.
 */
public final class WindowRunner {

    private final Loads loads;
    private final Recorder recorder;
    private final Confinement confinement;
    private final ServiceProcess delayService;
    private final DelayControl delay;
    private final ResultsWriter results;
    private final Manifest manifest;
    private final Console console;
    private final Path dir;
    private final ExperimentPlan plan;
    private final CpuSets cpuSets;
    /** The highest closed-model throughput of each JVM at each delay, for open-model steps given as shares of it. */
    private final Map<String, Double> closedPeak = new HashMap<>();

    private static final double QUIET_SHARE = WarmUpPolicy.COMPILER_QUIET_SHARE;
    /**
     * How long k6 may go on after the open model's last step (its graceful stop is 5 s) before it is waited for, and
     * then stopped: a k6 that hangs there (seen once at 1 s × 3,235 req/s, alive 8 minutes later, the machine out of
     * memory) costs a point, not the run.
     */
    private static final int OPEN_MODEL_STRAGGLERS_SECONDS = 60;

    /** The open model's load did not end: its point is lost, the run goes on. */
    static final class OpenModelLost extends RuntimeException {
        OpenModelLost(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * k6's users for the open model, all steps together, are capped here: k6 holds about 1.8 MB per user (5.3 GB at
     * 3,000), and 18,000 users once exhausted this 24 GB machine. k6/open.js gives each step half (two overlap).
     */
    private static final int OPEN_MODEL_VUS_CEILING = 8000;

    public WindowRunner(Loads loads, Recorder recorder, Confinement confinement, ServiceProcess delayService,
                        DelayControl delay, ResultsWriter results, Manifest manifest, Console console, Path dir,
                        ExperimentPlan plan, CpuSets cpuSets) {
        this.loads = loads;
        this.recorder = recorder;
        this.confinement = confinement;
        this.delayService = delayService;
        this.delay = delay;
        this.results = results;
        this.manifest = manifest;
        this.console = console;
        this.dir = dir;
        this.plan = plan;
        this.cpuSets = cpuSets;
    }

    /**
     * The most users k6 may hold at once in an open-model window, all steps together (each step half), as the
     * manifest records it: for fixed rates, enough that only a saturated service drops iterations; for shares of the
     * closed peak (the map), the ceiling, each window taking what its top rate needs at the SLO's latency.
     */
    public static int openModelMaxUsers(ExperimentPlan plan) {
        return plan.open().shares().isEmpty() ? 2 * Math.max(1000, plan.topLevel()) : OPEN_MODEL_VUS_CEILING;
    }

    /**
     * Readings taken together at one edge of the measured interval. Requests are counted by the delay service (one
     * call per request) for CPU per request: it costs the variant nothing and works even when the variant is too busy
     * to answer its own metrics; {@code load} is k6's counters (closed model; null for the open model);
     * {@code metrics} is the variant's own Prometheus text, or empty when it did not answer in time.
     */
    private record Edge(long nanos, Instant at, CpuReading cpu, CpuReading delayCpu, CpuReading k6,
                        DelayHeadroom.Counters delayServed, ProcessStats stats, ThreadGroupTimes threads,
                        LoadCounters load, String metrics) {
        Edge withK6(CpuReading reading) {
            return new Edge(nanos, at, cpu, delayCpu, reading, delayServed, stats, threads, load, metrics);
        }
    }

    public WindowResult measure(RunningJvm jvm, Window window) {
        ServiceProcess service = jvm.service();
        Path jfr = dir.resolve("jfr/" + window.id() + ".jfr");
        if (window.detailedRecording()) {
            recorder.start(service, jfr); // before the settle: starting a recording costs CPU of its own
        }
        delay.set(window.delayMs());
        boolean separate = plan.placement().separate(window.repetition(), plan.jvmStarts());
        if (cpuSets != null) {
            cpuSets.apply(separate ? CpuSets.Mode.SEPARATE : CpuSets.Mode.SHARED);
        }
        String startedAt = Instant.now().toString();
        Measured measured;
        try {
            measured = window.load() instanceof Window.Closed closed ? closed(jvm, window, closed)
                    : open(jvm, window, (Window.OpenSteps) window.load());
        } catch (OpenModelLost e) {
            // one open-model point lost is marked (manifest warnings, the report's checks), not a run lost
            String warning = RunManifest.POINT_LOST + window.id() + ": " + e.getMessage();
            console.warn(warning);
            manifest.warn(warning);
            return null;
        } finally {
            if (window.detailedRecording()) {
                recorder.stop(service, jfr);
            }
        }
        WindowResult row = row(window, measured, startedAt, separate);
        report(window, row);
        results.add(row);
        if (window.load() instanceof Window.Closed && !window.detailedRecording()) {
            closedPeak.merge(window.jvm().id() + "@" + window.delayMs(), row.requestsPerSecond(), Math::max);
        }
        return row;
    }

    /** What one window measured: the readings at its two edges, the load's own figures, its seconds. */
    private record Measured(Edge before, Edge after, LoadFigures load, List<Double> perSecond, Settled settled) {
    }

    /**
     * The closed model: the load at this level keeps running from the settle into the window (the same users on the
     * same connections), and the window is what k6's counters say happened between its two edges.
     */
    private Measured closed(RunningJvm jvm, Window window, Window.Closed closed) {
        LoadSession load = loads.session(jvm, closed.vus(), sessionSeconds(closed), window.id());
        Settled settled = settle(jvm, load, closed.vus(), window.settleSeconds());
        if (!settled.answeredEveryUser()) {
            warn(String.format(Locale.ROOT, "%s: not every one of its %d users was answered in the %.0f s before it;"
                    + " the window may still be reaching its steady state", window.id(), closed.vus(), settled.seconds()));
        }
        Edge before = edge(jvm, window.id() + "-before", load.pid(), load::read, true);
        List<Double> perSecond = new ArrayList<>();
        LoadCounters last = before.load();
        for (int second = 1; second <= closed.measureSeconds(); second++) {
            sleepUntil(before.nanos() + second * 1_000_000_000L);
            requireAlive(jvm.service());
            LoadCounters now = load.read();
            perSecond.add(round((now.completed() - last.completed()) / ((now.nanos() - last.nanos()) / 1e9)));
            last = now;
            if (second % 3 == 0) {
                console.status(String.format(Locale.ROOT, "%s %s: %d/%d s, %.0f req/s", jvm.jvm(), window.scenario(),
                        second, closed.measureSeconds(), perSecond.getLast()), second % 15 == 0);
            }
        }
        Edge after = edge(jvm, window.id() + "-after", load.pid(), load::read, false);
        return new Measured(before, after, LoadFigures.between(before.load(), after.load()), perSecond, settled);
    }

    /** Long enough for a settle and a window and its twin; the runner drains it sooner. */
    private int sessionSeconds(Window.Closed closed) {
        return 2 * (plan.timing().settleMaxSeconds() + closed.measureSeconds()) * plan.delays().size() + 600;
    }

    /**
     * The open model's arrival-rate steps, one k6 run of their own after a settle at the highest closed level; the
     * settle's load is drained (nothing aborted) before the steps begin.
     */
    private Measured open(RunningJvm jvm, Window window, Window.OpenSteps open) {
        int settleUsers = plan.topLevel();
        LoadSession settleLoad = loads.session(jvm, settleUsers, plan.timing().settleMaxSeconds() + 600,
                window.id() + "-settle");
        Settled settled = settle(jvm, settleLoad, settleUsers, 0);
        List<Integer> rates = rates(jvm, window, open);
        int latencyMs = window.delayMs() + OpenModel.SLO_ABOVE_DELAY_MS;
        int topRate = rates.stream().mapToInt(i -> i).max().orElse(100);
        int stepNeeds = (int) Math.ceil(topRate * latencyMs / 1000.0 * 1.2); // as k6/open.js makes them
        int maxUsers = open.shares().isEmpty() ? openModelMaxUsers(plan)
                : Math.min(OPEN_MODEL_VUS_CEILING, Math.max(200, 2 * stepNeeds));
        if (topRate * latencyMs / 1000.0 > maxUsers / 2.0) {
            warn(String.format(Locale.ROOT, "%s: k6 may hold %,d users per step; a step above %,.0f req/s at %d ms"
                            + " may find k6 short of users, and its dropped arrivals are k6's as much as the service's",
                    window.id(), maxUsers / 2, maxUsers / 2 / (latencyMs / 1000.0), latencyMs));
        }
        List<Double> perSecond = new ArrayList<>();
        Edge before;
        Edge after;
        K6Summary summary;
        try (K6Run load = loads.open(jvm, rates, open.stepSeconds(), maxUsers, latencyMs, window.id())) {
            awaitFirstRequests(load, window.id());
            before = edge(jvm, window.id() + "-before", load.pid(), null, true);
            CpuReading k6Seen = before.k6();
            double lastServed = before.delayServed().count();
            long lastAt = before.nanos();
            long giveUp = System.nanoTime() + (open.seconds() + OPEN_MODEL_STRAGGLERS_SECONDS) * 1_000_000_000L;
            for (int tick = 1; load.isAlive() && System.nanoTime() < giveUp; tick++) {
                sleep(1000);
                requireAlive(jvm.service());
                k6Seen = latest(k6Seen, readK6(load.pid()));
                if (tick < open.seconds()) { // after the last step only k6's end is awaited
                    double served = DelayHeadroom.read(delayService.get("/q/metrics")).count();
                    long at = System.nanoTime();
                    perSecond.add(round((served - lastServed) / ((at - lastAt) / 1e9)));
                    lastServed = served;
                    lastAt = at;
                }
                if (tick % 3 == 0) {
                    console.status(String.format(Locale.ROOT, "%s open: %d/%d s, %.0f req/s", jvm.jvm(),
                            Math.min(tick, open.seconds()), open.seconds(), perSecond.isEmpty() ? 0
                                    : perSecond.getLast()), tick % 15 == 0);
                }
            }
            try {
                summary = load.finish(Duration.ofSeconds(OPEN_MODEL_STRAGGLERS_SECONDS));
            } catch (IOException e) {
                throw new OpenModelLost("the open model's k6 failed after its last step: " + e.getMessage(), e);
            }
            Edge end = edge(jvm, window.id() + "-after", load.pid(), null, false);
            after = end.withK6(latest(k6Seen, end.k6()));
        }
        return new Measured(before, after, LoadFigures.of(summary), perSecond, settled);
    }

    /** The open model's rates: given, or shares of the highest closed-model throughput of this JVM at this delay. */
    private List<Integer> rates(RunningJvm jvm, Window window, Window.OpenSteps open) {
        if (open.shares().isEmpty()) {
            return open.rates();
        }
        Double peak = closedPeak.get(jvm.jvm().id() + "@" + window.delayMs());
        if (peak == null || peak <= 0) {
            throw new IllegalStateException(window.id() + ": open-model steps as shares of the closed model's peak,"
                    + " but " + jvm.jvm() + " has no closed-model window at " + window.delayMs() + " ms");
        }
        return open.shares().stream().map(share -> (int) Math.max(1, Math.round(share * peak))).toList();
    }

    /**
     * How the settle phase before a window ended: after how long, whether the compiler had gone quiet, and whether
     * every user had been answered since it began (a new load, or a new delay, reaches its steady state only then).
     */
    private record Settled(double seconds, boolean quiet, boolean answeredEveryUser) {
    }

    /**
     * Load at the window's level until the compiler is quiet, for at least the plan's settle time. After an idle
     * gap, or after a recording started or stopped, HotSpot deoptimises and recompiles under the next load (measured:
     * 164 deoptimisations and ~18 % of the quota compiling in the first seconds after a minute idle; ~25 s slower after
     * a recording stopped), and a window must not measure that. Quiet: the compiler threads used at most 2 % of the
     * quota over the last two seconds, with an empty C2 queue where it is known. The open model settles at the
     * highest closed level.
     */
    private Settled settle(RunningJvm jvm, LoadSession load, int users, int leastSeconds) {
        long pid = jvm.service().pid();
        long start = System.nanoTime();
        long answeredAtStart = load.read().completed();
        boolean everyUser = false;
        List<Double> compilerMsPerSecond = new ArrayList<>();
        boolean quiet = false;
        ThreadGroupTimes last = ThreadGroupTimes.of(pid);
        long lastAt = System.nanoTime();
        double elapsed = 0;
        while (elapsed < plan.timing().settleMaxSeconds()) {
            sleep(1000);
            requireAlive(jvm.service());
            if (!load.isAlive()) {
                load.read(); // says why
            }
            ThreadGroupTimes now = ThreadGroupTimes.of(pid);
            long at = System.nanoTime();
            compilerMsPerSecond.add(Math.max(0, now.group(ThreadGroupTimes.COMPILER).cpuNanos()
                    - last.group(ThreadGroupTimes.COMPILER).cpuNanos()) / 1e6 / ((at - lastAt) / 1e9));
            last = now;
            lastAt = at;
            elapsed = (at - start) / 1e9;
            CompilerActivity compiler = jvm.compiler();
            boolean queueEmpty = compiler == null || compiler.snapshot().c2Queue() == 0;
            quiet = compilerMsPerSecond.size() >= 2 && queueEmpty && compilerMsPerSecond
                    .subList(compilerMsPerSecond.size() - 2, compilerMsPerSecond.size()).stream()
                    .mapToDouble(d -> d).average().orElseThrow() <= QUIET_SHARE * quota(jvm) * 1000;
            everyUser = load.read().completed() - answeredAtStart >= users;
            console.status(String.format(Locale.ROOT, "%s settling at %d users: compiler %.0f ms/s%s",
                    jvm.jvm(), users, compilerMsPerSecond.getLast(), everyUser ? "" : ", not every user answered yet"),
                    false);
            if (quiet && everyUser && elapsed >= leastSeconds) {
                break;
            }
        }
        return new Settled((System.nanoTime() - start) / 1e9, quiet, everyUser);
    }

    /**
     * The readings at one edge of a window. The service's own metrics can take seconds to come back when its queue
     * is deep (3,000 users behind 200 workers wait 4.6 s for them): they are scraped before the opening edge's timed
     * readings and after the closing edge's, so that the load counters, CPU times and per-second ticks that define
     * the window are read together and on time.
     */
    private Edge edge(RunningJvm jvm, String snapshot, long k6Pid, Supplier<LoadCounters> load, boolean opening) {
        String early = opening ? scrape(jvm, snapshot) : "";
        LoadCounters counters = load == null ? null : load.get();
        long nanos = counters == null ? System.nanoTime() : counters.nanos();
        Instant at = Instant.now().minusNanos(System.nanoTime() - nanos);
        CpuReading cpu = confinement.read(jvm.group(), jvm.service().pid());
        CpuReading delayCpu = confinement.read("delay", delayService.pid());
        CpuReading k6 = readK6(k6Pid);
        DelayHeadroom.Counters served = DelayHeadroom.read(delayService.get("/q/metrics"));
        ProcessStats stats = ProcessStats.of(jvm.service().pid());
        ThreadGroupTimes threads = ThreadGroupTimes.of(jvm.service().pid());
        String metrics = opening ? early : scrape(jvm, snapshot);
        return new Edge(nanos, at, cpu, delayCpu, k6, served, stats, threads, counters, metrics);
    }

    private String scrape(RunningJvm jvm, String snapshot) {
        String metrics = jvm.service().tryGet("/q/metrics", Duration.ofSeconds(20)).orElse("");
        if (!metrics.isEmpty()) {
            saveMetrics(snapshot, metrics);
        }
        return metrics;
    }

    private WindowResult row(Window window, Measured measured, String startedAt, boolean separate) {
        Edge before = measured.before();
        Edge after = measured.after();
        LoadFigures load = measured.load();
        double seconds = (after.nanos() - before.nanos()) / 1e9;
        CpuReading cpu = after.cpu().minus(before.cpu());
        double served = after.delayServed().count() - before.delayServed().count();
        double delayCpu = after.delayCpu().minus(before.delayCpu()).cpuSeconds();
        double k6Cpu = after.k6().minus(before.k6()).cpuSeconds();
        double quota = plan.knobsOf(window.jvm()).cpuQuota();
        Boolean held = confinement.limits() ? cpu.cpuSeconds() / seconds <= quota * 1.05 : null;
        Map<String, ThreadGroupTimes.Times> groups = after.threads().since(before.threads());
        ThreadGroupTimes.Times jit = groups.getOrDefault(ThreadGroupTimes.COMPILER,
                new ThreadGroupTimes.Times(0, 0, 0, 0, 0));
        double compilerCpuMs = Math.max(0, jit.cpuNanos()) / 1e6;
        return new WindowResult(window.variant().label(), window.scenario(), window.repetition(),
                window.jvm().start(), round(load.requestsPerSecond()), load.p50Ms(), load.p90Ms(), load.p99Ms(),
                load.maxMs(), load.errors(), cpu.cpuSeconds(),
                served <= 0 ? Double.NaN : cpu.cpuSeconds() * 1000.0 / served, after.stats().rssMb(),
                after.stats().threads(), k6Cpu, load.droppedIterations(), cpu.throttledPeriods(),
                load.requests(), seconds, window.detailedRecording(), cpu.periods(), cpu.cpuSeconds() / seconds,
                held, delayCpu, DelayHeadroom.meanServedMs(before.delayServed(), after.delayServed()),
                window.detailedRecording() ? "jfr/" + window.id() + ".jfr" : null, startedAt, compilerCpuMs,
                compilerCpuMs / 1000.0 / (quota * seconds), Math.max(0, jit.waitNanos()) / 1e6,
                megabytes(JvmGauges.value(after.metrics(), "jvm_gc_live_data_size_bytes")),
                megabytes(JvmGauges.heapUsed(after.metrics())), JvmGauges.value(after.metrics(),
                "jvm_threads_live_threads"), round(measured.settled().seconds()), measured.settled().quiet(),
                describe(groups), measured.perSecond(), load.steps(), load.meanMs(), load.errorCauses(),
                load.inFlight(), window.users(), window.delayMs(), quota, plan.knobsOf(window.jvm()).workerPoolMax(),
                plan.knobsOf(window.jvm()).connectionPoolSize(), before.at().toString(),
                window.jvm().label(), separate ? "separate" : "shared");
    }

    private void report(Window window, WindowResult row) {
        double seconds = row.windowSeconds();
        console.say(String.format(Locale.ROOT, "%s %s: %.0f req/s, p50 %s ms, p99 %s ms, %d errors,"
                        + " %.3f CPU-ms/req, %.2f CPU (k6 %.2f, delay %.2f, delay served %.1f ms), compiler %.1f %%",
                window.jvm(), window.id(), row.requestsPerSecond(), ms(row.p50Ms()),
                ms(row.p99Ms()), row.errors(), row.cpuMsPerRequest(), row.cpuCores(), row.k6CpuSeconds() / seconds,
                row.delayCpuSeconds() / seconds, row.delayServedMeanMs(), row.compilerShare() * 100));
        if (Boolean.FALSE.equals(row.confinementHeld())) {
            warn(String.format(Locale.ROOT, "%s: %s used %.2f CPU, above its %.2f quota", window.id(),
                    window.variant(), row.cpuCores(), row.cpuQuota()));
        }
        // apart, k6 shares one CPU with the delay service; together, every CPU with the variant as well
        double k6Room = "separate".equals(row.loadCpus()) ? 1 - row.delayCpuSeconds() / seconds
                : Runtime.getRuntime().availableProcessors() - row.cpuQuota() - row.delayCpuSeconds() / seconds;
        if (row.k6CpuSeconds() / seconds > 0.8 * k6Room) {
            warn(String.format(Locale.ROOT, "%s: k6 used %.2f CPU of the %.2f left to it; it may be the bottleneck",
                    window.id(), row.k6CpuSeconds() / seconds, k6Room));
        }
        if (row.droppedIterations() > 0) {
            manifest.warn(window.id() + ": k6 dropped " + row.droppedIterations()
                    + " iterations (the offered rate was not reached)");
        }
    }

    private static Map<String, Map<String, Number>> describe(Map<String, ThreadGroupTimes.Times> groups) {
        Map<String, Map<String, Number>> out = new LinkedHashMap<>();
        groups.forEach((name, t) -> {
            Map<String, Number> m = new LinkedHashMap<>();
            m.put("threads", t.threads());
            m.put("cpu_seconds", round(t.cpuNanos() / 1e9));
            m.put("wait_seconds", round(t.waitNanos() / 1e9));
            m.put("voluntary_switches", t.voluntarySwitches());
            m.put("involuntary_switches", t.involuntarySwitches());
            out.put(name, m);
        });
        return out;
    }

    /** k6 needs a moment to start; the open model's seconds count from its first request. */
    /**
     * Until the delay service has served the open model's first requests: k6 first makes all its users (thousands
     * take it more than 10 s on 2 cores), and the first answer comes a delay after the first request.
     */
    private void awaitFirstRequests(K6Run load, String windowId) {
        double initial = DelayHeadroom.read(delayService.get("/q/metrics")).count();
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (load.isAlive() && System.nanoTime() < deadline) {
            if (DelayHeadroom.read(delayService.get("/q/metrics")).count() > initial) {
                return;
            }
            sleep(100);
        }
        warn(windowId + ": the delay service served none of the open model's requests in its first 120 s");
    }

    private void warn(String warning) {
        console.warn(warning);
        manifest.warn(warning);
    }

    private CpuReading readK6(long pid) {
        try {
            return confinement.read("k6", pid);
        } catch (RuntimeException e) {
            return CpuReading.NONE; // group not made yet (first window) or process gone (unconfined)
        }
    }

    /** Unconfined k6 is read from /proc while it runs; keep the largest reading seen, the last one before exit. */
    private static CpuReading latest(CpuReading a, CpuReading b) {
        return b.usageNanos() >= a.usageNanos() ? b : a;
    }

    private void saveMetrics(String name, String metrics) {
        try {
            Files.writeString(dir.resolve("metrics/" + name + ".prom"), metrics);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void requireAlive(ServiceProcess service) {
        if (!service.isAlive()) {
            throw new IllegalStateException(service.name() + " died during the run. Last lines of "
                    + service.logLocation() + ":\n" + service.logTail(30));
        }
        if (!delayService.isAlive()) {
            throw new IllegalStateException("the delay service died during the run. Last lines of "
                    + delayService.logLocation() + ":\n" + delayService.logTail(30));
        }
    }

    private static Double megabytes(Double bytes) {
        return bytes == null ? null : round(bytes / (1024 * 1024));
    }

    private double quota(RunningJvm jvm) {
        return plan.knobsOf(jvm.jvm()).cpuQuota();
    }

    private static double round(double v) {
        return Math.round(v * 1000) / 1000.0;
    }

    private static String ms(Double d) {
        return d == null ? "-" : String.format(Locale.ROOT, "%.1f", d);
    }

    private static void sleepUntil(long nanos) {
        long ms = (nanos - System.nanoTime()) / 1_000_000;
        if (ms > 0) {
            sleep(ms);
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted");
        }
    }
}
