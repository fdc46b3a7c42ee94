package io.threadlab.experiment;

import com.fasterxml.jackson.core.type.TypeReference;
import io.threadlab.experiment.collect.Json;
import io.threadlab.experiment.collect.Manifest;
import io.threadlab.experiment.collect.ResultsDirectory;
import io.threadlab.experiment.collect.ResultsWriter;
import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.confine.Confinement;
import io.threadlab.experiment.confine.ConfinementDetector;
import io.threadlab.experiment.confine.CpuReading;
import io.threadlab.experiment.load.K6;
import io.threadlab.experiment.load.K6Run;
import io.threadlab.experiment.load.K6Summary;
import io.threadlab.experiment.load.LiveCounters;
import io.threadlab.experiment.load.WarmUp;
import io.threadlab.experiment.plan.ExperimentPlan;
import io.threadlab.experiment.plan.Variant;
import io.threadlab.experiment.plan.Window;
import io.threadlab.experiment.record.DelayHeadroom;
import io.threadlab.experiment.record.Recorder;
import io.threadlab.experiment.record.ProcessStats;
import io.threadlab.experiment.start.ComposeEngine;
import io.threadlab.experiment.start.Engine;
import io.threadlab.experiment.start.LocalEngine;
import io.threadlab.experiment.start.PortCheck;
import io.threadlab.experiment.start.Processes;
import io.threadlab.experiment.start.ServiceJars;
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
import java.util.Map;
import java.util.OptionalDouble;
import java.util.stream.Collectors;

/**
 * The whole experiment, as a pipeline: confine, start the services, warm up, load each window while recording, and
 * collect everything into a new results directory. Any way out (done, error, Ctrl-C) stops every child process and
 * removes every cgroup, keeping what was measured.
 */
final class Experiment {

