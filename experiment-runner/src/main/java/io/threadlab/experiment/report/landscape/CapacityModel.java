package io.threadlab.experiment.report.landscape;

import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.plan.Variant;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The capacity model, stated from first principles for every closed-model point and set beside the measurement:
 * <ul>
 * <li>CPU: quota ÷ the CPU per request measured at the point;</li>
 * <li>workers (worker variants): worker maximum ÷ (downstream delay + overhead);</li>
 * <li>connections: connection pool ÷ (downstream delay + overhead);</li>
 * <li>users: users ÷ (downstream delay + overhead).</li>
 * </ul>
 * The overhead is what a request costs above the delay when nothing queues: the least response time above the delay
 * that the JVM showed at that delay at a light point (below 80 % of its quota, no more users than workers or
 * connections). Where the JVM had no light point at the delay, it is the least the point itself shows: the delay
 * service's own lateness plus the CPU per request stretched by the quota, a lower bound, so the ceilings are upper
 * bounds. The prediction is the lowest ceiling; it names the binding one.
 */
public final class CapacityModel {

    private CapacityModel() {
    }

    /**
     * Every plain closed-model window of the run as a point (a recorded twin measures the recording too); windows
     * that do not say their JVM's knobs cannot be predicted and are left out.
     */
    public static List<Point> points(List<WindowResult> rows) {
        List<WindowResult> closed = rows.stream().filter(r -> !r.detailedRecording() && r.users() != null
                && r.delayMs() != null && r.cpuQuota() != null && r.workerMax() != null && r.poolSize() != null
                && Variant.find(r.variant()).isPresent()).toList();
        Map<String, Double> overhead = new HashMap<>();
        for (WindowResult r : closed) {
            if (light(r)) {
                double above = Math.max(0, responseMs(r) - r.delayMs());
                overhead.merge(r.jvmName() + "@" + r.delayMs(), above, Math::min);
            }
        }
        List<Point> points = new ArrayList<>();
        for (WindowResult r : closed) {
            Variant variant = Variant.find(r.variant()).orElseThrow();
            int delayMs = r.delayMs();
            int users = r.users();
            double quota = r.cpuQuota();
            int workerMax = r.workerMax();
            int pool = r.poolSize();
            Double measuredOverhead = overhead.get(r.jvmName() + "@" + delayMs);
            double holdMs = delayMs + (measuredOverhead != null ? measuredOverhead
                    : Math.max(0, r.delayServedMeanMs() - delayMs) + r.cpuMsPerRequest() / quota);
            double holdSeconds = Math.max(holdMs, 0.05) / 1000;
            Map<Ceiling, Double> ceilings = new EnumMap<>(Ceiling.class);
            if (r.cpuMsPerRequest() > 0) {
                ceilings.put(Ceiling.CPU, quota * 1000 / r.cpuMsPerRequest());
            }
            if (variant.threads() == Variant.Threads.WORKER) {
                ceilings.put(Ceiling.WORKERS, workerMax / holdSeconds);
            }
            ceilings.put(Ceiling.CONNECTIONS, pool / holdSeconds);
            ceilings.put(Ceiling.USERS, users / holdSeconds);
            Map.Entry<Ceiling, Double> binding = ceilings.entrySet().stream()
                    .min(Comparator.comparingDouble(Map.Entry::getValue)).orElseThrow();
            Double little = r.meanMs() == null ? null : r.requestsPerSecond() * r.meanMs() / 1000;
            points.add(new Point(r.jvmName(), variant.label(), delayMs, users, quota,
                    variant.threads() == Variant.Threads.WORKER ? workerMax : null, pool, ceilings, binding.getKey(),
                    binding.getValue(), r.requestsPerSecond(), r.p99Ms() == null ? Double.NaN : r.p99Ms(),
                    r.errors(), r.errorCauses() == null ? Map.of() : r.errorCauses(), holdMs, little, k6Limited(r)));
        }
        return points;
    }

    /** As the runner judges it: k6 above 80 % of the CPU left to it (all CPUs, or its own, less the others'). */
    static boolean k6Limited(WindowResult r) {
        double seconds = Math.max(1e-9, r.windowSeconds());
        double delay = r.delayCpuSeconds() / seconds;
        double room = "separate".equals(r.loadCpus()) ? 1 - delay
                : Runtime.getRuntime().availableProcessors() - r.cpuQuota() - delay;
        return r.k6CpuSeconds() / seconds > 0.8 * room;
    }

    /** Nothing queued here: the JVM below 80 % of its quota, and every user had a worker and a connection. */
    private static boolean light(WindowResult r) {
        boolean onWorkers = Variant.find(r.variant()).orElseThrow().threads() == Variant.Threads.WORKER;
        return r.cpuSeconds() / Math.max(1e-9, r.windowSeconds()) < 0.8 * r.cpuQuota() && r.users() <= r.poolSize()
                && (!onWorkers || r.users() <= r.workerMax());
    }

    /** The mean response time where it was recorded, else the median. */
    private static double responseMs(WindowResult r) {
        return r.meanMs() != null ? r.meanMs() : r.p50Ms() != null ? r.p50Ms() : Double.NaN;
    }

}
