package io.threadlab.experiment.load;

import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.confine.CpuReading;
import io.threadlab.experiment.plan.Knobs;
import io.threadlab.experiment.plan.Window;
import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.Database;
import io.threadlab.experiment.plan.Downstream;
import io.threadlab.experiment.plan.Point;
import io.threadlab.experiment.record.DatabaseReading;
import io.threadlab.experiment.record.DelayHeadroom;
import io.threadlab.experiment.process.ThreadGroupTimes;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The path every number of a window comes through, from what was read at its two edges to its row: the interval
 * between the edges, its throughput and the variant's CPU over it and per request (over the calls the delay service
 * answered in exactly that interval), whether it kept its quota, the instruments' CPU, the compiler's share, the
 * collector's pauses, the memory at the end.
 * Nothing here reads a clock or a file: it is tested on fixture edges.
 */
public final class WindowFigures {

    private WindowFigures() {
    }

    /** What the window was and where it ran, beside what it measured. */
    public record Context(Window window, Knobs knobs, boolean confined, String startedAt, boolean separateLoad,
                          Database database) {
    }

    /**
     * One second of a closed-model window, between two of its readings: the requests answered in it per second, and
     * the variant's CPU per request answered (null when none was: a stalled second has no CPU per request, and is left
     * out of the window's median).
     */
    record Second(double requestsPerSecond, Double cpuMsPerRequest) {
    }

    /**
     * The second between two readings of the load's counters and the variant's CPU, taken together: the requests the
     * downstream served in it ({@code served}), and the CPU per request. Where the downstream's count is late or k6's
     * own (null), or a request failed in the second, k6's count of the answers. k6's counters lag behind its users when
     * it is short of CPU, which makes its seconds uneven; the downstream's count does not.
     */
    static Second second(LoadCounters last, CpuReading lastCpu, LoadCounters now, CpuReading cpu, Double served) {
        long answered = now.completed() - last.completed();
        boolean failed = now.errorCount() > last.errorCount();
        double counted = served == null || failed ? answered : served;
        return new Second(round(counted / ((now.nanos() - last.nanos()) / 1e9)),
                counted <= 0 ? null : cpu.minus(lastCpu).cpuSeconds() * 1000 / counted);
    }

