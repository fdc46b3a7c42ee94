package io.threadlab.experiment.load;

/**
 * Counters read from a variant's Prometheus text while load runs: requests answered on {@code /api} (for live
 * throughput without asking k6) and milliseconds spent JIT-compiling (for knowing when the JVM is warm).
 */
public final class LiveCounters {

    private LiveCounters() {
    }

    /** Sum of {@code http_server_requests_seconds_count} over every series with {@code uri="/api"}. */
    public static double apiRequests(String prometheusText) {
        return sum(prometheusText, "http_server_requests_seconds_count{", "uri=\"/api\"");
    }

    /** {@code jvm_compilation_time_ms_total}, or NaN when the service does not publish it. */
    public static double compilationMillis(String prometheusText) {
        boolean present = prometheusText.lines().anyMatch(l -> l.startsWith("jvm_compilation_time_ms_total"));
        return present ? sum(prometheusText, "jvm_compilation_time_ms_total", "") : Double.NaN;
    }

    private static double sum(String text, String prefix, String mustContain) {
        return text.lines().filter(l -> l.startsWith(prefix) && l.contains(mustContain))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
    }
}
