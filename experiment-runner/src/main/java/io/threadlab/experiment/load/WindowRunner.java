package io.threadlab.experiment.load;

import io.threadlab.experiment.Console;
import io.threadlab.experiment.collect.Manifest;
import io.threadlab.experiment.collect.ResultsWriter;
import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.confine.Confinement;
import io.threadlab.experiment.confine.CpuReading;
import io.threadlab.experiment.plan.Window;
import io.threadlab.experiment.record.CompilerActivity;
import io.threadlab.experiment.record.DelayHeadroom;
import io.threadlab.experiment.record.ProcessStats;
import io.threadlab.experiment.record.Recorder;
import io.threadlab.experiment.record.ThreadGroupTimes;
import io.threadlab.experiment.start.RunningJvm;
import io.threadlab.experiment.start.ServiceProcess;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Measures one window: k6 runs the settle phase, then the runner takes its "before" readings (CPU, the variant's
 * request counter, the delay service's, thread groups, metrics), k6 measures, and the "after" readings come when k6
 * has finished. CPU per request divides the variant's CPU by the requests its own counter answered over exactly that
 * interval. During the interval only the delay service is asked anything, once a second, so the per-second trace
 * costs the variant nothing.
 */
public final class WindowRunner {

    private final Loads loads;
    private final Recorder recorder;
    private final Confinement confinement;
    private final ServiceProcess delayService;
    private final ResultsWriter results;
    private final Manifest manifest;
    private final Console console;
    private final Path dir;
    private final double quota;
    private final int openModelMaxUsers;
    private final int settleUsers;
    private final int settleMaxSeconds;

    /** The measured k6 run's own first second, not counted: its users open their connections. */
    private static final int CONNECT_SECONDS = 1;
    private static final double QUIET_SHARE = 0.02;

    public WindowRunner(Loads loads, Recorder recorder, Confinement confinement, ServiceProcess delayService,
                        ResultsWriter results, Manifest manifest, Console console, Path dir, double quota,
                        int openModelMaxUsers, int settleUsers, int settleMaxSeconds) {
        this.loads = loads;
        this.recorder = recorder;
        this.confinement = confinement;
        this.delayService = delayService;
        this.results = results;
        this.manifest = manifest;
        this.console = console;
        this.dir = dir;
        this.quota = quota;
        this.openModelMaxUsers = openModelMaxUsers;
        this.settleUsers = settleUsers;
        this.settleMaxSeconds = settleMaxSeconds;
    }

    /**
     * Readings taken together at one edge of the measured interval. Requests are counted by the delay service (one
     * call per request), which costs the variant nothing and works even when the variant is too busy to answer its
     * own metrics; {@code metrics} is the variant's own Prometheus text, or empty when it did not answer in time.
     */
    private record Edge(long nanos, CpuReading cpu, CpuReading delayCpu, CpuReading k6,
                        DelayHeadroom.Counters delayServed, ProcessStats stats, ThreadGroupTimes threads,
                        String metrics) {
    }

    public WindowResult measure(RunningJvm jvm, Window window) {
        ServiceProcess service = jvm.service();
        String id = window.id();
        Path jfr = dir.resolve("jfr/" + id + ".jfr");
        if (window.detailedRecording()) {
            recorder.start(service, jfr); // before the load: starting a recording costs CPU of its own
        }
        String startedAt = Instant.now().toString();
        Settled settled = settle(jvm, window);
        K6Summary summary;
        Edge before;
        Edge after;
        List<Double> perSecond = new ArrayList<>();
        int connectSeconds = window.load() instanceof Window.Closed ? CONNECT_SECONDS : 0;
        try (K6Run load = window.load() instanceof Window.OpenSteps open
                ? loads.open(jvm, open.rates(), open.stepSeconds(), openModelMaxUsers, id)
                : loads.closed(jvm, ((Window.Closed) window.load()).vus(), connectSeconds,
                ((Window.Closed) window.load()).measureSeconds(), id)) {
            awaitFirstRequests(load);
            sleep(connectSeconds * 1000L);
            before = edge(jvm, id + "-before", load.pid(), CpuReading.NONE);
            CpuReading k6Seen = before.k6();
            double lastServed = before.delayServed().count();
            long lastAt = before.nanos();
            int measured = window.load() instanceof Window.Closed closed ? closed.measureSeconds()
                    : window.load().seconds();
            for (int tick = 1; load.isAlive(); tick++) {
                sleep(1000);
                requireAlive(service);
                k6Seen = latest(k6Seen, readK6(load.pid()));
                double served = DelayHeadroom.read(delayService.get("/q/metrics")).count();
                long at = System.nanoTime();
                if (tick < measured) { // whole seconds inside the measured interval only
                    perSecond.add(round((served - lastServed) / ((at - lastAt) / 1e9)));
                }
                if (tick % 3 == 0) {
                    console.status(String.format(Locale.ROOT, "%s %s: %d/%d s, %.0f req/s", jvm.jvm(),
                            window.scenario(), Math.min(tick, measured), measured, perSecond.isEmpty() ? 0
                                    : perSecond.getLast()), tick % 15 == 0);
                }
                lastServed = served;
                lastAt = at;
            }
            summary = load.finish(Duration.ofSeconds(window.load().seconds() + 120L));
            after = edge(jvm, id + "-after", load.pid(), k6Seen);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            if (window.detailedRecording()) {
                recorder.stop(service, jfr);
            }
        }
        WindowResult row = row(window, summary, before, after, startedAt, perSecond, settled);
        report(window, row);
        results.add(row);
        return row;
    }

    /** How the settle phase before a window ended: after how long, and whether the compiler had gone quiet. */
    private record Settled(double seconds, boolean quiet) {
    }

    /**
     * Load at the window's level until the compiler is quiet, for at least the plan's settle time. After an idle
     * gap, or after a recording started or stopped, HotSpot deoptimises and recompiles under the next load (measured:
     * 164 deoptimisations and ~18 % of the quota compiling in the first seconds after a minute idle; ~25 s slower after
     * a recording stopped), and a window must not measure that. Quiet: the compiler threads used at most 2 % of the
     * quota over the last two seconds, with an empty C2 queue where it is known. The open model settles at the
     * highest closed level.
     */
    private Settled settle(RunningJvm jvm, Window window) {
        int users = window.load() instanceof Window.Closed closed ? closed.vus() : settleUsers;
        long pid = jvm.service().pid();
        long start = System.nanoTime();
        List<Double> compilerMsPerSecond = new ArrayList<>();
        boolean quiet = false;
        try (K6Run load = loads.closed(jvm, users, 0, settleMaxSeconds + 30, window.id() + "-settle")) {
            awaitFirstRequests(load);
            ThreadGroupTimes last = ThreadGroupTimes.of(pid);
            long lastAt = System.nanoTime();
            double elapsed = 0;
            while (elapsed < settleMaxSeconds) {
                sleep(1000);
                requireAlive(jvm.service());
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
                        .mapToDouble(d -> d).average().orElseThrow() <= QUIET_SHARE * quota * 1000;
                console.status(String.format(Locale.ROOT, "%s settling at %d users: compiler %.0f ms/s",
                        jvm.jvm(), users, compilerMsPerSecond.getLast()), false);
                if (quiet && elapsed >= window.settleSeconds()) {
                    break;
                }
            }
            load.stopEarly();
        }
        return new Settled((System.nanoTime() - start) / 1e9, quiet);
    }

    private Edge edge(RunningJvm jvm, String snapshot, long k6Pid, CpuReading k6Seen) {
        Edge edge = new Edge(System.nanoTime(), confinement.read(jvm.group(), jvm.service().pid()),
                confinement.read("delay", delayService.pid()), latest(k6Seen, readK6(k6Pid)),
                DelayHeadroom.read(delayService.get("/q/metrics")), ProcessStats.of(jvm.service().pid()),
                ThreadGroupTimes.of(jvm.service().pid()), "");
        String metrics = jvm.service().tryGet("/q/metrics", Duration.ofSeconds(20)).orElse("");
        if (!metrics.isEmpty()) {
            saveMetrics(snapshot, metrics);
        }
        return new Edge(edge.nanos(), edge.cpu(), edge.delayCpu(), edge.k6(), edge.delayServed(), edge.stats(),
                edge.threads(), metrics);
    }

    private WindowResult row(Window window, K6Summary summary, Edge before, Edge after, String startedAt,
                             List<Double> perSecond, Settled settled) {
        double seconds = (after.nanos() - before.nanos()) / 1e9;
        CpuReading cpu = after.cpu().minus(before.cpu());
        double served = after.delayServed().count() - before.delayServed().count();
        double delayCpu = after.delayCpu().minus(before.delayCpu()).cpuSeconds();
        double k6Cpu = after.k6().minus(before.k6()).cpuSeconds();
        Boolean held = confinement.limits() ? cpu.cpuSeconds() / seconds <= quota * 1.05 : null;
        Map<String, ThreadGroupTimes.Times> groups = after.threads().since(before.threads());
        ThreadGroupTimes.Times jit = groups.getOrDefault(ThreadGroupTimes.COMPILER,
                new ThreadGroupTimes.Times(0, 0, 0, 0, 0));
        double compilerCpuMs = Math.max(0, jit.cpuNanos()) / 1e6;
        return new WindowResult(window.variant().label(), window.scenario(), window.repetition(),
                window.jvm().start(), orZero(summary.requestsPerSecond()), summary.p50Ms(), summary.p90Ms(),
                summary.p99Ms(), summary.maxMs(), summary.errors(), cpu.cpuSeconds(),
                served <= 0 ? Double.NaN : cpu.cpuSeconds() * 1000.0 / served, after.stats().rssMb(),
                after.stats().threads(), k6Cpu, summary.droppedIterations(), cpu.throttledPeriods(),
                summary.requests(), seconds, window.detailedRecording(), cpu.periods(), cpu.cpuSeconds() / seconds,
                held, delayCpu, DelayHeadroom.meanServedMs(before.delayServed(), after.delayServed()),
                window.detailedRecording() ? "jfr/" + window.id() + ".jfr" : null, startedAt, compilerCpuMs,
                compilerCpuMs / 1000.0 / (quota * seconds), Math.max(0, jit.waitNanos()) / 1e6,
                megabytes(JvmGauges.value(after.metrics(), "jvm_gc_live_data_size_bytes")),
                megabytes(JvmGauges.heapUsed(after.metrics())), JvmGauges.value(after.metrics(),
                "jvm_threads_live_threads"), round(settled.seconds()), settled.quiet(), describe(groups), perSecond,
                summary.steps());
    }

    private void report(Window window, WindowResult row) {
        double seconds = row.windowSeconds();
        console.say(String.format(Locale.ROOT, "%s %s rep %d: %.0f req/s, p50 %s ms, p99 %s ms, %d errors,"
                        + " %.3f CPU-ms/req, %.2f CPU (k6 %.2f, delay %.2f, delay served %.1f ms), compiler %.1f %%",
                window.jvm(), row.scenario(), row.repetition(), row.requestsPerSecond(), ms(row.p50Ms()),
                ms(row.p99Ms()), row.errors(), row.cpuMsPerRequest(), row.cpuCores(), row.k6CpuSeconds() / seconds,
                row.delayCpuSeconds() / seconds, row.delayServedMeanMs(), row.compilerShare() * 100));
        if (Boolean.FALSE.equals(row.confinementHeld())) {
            warn(String.format(Locale.ROOT, "%s: %s used %.2f CPU, above its %.2f quota", window.id(),
                    window.variant(), row.cpuCores(), quota));
        }
        double k6Room = Runtime.getRuntime().availableProcessors() - quota - row.delayCpuSeconds() / seconds;
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

    /** k6 needs a moment to start; the settle phase counts from its first request. */
    private void awaitFirstRequests(K6Run load) {
        double initial = DelayHeadroom.read(delayService.get("/q/metrics")).count();
        for (int i = 0; i < 100 && load.isAlive(); i++) {
            if (DelayHeadroom.read(delayService.get("/q/metrics")).count() > initial) {
                return;
            }
            sleep(100);
        }
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

    private static double round(double v) {
        return Math.round(v * 1000) / 1000.0;
    }

    private static double orZero(Double d) {
        return d == null ? 0 : d;
    }

    private static String ms(Double d) {
        return d == null ? "-" : String.format(Locale.ROOT, "%.1f", d);
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
