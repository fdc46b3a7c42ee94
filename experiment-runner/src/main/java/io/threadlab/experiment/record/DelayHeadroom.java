package io.threadlab.experiment.record;

import io.threadlab.experiment.process.ServiceProcess;

/**
 * How late the delay service was: the mean wait it actually served in a window, from two scrapes of its
 * {@code delay_served_seconds} timer. Near the requested 10 ms means it was not the bottleneck.
 */
public final class DelayHeadroom {

    private DelayHeadroom() {
    }

    /** @param nanos when the scrape was answered ({@link System#nanoTime()}) */
    public record Counters(double count, double sumSeconds, long nanos) {
    }

    /** The delay service's counters now: read at no cost to the variant (the delay service is not confined). */
    public static Counters readNow(ServiceProcess delayService) {
        return read(delayService.get("/q/metrics"), System.nanoTime());
    }

    public static Counters read(String prometheusText, long nanos) {
        return new Counters(value(prometheusText, "delay_served_seconds_count"),
                value(prometheusText, "delay_served_seconds_sum"), nanos);
    }

    /** Mean served wait in ms between two readings, or NaN when nothing was served. */
    public static double meanServedMs(Counters before, Counters after) {
        double n = after.count() - before.count();
        return n <= 0 ? Double.NaN : (after.sumSeconds() - before.sumSeconds()) / n * 1000.0;
    }

    private static double value(String text, String metric) {
        return text.lines().filter(l -> l.startsWith(metric + " ") || l.startsWith(metric + "{"))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
    }
}
