package io.threadlab.experiment.load;

import io.threadlab.experiment.collect.WindowResult;

import java.util.List;
import java.util.function.Predicate;

/**
 * A few JVM gauges from a variant's Prometheus text: memory after GC, heap in use, live platform threads, the
 * collector's pauses and its survivor space.
 */
final class JvmGauges {

    private JvmGauges() {
    }

    /** The sum of every series of {@code metric}, or null when the service does not publish it. */
    static Double value(String prometheusText, String metric) {
        return sum(prometheusText, l -> l.startsWith(metric + " ") || l.startsWith(metric + "{"));
    }

    /** {@code jvm_memory_used_bytes} of the heap pools only. */
    static Double heapUsed(String prometheusText) {
        return sum(prometheusText, l -> l.startsWith("jvm_memory_used_bytes{") && l.contains("area=\"heap\""));
    }

    /**
     * The collector's pauses so far (Micrometer's jvm.gc.pause, whose action names a young collection "end of minor
     * GC" and a full one "end of major GC") and what its young collections promoted (jvm.gc.memory.promoted), or null
     * when the service does not publish its pauses.
     */
    static WindowResult.Gc gcPauses(String prometheusText) {
        Double minor = sum(prometheusText, pause("count", "minor"));
        Double major = sum(prometheusText, pause("count", "major"));
        if (minor == null && major == null) {
            return null;
        }
        Double promoted = value(prometheusText, "jvm_gc_memory_promoted_bytes_total");
        Double survivor = sum(prometheusText, survivorSpace("jvm_memory_used_bytes"));
        Double survivorMax = sum(prometheusText, survivorSpace("jvm_memory_max_bytes"));
        return new WindowResult.Gc(Math.round(zeroIfNull(minor)),
                zeroIfNull(sum(prometheusText, pause("sum", "minor"))), Math.round(zeroIfNull(major)),
                zeroIfNull(sum(prometheusText, pause("sum", "major"))), promoted == null ? null : promoted / 1e6,
                survivor == null ? null : survivor / 1e6, survivorMax == null || survivorMax <= 0 ? null
                        : survivorMax / 1e6);
    }

    /** The survivor space's series of {@code metric}: "Survivor Space" (Serial), "PS Survivor Space", "G1 ...". */
    private static Predicate<String> survivorSpace(String metric) {
        return l -> l.startsWith(metric + "{") && l.contains("area=\"heap\"") && l.contains("Survivor Space\"");
    }

    private static Predicate<String> pause(String series, String kind) {
        return l -> l.startsWith("jvm_gc_pause_seconds_" + series + "{") && l.contains("\"end of " + kind + " GC\"");
    }

    private static double zeroIfNull(Double value) {
        return value == null ? 0 : value;
    }

    private static Double sum(String prometheusText, Predicate<String> series) {
        List<Double> values = prometheusText.lines().filter(series)
                .map(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).toList();
        return values.isEmpty() ? null : values.stream().mapToDouble(d -> d).sum();
    }
}
