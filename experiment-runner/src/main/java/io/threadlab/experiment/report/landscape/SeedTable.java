package io.threadlab.experiment.report.landscape;

import io.threadlab.experiment.plan.Variant;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The seeds' most striking table, reproduced at its own regime: Spring Boot, a 300 ms downstream sleep, 3,000 users,
 * platform-thread pools of 200, 512 and 800, virtual threads and WebFlux. Their rows follow Little's law almost to
 * the request (threads ÷ 0.3 s); each of ours stands beside theirs with our own prediction and what bound it.
 *
 * @param ours      our measurement at 300 ms and 3,000 users on the matching JVM, empty when not measured
 */
public record SeedTable(List<Row> rows) {

    public static final int DELAY_MS = 300;
    public static final int USERS = 3000;

    /** One row: their number, the JVM that matches it here, and ours (measured, predicted, binding ceiling). */
    public record Row(String theirs, double theirRate, String matchingJvm, Optional<Outcome> ours) {
        /** Their rate over what their own Little's law allows: threads ÷ 0.3 s (NaN for the unbounded rows). */
        public String explanation() {
            if (ours.isEmpty()) {
                return String.format(Locale.ROOT, "not measured here: run ./experiment map --delay-ms %d --levels %d"
                        + "%s", DELAY_MS, USERS, matchingJvm.contains("-w") ? " --worker-max 200,512,800" : "");
            }
            Outcome p = ours.get();
            if (p.binding().isEmpty()) {
                return String.format(Locale.ROOT, "ours measured %,.0f req/s; not predicted (its JVM was not"
                        + " calibrated)", p.measured());
            }
            return String.format(Locale.ROOT, "ours bound by %s (%s): predicted %,.0f req/s before it was measured,"
                    + " measured %,.0f (%.0f %%)", p.binding().get().label(), p.binding().get().formula(),
                    p.predicted(), p.measured(), 100 * p.ratio());
        }
    }

    public static SeedTable of(List<Outcome> points) {
        List<Row> rows = new ArrayList<>();
        String workers = Variant.model(Variant.Threads.WORKER).label();
        rows.add(row("200 platform threads (Tomcat)", 624.5, workers, 200, points));
        rows.add(row("512 platform threads", 1564, workers, 512, points));
        rows.add(row("800 platform threads", 2340, workers, 800, points));
        rows.add(row("virtual threads", 5217, Variant.VIRTUAL_THREAD.label(), null, points));
        rows.add(row("WebFlux (reactive)", 5281, Variant.REACTIVE.label(), null, points));
        return new SeedTable(rows);
    }

    private static Row row(String theirs, double rate, String variant, Integer workers, List<Outcome> points) {
        Optional<Outcome> ours = points.stream().filter(p -> p.delayMs() == DELAY_MS && p.users() == USERS
                && p.variant().equals(variant) && (workers == null || workers.equals(p.workerMax())))
                .max((a, b) -> Double.compare(a.measured(), b.measured()));
        String jvm = workers == null ? variant : variant + "-w" + workers;
        return new Row(theirs, rate, jvm, ours);
    }

    public boolean anyMeasured() {
        return rows.stream().anyMatch(r -> r.ours().isPresent());
    }
}