    static final int DELAY_PORT = 8090;
    private static final String DELAY_MODULE = "delay-service";
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);

    private final ExperimentPlan plan;
    private final Path labHome;
    private final Path outputRoot;
    private final Path javaHome;
    private final String engineName;
    private final Console console = new Console();

    private Path dir;
    private Manifest manifest;
    private ResultsWriter results;
    private Engine engine;
    private Confinement confinement;
    private K6 k6;
    private Recorder recorder;
    private ServiceProcess delayService;
    private volatile boolean interrupted;

    /** @param engineName "local" (JVMs in cgroups) or "compose" (containers) */
    Experiment(ExperimentPlan plan, Path labHome, Path outputRoot, Path javaHome, String engineName) {
        this.plan = plan;
        this.labHome = labHome;
        this.outputRoot = outputRoot;
        this.javaHome = javaHome;
        this.engineName = engineName;
    }

    /** Runs the plan; returns the results directory. Throws after cleaning up if the run failed. */
    Path run() {
        List<Variant> variants = plan.variants();
        for (Variant v : variants) {
            PortCheck.requireFree(v.port(), v.module());
        }
        PortCheck.requireFree(DELAY_PORT, DELAY_MODULE);

        dir = ResultsDirectory.create(outputRoot, Instant.now());
        manifest = new Manifest(dir);
        results = new ResultsWriter(dir);
        console.say("Results go to " + dir);

        Thread cleanup = new Thread(() -> {
            interrupted = true;
            cleanUp("interrupted", "stopped by a signal (Ctrl-C or SIGTERM)");
        });
        Runtime.getRuntime().addShutdownHook(cleanup);
        try {
            prepare(variants);
            delayService = startDelayService();
            Map<Variant, ServiceProcess> services = startVariants(variants);
            for (Variant variant : variants) {
                Map<String, Object> facts = new LinkedHashMap<>();
                facts.put("runtime", runtimeInfo(services.get(variant), variant));
                facts.put("warm_up", warmUp(services.get(variant), variant));
                manifest.variant(variant.label(), facts);
            }
            for (ExperimentPlan.Session session : plan.sessions()) {
                console.say("Repetition " + session.repetition() + "/" + plan.repetitions() + ": " + session.variant());
                for (Window window : session.windows()) {
                    measure(services.get(session.variant()), window);
                }
            }
            cleanUp("completed", null);
            console.say("Done. Results: " + dir);
            return dir;
        } catch (RuntimeException e) {
            if (interrupted) { // the signal stopped the children; what failed since is its consequence
                throw new ExperimentFailed("interrupted; what was measured is kept in " + dir, e);
            }
            cleanUp("failed", e.getMessage());
            throw new ExperimentFailed("the run failed: " + e.getMessage() + "\nWhat was measured is kept in " + dir, e);
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(cleanup);
            } catch (IllegalStateException e) {
                // already shutting down: the hook is running
            }
        }
    }

    static final class ExperimentFailed extends RuntimeException {
        ExperimentFailed(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private void prepare(List<Variant> variants) {
        engine = engineName.equals("compose") ? new ComposeEngine(labHome, plan.knobs())
                : new LocalEngine(ConfinementDetector.forThisMachine("threadlab-" + dir.getFileName()).detect(),
                javaHome, labHome.resolve("jfr/threads.jfc"));
        confinement = engine.confinement();
        recorder = engine.recorder();
        ConfinementDetector.unconfinedReason(confinement).ifPresent(reason -> {
            String warning = "NOT CONFINED: " + reason + ". The variants run on all " + Runtime.getRuntime()
                    .availableProcessors() + " CPUs, not " + plan.knobs().cpuQuota() + "; results are not comparable"
                    + " to a 0.5-CPU container.";
            console.warn(warning);
            manifest.warn(warning);
        });

        List<String> modules = new ArrayList<>(List.of(DELAY_MODULE));
        variants.forEach(v -> modules.add(v.module()));
        ServiceJars jars = new ServiceJars(labHome);
        List<String> stale = engine instanceof ComposeEngine ? List.of() : jars.stale(modules); // compose builds images
        if (!stale.isEmpty()) {
            console.say("Building " + stale + " (missing or older than their sources)...");
            jars.build(stale);
        }
        k6 = K6.locate(labHome.resolve(".tools"));

        manifest.put("lab", MachineFacts.collect(labHome, javaHome, k6.version(), DELAY_MODULE));
        manifest.put("confinement", Map.of(
                "engine", engine.name(),
                "method", confinement.method(),
                "limits_cpu", confinement.limits(),
                "variant_cpu_quota", plan.knobs().cpuQuota(),
                "delay_service_cpu_quota", plan.knobs().confineDelayService() ? plan.knobs().cpuQuota() : "none",
                "verified_by", "cgroup CPU usage of each window <= quota + 5 %, and availableProcessors reported by"
                        + " each variant"));
        manifest.put("jvm_flags", plan.knobs().jvmFlags());
        manifest.put("settings_file", LabSettings.read());
        manifest.put("knobs", plan.knobs().serviceSettings(delayUrl()));
        manifest.put("jfr_settings", "jfr/threads.jfc");
        manifest.put("plan", planFacts());
        console.estimate(plan.estimatedSeconds(10));
        console.say("Confinement: " + confinement.method() + ", variants at " + plan.knobs().cpuQuota() + " CPU; "
                + k6.version());
    }

    private Map<String, Object> planFacts() {
        Map<String, Object> facts = new LinkedHashMap<>();
        facts.put("variants", plan.variants().stream().map(Variant::label).toList());
        facts.put("closed_model_vus", plan.levels());
        facts.put("window_seconds", plan.windowSeconds());
        facts.put("settle_seconds", plan.settleSeconds());
        facts.put("repetitions", plan.repetitions());
        facts.put("warm_up", plan.warmUp());
        facts.put("open_model_rates", plan.openRates());
        facts.put("open_model_step_seconds", plan.openStepSeconds());
        facts.put("open_model_max_vus", openModelMaxVus());
        facts.put("jfr_windows", plan.jfrWindows());
        facts.put("jvms", "one per variant for the whole run, warmed up once; repetitions rotate the order");
        facts.put("windows", plan.sessions().stream().flatMap(s -> s.windows().stream()).map(Window::id).toList());
        return facts;
    }

    private String delayUrl() {
        return "http://127.0.0.1:" + DELAY_PORT;
    }

    private ServiceProcess startDelayService() {
        List<String> java = javaCommand(DELAY_MODULE, List.of());
        OptionalDouble quota = plan.knobs().confineDelayService()
                ? OptionalDouble.of(plan.knobs().cpuQuota()) : OptionalDouble.empty();
        console.say("Starting the delay service" + (quota.isPresent() ? " (confined)" : " (unconfined, measured)"));
        ServiceProcess service = engine.start(DELAY_MODULE, DELAY_PORT, "delay", quota, java,
                dir.resolve("logs/delay-service.log"));
        service.awaitReady(READY_TIMEOUT);
        return service;
    }

    private List<String> javaCommand(String module, List<String> properties) {
        List<String> command = new ArrayList<>(List.of(javaHome.resolve("bin/java").toString()));
        command.addAll(plan.knobs().jvmFlags());
        command.addAll(properties);
        command.addAll(List.of("-jar", new ServiceJars(labHome).jar(module).toString()));
        return command;
    }

    /** Every variant's JVM, each in its own CPU group from before its first instruction, started side by side. */
    private Map<Variant, ServiceProcess> startVariants(List<Variant> variants) {
        Map<Variant, ServiceProcess> services = new LinkedHashMap<>();
        for (Variant variant : variants) {
            console.say("Starting " + variant.module() + " at " + plan.knobs().cpuQuota() + " CPU");
            List<String> java = javaCommand(variant.module(), plan.knobs().variantProperties(delayUrl()));
            services.put(variant, engine.start(variant.module(), variant.port(), variant.label(),
                    OptionalDouble.of(plan.knobs().cpuQuota()), java, dir.resolve("logs/" + variant.label() + ".log")));
        }
        for (ServiceProcess service : services.values()) {
            service.awaitReady(READY_TIMEOUT);
        }
        return services;
    }

    private Map<String, Object> runtimeInfo(ServiceProcess service, Variant variant) {
        Map<String, Object> info = readJson(service.get("/lab/runtime"));
        int expected = (int) Math.ceil(plan.knobs().cpuQuota());
        Object seen = info.get("availableProcessors");
        if (confinement.limits() && !Integer.valueOf(expected).equals(seen)) {
            String warning = variant + " sees availableProcessors=" + seen + ", not " + expected
                    + ": the JVM did not start inside its CPU group, so it sized itself to the whole machine.";
            console.warn(warning);
            manifest.warn(warning);
        }
        return info;
    }

    private Map<String, Object> warmUp(ServiceProcess service, Variant variant) {
        var policy = plan.warmUp();
        WarmUp warmUp = new WarmUp(policy);
        Path summary = dir.resolve("k6/" + variant.label() + "-warmup.json");
        Map<String, String> env = Map.of("BASE_URL", "http://127.0.0.1:" + variant.port(), "VARIANT", variant.label(),
                "VUS", String.valueOf(policy.vus()), "DURATION", (policy.maxSeconds() + 30) + "s");
        long start = System.nanoTime();
        WarmUp.State state = WarmUp.State.WARMING;
        try (K6Run load = K6Run.start(k6, List.of(), labHome.resolve("k6/closed.js"), env, summary,
                dir.resolve("k6/" + variant.label() + "-warmup.log"))) {
            String metrics = service.get("/q/metrics");
            double lastRequests = LiveCounters.apiRequests(metrics);
            double lastJit = LiveCounters.compilationMillis(metrics);
            long lastAt = System.nanoTime();
            while (state == WarmUp.State.WARMING) {
                sleep(policy.sampleSeconds() * 1000L);
                requireAlive(service);
                if (!load.isAlive()) {
                    throw new IllegalStateException("k6 stopped during warm-up; see " + load.log());
                }
                metrics = service.get("/q/metrics");
                double requests = LiveCounters.apiRequests(metrics);
                double jit = LiveCounters.compilationMillis(metrics);
                long at = System.nanoTime();
                double seconds = (at - lastAt) / 1e9;
                double rate = (requests - lastRequests) / seconds;
                double jitRate = (jit - lastJit) / seconds;
                lastRequests = requests;
                lastJit = jit;
                lastAt = at;
                state = warmUp.add(rate, jitRate, (at - start) / 1e9);
                console.status(String.format("%s warm-up at %d users: %.0f req/s (spread %.1f %%), JIT %.0f ms/s",
                        variant, policy.vus(), rate, warmUp.lastSpread() * 100, jitRate), true);
            }
            load.stopEarly();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        boolean steady = state == WarmUp.State.STEADY;
        console.say(String.format("%s warm-up %s after %.0f s", variant,
                steady ? "steady" : "NOT steady (gave up at the ceiling)", seconds));
        if (!steady) {
            manifest.warn(variant + " did not reach a steady rate with a quiet JIT within " + policy.maxSeconds()
                    + " s of warm-up: its numbers may still include JIT work");
        }
        Map<String, Object> facts = new LinkedHashMap<>();
        facts.put("steady", steady);
        facts.put("seconds", Math.round(seconds));
        facts.put("rates", warmUp.rates().stream().map(r -> Math.round(r * 10) / 10.0).toList());
        facts.put("jit_ms_per_second", warmUp.jitMsPerSecond().stream().map(r -> Math.round(r * 10) / 10.0).toList());
        facts.put("final_spread", warmUp.lastSpread());
        return facts;
    }

    /**
     * One window: k6 runs the settle phase, then the runner takes its "before" readings (CPU, request and delay
     * counters, metrics snapshot) and k6 measures; the "after" readings come when k6 has finished. CPU per request
     * divides the variant's CPU by the requests its own counter answered over exactly that interval.
     */
    private void measure(ServiceProcess service, Window window) {
        Variant variant = window.variant();
        String id = window.id();
        String group = variant.label();
        Path jfr = dir.resolve("jfr/" + id + ".jfr");
        if (window.detailedRecording()) {
            recorder.start(service, jfr); // before the load: starting a recording costs CPU of its own
        }
        K6Summary summary;
        Edge before;
        Edge after;
        try (K6Run load = K6Run.start(k6, confinement.wrap("k6", OptionalDouble.empty(), List.of()),
                labHome.resolve("k6/" + (window.load() instanceof Window.OpenSteps ? "open.js" : "closed.js")),
                k6Env(window), dir.resolve("k6/" + id + ".json"), dir.resolve("k6/" + id + ".log"))) {
            awaitFirstRequests(service, load);
            sleep(window.settleSeconds() * 1000L);
            before = edge(service, group, id + "-before", load.pid(), CpuReading.NONE);
            CpuReading k6Seen = before.k6();
            double lastRequests = before.requests();
            long lastAt = before.nanos();
            for (int tick = 1; load.isAlive(); tick++) {
                sleep(1000);
                requireAlive(service);
                k6Seen = latest(k6Seen, readK6(load.pid()));
                if (tick % 3 == 0) {
                    double requests = LiveCounters.apiRequests(service.get("/q/metrics"));
                    long at = System.nanoTime();
                    console.status(String.format("%s %s: %d/%d s, %.0f req/s", variant, window.scenario(),
                            Math.min(tick, window.load().seconds() - window.settleSeconds()),
                            window.load().seconds() - window.settleSeconds(),
                            (requests - lastRequests) / ((at - lastAt) / 1e9)), tick % 15 == 0);
                    lastRequests = requests;
                    lastAt = at;
                }
            }
            summary = load.finish(Duration.ofSeconds(window.load().seconds() + 120L));
            after = edge(service, group, id + "-after", load.pid(), k6Seen);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (window.detailedRecording()) {
            recorder.stop(service, jfr);
        }
        record(window, summary, before, after);
    }

    /** Readings taken together at one edge of the measured interval. */
    private record Edge(long nanos, CpuReading cpu, CpuReading delayCpu, CpuReading k6, double requests,
                        DelayHeadroom.Counters delayServed, ProcessStats stats) {
    }

    private Edge edge(ServiceProcess service, String group, String snapshot, long k6Pid, CpuReading k6Seen) {
        String metrics = service.get("/q/metrics");
        saveMetrics(snapshot, metrics);
        return new Edge(System.nanoTime(), confinement.read(group, service.pid()),
                confinement.read("delay", delayService.pid()), latest(k6Seen, readK6(k6Pid)),
                LiveCounters.apiRequests(metrics), DelayHeadroom.read(delayService.get("/q/metrics")),
                ProcessStats.of(service.pid()));
    }

    private void record(Window window, K6Summary summary, Edge before, Edge after) {
        Variant variant = window.variant();
        double seconds = (after.nanos() - before.nanos()) / 1e9;
        CpuReading cpu = after.cpu().minus(before.cpu());
        double served = after.requests() - before.requests();
        double delayCpu = after.delayCpu().minus(before.delayCpu()).cpuSeconds();
        double k6Cpu = after.k6().minus(before.k6()).cpuSeconds();
        double delayServedMs = DelayHeadroom.meanServedMs(before.delayServed(), after.delayServed());
        Boolean held = confinement.limits() ? cpu.cpuSeconds() / seconds <= plan.knobs().cpuQuota() * 1.05 : null;
        WindowResult row = new WindowResult(variant.label(), window.scenario(), window.repetition(),
                orZero(summary.requestsPerSecond()), summary.p50Ms(), summary.p90Ms(), summary.p99Ms(),
                summary.maxMs(), summary.errors(), cpu.cpuSeconds(),
                served <= 0 ? Double.NaN : cpu.cpuSeconds() * 1000.0 / served, after.stats().rssMb(),
                after.stats().threads(), k6Cpu, summary.droppedIterations(), cpu.throttledPeriods(),
                summary.requests(), seconds, window.detailedRecording(), cpu.periods(), cpu.cpuSeconds() / seconds,
                held, delayCpu, delayServedMs,
                window.detailedRecording() ? "jfr/" + window.id() + ".jfr" : null, summary.steps());
        console.say(String.format("%s %s rep %d: %.0f req/s, p50 %s ms, p99 %s ms, %d errors, %.3f CPU-ms/req,"
                        + " %.2f CPU (k6 %.2f, delay %.2f, delay served %.1f ms)", variant, row.scenario(),
                row.repetition(), row.requestsPerSecond(), ms(row.p50Ms()), ms(row.p99Ms()), row.errors(),
                row.cpuMsPerRequest(), row.cpuCores(), k6Cpu / seconds, delayCpu / seconds, delayServedMs));
        if (Boolean.FALSE.equals(held)) {
            warn(String.format("%s: %s used %.2f CPU, above its %.2f quota", window.id(), variant,
                    cpu.cpuSeconds() / seconds, plan.knobs().cpuQuota()));
        }
        double k6Room = Runtime.getRuntime().availableProcessors() - plan.knobs().cpuQuota() - delayCpu / seconds;
        if (k6Cpu / seconds > 0.8 * k6Room) {
            warn(String.format("%s: k6 used %.2f CPU of the %.2f left to it; it may be the bottleneck", window.id(),
                    k6Cpu / seconds, k6Room));
        }
        if (row.droppedIterations() > 0) {
            manifest.warn(window.id() + ": k6 dropped " + row.droppedIterations()
                    + " iterations (the offered rate was not reached)");
        }
        results.add(row);
    }

    /** k6 needs a moment to start; the settle phase counts from its first request. */
    private void awaitFirstRequests(ServiceProcess service, K6Run load) {
        double initial = LiveCounters.apiRequests(service.get("/q/metrics"));
        for (int i = 0; i < 100 && load.isAlive(); i++) {
            if (LiveCounters.apiRequests(service.get("/q/metrics")) > initial) {
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

    private Map<String, String> k6Env(Window window) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("BASE_URL", "http://127.0.0.1:" + window.variant().port());
        env.put("VARIANT", window.variant().label());
        switch (window.load()) {
            case Window.Closed closed -> {
                env.put("VUS", String.valueOf(closed.vus()));
                env.put("SETTLE", closed.settleSeconds() + "s");
                env.put("DURATION", closed.measureSeconds() + "s");
            }
            case Window.OpenSteps open -> {
                env.put("RATES", open.rates().stream().map(String::valueOf).collect(Collectors.joining(",")));
                env.put("STEP", open.stepSeconds() + "s");
                env.put("MAX_VUS", String.valueOf(openModelMaxVus()));
            }
        }
        return env;
    }

    /** Users k6 may hold at once in the open model: enough that only a saturated service makes it drop iterations. */
    private int openModelMaxVus() {
        return Math.max(1000, plan.levels().stream().mapToInt(i -> i).max().orElse(1000));
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
            throw new IllegalStateException(service.name() + " died during the run. Last lines of " + service.logLocation()
                    + ":\n" + service.logTail(30));
        }
        if (!delayService.isAlive()) {
            throw new IllegalStateException("the delay service died during the run. Last lines of "
                    + delayService.logLocation() + ":\n" + delayService.logTail(30));
        }
    }

    /** Stops every child, removes every cgroup, and records how the run ended; once, whichever path gets here. */
    private synchronized void cleanUp(String status, String failure) {
        if (manifest == null || manifest.isFinished()) {
            return;
        }
        Processes.stopAll();
        if (engine != null) {
            engine.cleanUp();
        }
        manifest.finish(status, failure);
        if (!"completed".equals(status)) {
            System.err.println("Run " + status + (failure == null ? "" : ": " + failure) + ". Processes stopped, cgroups"
                    + " removed; what was measured is kept in " + dir);
        }
    }

    private static Map<String, Object> readJson(String json) {
        try {
            return Json.MAPPER.readValue(json, new TypeReference<>() { });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static double orZero(Double d) {
        return d == null ? 0 : d;
    }

    private static String ms(Double d) {
        return d == null ? "-" : String.format("%.1f", d);
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