    public static WindowResult of(Context context, Edge before, Edge after, LoadFigures load, List<Double> perSecond,
                                  List<Double> cpuPerSecond, Settled settled) {
        Window window = context.window();
        double seconds = (after.nanos() - before.nanos()) / 1e9;
        if (!(seconds > 0)) {
            throw new IllegalArgumentException("a window's closing edge must come after its opening edge, was "
                    + seconds + " s");
        }
        CpuReading cpu = after.cpu().minus(before.cpu());
        // the requests the interval served: the delay service's count of its calls (a fan-out request makes N of
        // them), k6's where the database answers or the model is open (no reading of k6's counters at the edges)
        boolean delayCounts = window.downstream() != Downstream.DB && before.load() != null;
        double served = delayCounts ? (after.delayServed().count() - before.delayServed().count()) / window.fanOut()
                : load.requests();
        // The window's throughput is that same count over the interval between its own readings, where every request
        // succeeded (each made its calls): k6's counters reach its API up to 0.1 s late, and seconds late when k6 is
        // short of CPU, which k6's count carries into the window's edges (+17 % at 1,000 ms x 500 users, where the
        // 200 workers allow 200 req/s and the delay service served 198.5). Else k6's count of the answers.
        double servedSeconds = (after.delayServed().nanos() - before.delayServed().nanos()) / 1e9;
        double throughput = delayCounts && load.errors() == 0 && servedSeconds > 0 ? served / servedSeconds
                : load.requestsPerSecond();
        double quota = context.knobs().cpuQuota();
        Map<String, ThreadGroupTimes.Times> groups = after.threads().since(before.threads());
        ThreadGroupTimes.Times jit = groups.getOrDefault(ThreadGroupTimes.COMPILER,
                new ThreadGroupTimes.Times(0, 0, 0, 0, 0));
        double compilerCpuMs = Math.max(0, jit.cpuNanos()) / 1e6;
        String id = window.id().format();
        WindowResult.Identity identity = new WindowResult.Identity(id, window.variant().label(),
                window.jvm().label(), window.jvm().start(), window.number(), window.id().scenario(),
                window.recorded(), window.role().name().toLowerCase(Locale.ROOT),
                window.recorded() ? "jfr/" + id + ".jfr" : null, context.startedAt(), before.at().toString(),
                context.separateLoad() ? "separate" : "shared");
        WindowResult.Load traffic = new WindowResult.Load(load.requests(), seconds, round(throughput),
                load.p50Ms(), load.p90Ms(), load.p99Ms(), load.maxMs(), load.meanMs(), load.errors(),
                load.errorCauses(), load.inFlight(), load.droppedIterations(), perSecond, load.steps());
        WindowResult.Cpu used = new WindowResult.Cpu(cpu.cpuSeconds(),
                served <= 0 ? Double.NaN : cpu.cpuSeconds() * 1000.0 / served, cpu.cpuSeconds() / seconds,
                cpu.periods(), cpu.throttledPeriods(),
                context.confined() ? cpu.cpuSeconds() / seconds <= quota * (1 + Knobs.QUOTA_TOLERANCE) : null,
                sleepsPerRequest(before, after, served), cpuPerSecond);
        WindowResult.Memory memory = new WindowResult.Memory(after.stats().rssMb(), after.stats().threads(),
                megabytes(JvmGauges.value(after.metrics(), "jvm_gc_live_data_size_bytes")),
                megabytes(JvmGauges.heapUsed(after.metrics())),
                JvmGauges.value(after.metrics(), "jvm_threads_live_threads"));
        DatabaseReading db = after.database();
        WindowResult.Instruments instruments = new WindowResult.Instruments(
                // k6's counters unread at either edge: its CPU, and so its headroom, not measured (never 0)
                before.k6().known() && after.k6().known() ? after.k6().minus(before.k6()).cpuSeconds() : Double.NaN,
                after.delayCpu().minus(before.delayCpu()).cpuSeconds(),
                DelayHeadroom.meanServedMs(before.delayServed(), after.delayServed()),
                db == null ? null : db.cpu().minus(before.database().cpu()).cpuSeconds(),
                db == null ? null : db.transactions() - before.database().transactions(),
                db == null ? null : db.connections(), db == null ? null : db.active(),
                delayCounts ? Math.round(served) : null,
                delayCounts ? round((Math.abs(before.delayServed().nanos() - before.nanos())
                        + Math.abs(after.delayServed().nanos() - after.nanos())) / 1e9) : null,
                after.yardstick().minus(before.yardstick()).micros());
        WindowResult.Compiler compiler = new WindowResult.Compiler(compilerCpuMs,
                compilerCpuMs / 1000.0 / (quota * seconds), Math.max(0, jit.waitNanos()) / 1e6,
                round(settled.seconds()), settled.quiet());
        WindowResult.Gc gcBefore = JvmGauges.gcPauses(before.metrics());
        WindowResult.Gc gcAfter = JvmGauges.gcPauses(after.metrics());
        WindowResult.Gc gc = gcBefore == null || gcAfter == null ? null : gcAfter.since(gcBefore);
        Point at = context.knobs().asPoint().and(window.at());
        if (window.downstream() == Downstream.DB && context.database() != null) {
            at = at.with(Axis.DB_CPUS, context.database().cpus()); // what its database ceiling is predicted from
        }
        return new WindowResult(identity, at, traffic, used, memory,
                instruments, compiler, gc, describe(groups), null);
    }

    /**
     * The times a thread serving requests went to sleep per request served: a thread with nothing left to do blocks
     * (a voluntary context switch) and another's call wakes it, which costs CPU a busier thread does not pay.
     */
    private static Double sleepsPerRequest(Edge before, Edge after, double served) {
        OptionalLong switches = after.threads().voluntarySwitchesSince(before.threads(),
                ThreadGroupTimes.SERVING);
        return switches.isEmpty() || !(served > 0) ? null : round(switches.getAsLong() / served);
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

    private static Double megabytes(Double bytes) {
        return bytes == null ? null : round(bytes / (1024 * 1024));
    }

    static double round(double v) {
        return Math.round(v * 1000) / 1000.0;
    }
}
