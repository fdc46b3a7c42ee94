package io.threadlab.experiment.load;

import io.threadlab.experiment.progress.Console;
import io.threadlab.experiment.collect.CompilerSample;
import io.threadlab.experiment.collect.WarmUpResult;
import io.threadlab.experiment.confine.Confinement;
import io.threadlab.experiment.confine.CpuSets;
import io.threadlab.experiment.plan.WarmUpPolicy;
import io.threadlab.experiment.process.ServiceProcess;
import io.threadlab.experiment.record.CompilerActivity;
import io.threadlab.experiment.record.DelayHeadroom;
import io.threadlab.experiment.record.Recorder;
import io.threadlab.experiment.record.RuntimeInfo;
import io.threadlab.experiment.process.ThreadGroupTimes;
import io.threadlab.experiment.start.RunningJvm;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Brings one JVM to its peak under load and proves its compiler finished (see {@link WarmUpPolicy}): a few seconds
 * at the quota so that what sizes itself on first use does so at the quota, a boost while the compile queue drains,
 * then every level at the quota until the compiler is quiet there, then its load drained and one full collection
 * ({@link #collect}). Every sample is kept: the trace is a result.
 */
public final class WarmUp {

    private final Loads loads;
    private final Confinement confinement;
    private final Console console;
    private double quota;
    private String path;
    private final CpuSets cpuSets;
    private final ServiceProcess delayService;
    private final Recorder recorder;
    private int delayCalls;

    /**
     * @param cpuSets      the run's cpusets, or null: a warm-up always runs shared, so that its boost has every CPU
     * @param delayService whose count of calls is the warm-up's throughput where the load calls it
     * @param recorder     what sends the JVM its full collection at the end
     */
    public WarmUp(Loads loads, Confinement confinement, Console console, CpuSets cpuSets,
                  ServiceProcess delayService, Recorder recorder) {
        this.cpuSets = cpuSets;
        this.recorder = recorder;
        this.delayService = delayService;
        this.loads = loads;
        this.confinement = confinement;
        this.console = console;
    }

    /**
     * @param levels the levels to prove, in order (the first is also the boost's load)
     * @param path       what the load calls: the endpoint of the downstream the JVM is first measured with
     * @param delayCalls the delay service's calls per request of {@code path}; 0 where it makes none
     * @param quota      this JVM's quota (its setup may differ from the run's)
     */
    public WarmUpResult run(RunningJvm jvm, List<Integer> levels, String path, int delayCalls, WarmUpPolicy policy,
                            String name, double quota) {
        this.quota = quota;
        this.path = path;
        this.delayCalls = delayCalls;
        if (cpuSets != null) {
            cpuSets.apply(CpuSets.Mode.SHARED);
        }
        Sampler sampler = new Sampler(jvm, policy.sampleSeconds());
        List<WarmUpResult.Level> results = new ArrayList<>();
        double boostSeconds = 0;
        Double secondsToPeak = null;
        int first = levels.getFirst();
        if (policy.preBoostSeconds() > 0) {
            hold(sampler, load(jvm, first, policy, name), policy, first, policy.preBoostSeconds());
        }
        Map<String, Object> before = RuntimeInfo.read(jvm.service());
        Map<String, Integer> threadsBefore = jvm.service().threadTimes().threadCounts();
        if (policy.boosts(quota)) {
            boostSeconds = boost(jvm, sampler, policy, first, name, policy.boostMaxSeconds());
        }
        for (int users : levels) {
            WarmUpResult.Level level = prove(jvm, sampler, policy, users, name + "-" + users);
            if (!level.finished() && policy.boosts(quota) && compileQueued(sampler, policy)
                    && boostSeconds < policy.boostMaxSeconds()) {
                // A wave of compilations at the quota after the queue had drained (database-jpa-4: 0, then 73-98
                // queued 12 s into the level, and the compiler, starved beside 200 workers, still had 17 after its
                // 90 s): drained boosted once more, within what the boost's ceiling has left, then held anew.
                boostSeconds += boost(jvm, sampler, policy, users, name, policy.boostMaxSeconds() - boostSeconds);
                level = prove(jvm, sampler, policy, users, name + "-" + users).again();
            }
            results.add(level);
            if (level.finished() && users == levels.stream().mapToInt(i -> i).max().orElseThrow()
                    && secondsToPeak == null) {
                secondsToPeak = sampler.peakStartedAt;
            }
        }
        sampler.scrapes.finish();
        collect(jvm);
        Map<String, Object> after = RuntimeInfo.read(jvm.service());
        List<String> changed = RuntimeInfo.ergonomicsChanged(before, after);
        boolean finished = results.stream().allMatch(WarmUpResult.Level::finished) && changed.isEmpty();
        String strategy = policy.boosts(quota)
                ? String.format(Locale.ROOT, "boosted to %.2g CPUs at %d users until the compile queue drained, then"
                + " each level at %.2g CPU until the compiler was quiet (boosted again, once, where its queue filled)",
                policy.boostCpus(), levels.getFirst(), quota)
                : String.format(Locale.ROOT, "at %.2g CPU from the JVM's start", quota);
        strategy += ", then its load drained and one full collection (jcmd GC.run)";
        return new WarmUpResult(jvm.jvm().id(), jvm.jvm().variant().label(), jvm.jvm().start(), strategy, quota,
                policy.boostCpus(), finished, sampler.elapsed(), boostSeconds, sampler.sinceJvmStart, secondsToPeak,
                results, sampler.samples, new WarmUpResult.Ergonomics(before, after, changed, threadsBefore,
                jvm.service().threadTimes().threadCounts()), sampler.scrapes.answered());
    }

    /**
     * The warm-up ends with its load drained and then one full collection, so that the first windows measured meet
     * the JVM as later ones do. The database runs published before showed why: the first calibration window of nearly
     * every JVM had the collector pause it 19-37 %, where the same JVM's later windows paused 1-10 %; the reactive
     * JVM's 700 users cost 0.76 CPU-ms a request there and 0.44-0.48 at 500 users minutes later, and the forecasts
     * read between the two came out 30-63 % under what the JVMs served. Its GC log (2026-12-05) said what it was: each
     * young collection kept about 96 MB (the survivor space holds 17) and promoted it, a full collection every fourth
     * one found 20 MB alive, and only when the load fell to 150 users did young collections keep 1.5 MB again, and
     * went on doing so at 500. A heap dump taken with its garbage in that state (GC.heap_dump -all) named what they
     * kept: finished requests' pages, held by those requests' first objects (the request, its promise, its query),
     * which an earlier collection had promoted while they waited for a connection; a young collection takes the old
     * generation's objects as roots, dead or alive. Promoting more than the survivor space holds keeps the threshold
     * at one collection, and so the next requests' first objects are promoted too, while the load holds. A full
     * collection under load does not end that: it moves every request in flight to the old generation, and their
     * pages, made after, are kept the same way (docs/method.md, the collector's two states); the same run with it
     * alone cost 0.755 at 700 users. With nothing in flight when it runs, the same JVM's 700 users cost 0.439 at
     * 1,126 req/s and the collector paused 2 %. The collections the steady state makes still fall in the windows.
     */
    private void collect(RunningJvm jvm) {
        long start = System.nanoTime();
        loads.end();
        recorder.collectGarbage(jvm.service());
        console.status(String.format(Locale.ROOT, "%s warm-up ends: its load drained, one full collection (%.1f s)",
                jvm.jvm(), (System.nanoTime() - start) / 1e9), false);
    }

    /**
     * The level's last judged window, as the judge reads it, had C2 compilations waiting: a wave a boost drains, not a
     * compiler merely busy (the queue's length unknown, as in containers, is no wave).
     */
    private boolean compileQueued(Sampler sampler, WarmUpPolicy policy) {
        List<CompilerSample> samples = sampler.samples;
        return WarmUpJudge.level(samples.subList(Math.max(0, samples.size() - policy.windowSamples()), samples.size()),
                quota, policy).maxC2Queue() > 0;
    }

    /** Raises the quota while the compile queue drains, for at most {@code seconds}; returns how long it took. */
    private double boost(RunningJvm jvm, Sampler sampler, WarmUpPolicy policy, int users, String name,
                         double seconds) {
        double start = sampler.elapsed();
        confinement.setQuota(jvm.group(), jvm.service().pid(), policy.boostCpus());
        try {
            LoadSession load = load(jvm, users, policy, name);
            sampler.cpus = policy.boostCpus();
            while (sampler.elapsed() - start < seconds) {
                sampler.sample(load, users);
                status(jvm, sampler, "boost", users);
                if (WarmUpJudge.boostDone(sampler.samples)) {
                    break;
                }
            }
        } finally {
            confinement.setQuota(jvm.group(), jvm.service().pid(), quota);
            sampler.cpus = quota;
        }
        return sampler.elapsed() - start;
    }

    /** Holds one level at the quota until a judged window says the compiler finished there, or the ceiling. */
    private WarmUpResult.Level prove(RunningJvm jvm, Sampler sampler, WarmUpPolicy policy, int users, String name) {
        double start = sampler.elapsed();
        WarmUpJudge.Judgement judgement = null;
        List<CompilerSample> window = List.of();
        LoadSession load = load(jvm, users, policy, name);
        int firstOfLevel = sampler.samples.size();
        while (sampler.elapsed() - start < policy.levelMaxSeconds()) {
            sampler.sample(load, users);
            List<CompilerSample> atLevel = sampler.samples.subList(firstOfLevel, sampler.samples.size());
            window = atLevel.subList(Math.max(0, atLevel.size() - policy.windowSamples()), atLevel.size());
            judgement = WarmUpJudge.level(window, quota, policy);
            status(jvm, sampler, judgement.finished() ? "finished" : judgement.reason(), users);
            if (judgement.finished()) {
                sampler.peakStartedAt = window.getFirst().elapsedSeconds() - policy.sampleSeconds()
                        + sampler.sinceJvmStart;
                break;
            }
        }
        double meanRate = window.stream().mapToDouble(CompilerSample::requestsPerSecond).average().orElse(Double.NaN);
        return new WarmUpResult.Level(users, sampler.elapsed() - start, judgement != null && judgement.finished(),
                judgement == null ? "no sample" : judgement.reason(), judgement == null ? Double.NaN
                : judgement.compilerShare(), judgement == null ? Double.NaN : judgement.trend(), meanRate);
    }

    /**
     * The load at {@code users}: kept running from the phase before when it is the same level (the boost goes on
     * from the pre-boost load, the first level from the boost), else a new one after the old one has drained.
     */
    private LoadSession load(RunningJvm jvm, int users, WarmUpPolicy policy, String name) {
        int longest = policy.preBoostSeconds() + policy.boostMaxSeconds() + 2 * policy.levelMaxSeconds();
        // no histogram: the warm-up reads throughput and the compiler, never a percentile
        return loads.session(jvm, users, path, longest + 600, name + "-" + users, false);
    }

    private void hold(Sampler sampler, LoadSession load, WarmUpPolicy policy, int users, int seconds) {
        double start = sampler.elapsed();
        while (sampler.elapsed() - start < seconds) {
            sampler.sample(load, users);
        }
    }

    private void status(RunningJvm jvm, Sampler sampler, String state, int users) {
        CompilerSample s = sampler.samples.getLast();
        console.status(String.format(Locale.ROOT, "%s warm-up at %.2g CPU, %d users: %.0f req/s, compile queue %s,"
                        + " compiler %.0f ms/s (waiting %.0f) - %s", jvm.jvm(), s.cpus(), users, s.requestsPerSecond(),
                s.queueKnown() ? String.valueOf(s.c1Queue() + s.c2Queue()) : "?", s.compilerCpuMsPerSecond(),
                s.compilerWaitMsPerSecond(), state), false);
    }

    /**
     * Takes one sample per period: the compiler from JFR and /proc; the throughput from the delay service's count of
     * calls where the load calls it, as a window's is, else from k6's count of answers.
     *
     * <p>k6's count reaches its API seconds late when k6 is short of CPU. At 3,000 users (map 2026-11-28T07-17-02Z)
     * the reactive JVM's samples read 1,210 req/s then 9,478, and 835 then 24,504 where the JVM could serve about 5,500
     * on its 0.5 CPU: k6's count had stalled for 9-11 s and then caught up. The judged window's throughput trend read
     * -142 %, and the warm-up gave up at its ceiling on a compiler that was quiet (0.7 % of the quota); so it did in
     * the map before (-96 %). The delay service is not confined and counts each call as it answers it. k6's count
     * starts again with each load: a new one is counted from its first reading.
     */
    private final class Sampler {
        final RunningJvm jvm;
        final int sampleSeconds;
        final CompilerActivity compiler;
        final List<CompilerSample> samples = new ArrayList<>();
        final long startNanos = System.nanoTime();
        final double sinceJvmStart;
        double cpus = quota;
        final MetricsScrapes scrapes;
        Double peakStartedAt;
        LoadSession lastLoad;
        long lastAnswered;
        long lastNanos;
        ThreadGroupTimes lastTimes;
        CompilerActivity.Snapshot lastCompiler;
        DelayHeadroom.Counters lastServed;

        Sampler(RunningJvm jvm, int sampleSeconds) {
            this.jvm = jvm;
            this.sampleSeconds = sampleSeconds;
            this.compiler = jvm.compiler();
            this.sinceJvmStart = (startNanos - jvm.startedNanos()) / 1e9;
            this.lastNanos = System.nanoTime();
            this.lastTimes = jvm.service().threadTimes();
            this.lastCompiler = compiler == null ? null : compiler.snapshot();
            this.lastServed = delayCalls > 0 ? DelayHeadroom.readNow(delayService) : null;
            this.scrapes = new MetricsScrapes(() -> jvm.service().getInBackground("/q/metrics",
                    EdgeReader.SCRAPE_TIMEOUT));
        }

        double elapsed() {
            return (System.nanoTime() - startNanos) / 1e9;
        }

        /**
         * One scrape a sample profiles the metrics path but does not make it hot: its C2 compile (Prometheus'
         * writeOpenMetrics100, 0.2-2.2 s of compiling at the quota) came when some 45 scrapes had added up. A JVM
         * that calibrates got there in its calibration; a JVM measured without one, in its first windows. Seen in the
         * four default runs of 2026-11-28: the imperative JVM's second start compiled it in its first windows in
         * three, once before them; where in them, the 500-user window's compiler waited to run 2.0 s of 6, 1.8 s of 8
         * and 0.5 s of 6, and served 15 %, 26 % and 3 % below the first start. So at the start of the boost, with CPU
         * to spare, a sample scrapes {@link WarmUpPolicy#BOOSTED_SCRAPES} times until {@link WarmUpPolicy#HOT_SCRAPES}
         * are answered, and that compile falls in the boost (6-10 s into it, in every JVM of the default run
         * 2026-11-28T04-33-40Z). With ten a sample for the whole boost, the reactive and virtual-thread JVMs' boosts
         * took 53-72 s where they had taken 27-33, their compilers never quite quiet.
         */
        int scrapesPerSample() {
            return cpus > quota && scrapes.answered() < WarmUpPolicy.HOT_SCRAPES ? WarmUpPolicy.BOOSTED_SCRAPES : 1;
        }

        void sample(LoadSession load, int users) {
            // The windows read the variant's metrics at their edges; the warm-up does too, so that the JIT's profile
            // already includes that path (measured: without it, the first windows recompiled at ~10 % of the quota).
            // In the background of the sample: behind hundreds of queued requests on 0.5 CPU a scrape waits seconds.
            scrapes.start(scrapesPerSample());
            sleep(sampleSeconds * 1000L);
            if (!jvm.service().isAlive()) {
                throw new IllegalStateException(jvm.jvm() + " died during its warm-up. Last lines of "
                        + jvm.service().logLocation() + ":\n" + jvm.service().logTail(30));
            }
            if (!load.isAlive()) {
                load.read(); // throws, saying why
            }
            LoadCounters counters = load.read();
            if (load != lastLoad) { // a new load since the last sample: its answers are counted from its start
                lastLoad = load;
                lastAnswered = 0;
            }
            long now = counters.nanos();
            double dt = (now - lastNanos) / 1e9;
            double rate = (counters.completed() - lastAnswered) / dt;
            if (lastServed != null) {
                DelayHeadroom.Counters served = DelayHeadroom.readNow(delayService);
                double seconds = (served.nanos() - lastServed.nanos()) / 1e9;
                rate = (served.count() - lastServed.count()) / delayCalls / seconds;
                lastServed = served;
            }
            ThreadGroupTimes.Times jit = jvm.service().threadTimes().group(ThreadGroupTimes.COMPILER);
            ThreadGroupTimes.Times jitBefore = lastTimes.group(ThreadGroupTimes.COMPILER);
            CompilerActivity.Snapshot c = compiler == null ? null : compiler.snapshot();
            CompilerSample sample = new CompilerSample(elapsed(), cpus, users, rate,
                    c == null ? -1 : c.c1Queue(), c == null ? -1 : c.c2Queue(),
                    c == null ? -1 : c.compilations() - lastCompiler.compilations(), c == null ? -1 : c.codeBytes(),
                    Math.max(0, jit.cpuNanos() - jitBefore.cpuNanos()) / 1e6 / dt,
                    Math.max(0, jit.waitNanos() - jitBefore.waitNanos()) / 1e6 / dt);
            samples.add(sample);
            lastAnswered = counters.completed();
            lastNanos = now;
            lastTimes = jvm.service().threadTimes();
            lastCompiler = c;
        }
    }

    private static void sleep(long ms) {
        Pause.millis(ms);
    }
}
