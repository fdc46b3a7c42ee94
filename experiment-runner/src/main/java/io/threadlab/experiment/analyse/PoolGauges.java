package io.threadlab.experiment.analyse;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A database connection pool's own numbers in the service's Prometheus metrics, which the runner scrapes at each
 * window's edges (metrics/&lt;window&gt;-before.prom and -after.prom): the callers waiting for a connection and the
 * connections in use at each edge, and between the edges the acquisitions and the time they spent waiting. They say
 * what a recording cannot: a virtual thread's wait for a connection and a reactive query's wait in its pool's queue
 * leave no event. Agroal's (the JDBC variants') or the reactive PostgreSQL client's, whichever both scrapes carry.
 *
 * @param pool         the pool, as the sentences name it
 * @param metric       the waiting callers' metric, for a reader who looks it up
 * @param acquisitions connections acquired between the edges (the measured interval)
 * @param waitedMs     the time those acquisitions waited for a connection, summed
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record PoolGauges(String pool, String metric, double waitingBefore, double waitingAfter, Double activeBefore,
                         Double activeAfter, Double acquisitions, Double waitedMs) {

    /** One pool's metric names; {@code waitedToMs} scales its waiting-time sum to milliseconds. */
    private record Names(String pool, String waiting, String active, String acquired, String waited,
                         double waitedToMs) {
    }

    private static final List<Names> POOLS = List.of(
            new Names("Agroal", "agroal_awaiting_count", "agroal_active_count", "agroal_acquire_count_total",
                    "agroal_blocking_time_total_milliseconds", 1),
            // Vert.x counts every acquisition through the queue (sql_pool_queue_delay_seconds), waiting or not.
            new Names("the reactive client's pool", "sql_pool_queue_size", "sql_pool_active",
                    "sql_pool_queue_delay_seconds_count", "sql_pool_queue_delay_seconds_sum", 1000));

    /** The pool's numbers at {@code window}'s edges, or null where a scrape is missing or carries no pool. */
    static PoolGauges read(Path metricsDir, String window) {
        String before = text(metricsDir.resolve(window + "-before.prom"));
        String after = text(metricsDir.resolve(window + "-after.prom"));
        if (before == null || after == null) {
            return null;
        }
        for (Names n : POOLS) {
            Double waitingBefore = value(before, n.waiting());
            Double waitingAfter = value(after, n.waiting());
            if (waitingBefore != null && waitingAfter != null) {
                return new PoolGauges(n.pool(), n.waiting(), waitingBefore, waitingAfter, value(before, n.active()),
                        value(after, n.active()), difference(before, after, n.acquired(), 1),
                        difference(before, after, n.waited(), n.waitedToMs()));
            }
        }
        return null;
    }

    /** The mean wait of an acquisition between the edges, or NaN where unknown or none was made. */
    public double waitedMsPerAcquisition() {
        return acquisitions == null || waitedMs == null || acquisitions <= 0 ? Double.NaN : waitedMs / acquisitions;
    }

    private static Double difference(String before, String after, String metric, double scale) {
        Double from = value(before, metric);
        Double to = value(after, metric);
        return from == null || to == null ? null : Durations.round((to - from) * scale);
    }

    /** The sum of every series of {@code metric}, or null when the text has none. */
    static Double value(String prometheusText, String metric) {
        List<Double> values = prometheusText.lines()
                .filter(l -> l.startsWith(metric + " ") || l.startsWith(metric + "{"))
                .map(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).toList();
        return values.isEmpty() ? null : values.stream().mapToDouble(Double::doubleValue).sum();
    }

    private static String text(Path file) {
        try {
            return Files.isRegularFile(file) ? Files.readString(file) : null;
        } catch (IOException e) {
            return null; // the pool's numbers are an addition: without them the recording still speaks
        }
    }
}
