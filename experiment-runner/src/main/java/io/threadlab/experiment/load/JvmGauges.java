package io.threadlab.experiment.load;

import java.util.List;
import java.util.function.Predicate;

/** A few JVM gauges from a variant's Prometheus text: memory after GC, heap in use, live platform threads. */
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

    private static Double sum(String prometheusText, Predicate<String> series) {
        List<Double> values = prometheusText.lines().filter(series)
                .map(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).toList();
        return values.isEmpty() ? null : values.stream().mapToDouble(d -> d).sum();
    }
}
