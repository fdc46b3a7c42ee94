package io.threadlab.experiment.report;

import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.Burst;
import io.threadlab.experiment.plan.Variant;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * "The burst", in a run of {@code --shape burst}: at each delay and for each variant, the time from the common start
 * to the last answer beside the time predicted before the burst fired and the ceiling that set it, the failures by
 * cause, the most calls the variant held at the delay service at once, and k6's peak memory. Where a burst took
 * longer or shorter than predicted by more than the tolerance, or had failures, the reasons its own readings show (what
 * a request cost against the calibration, the CPU, k6, fewer calls at once than the ceiling counts, the collector's
 * pauses, late senders, the client's read timeout, failures); that none shows where none does.
 *
 * @param rows       the bursts, by delay, then variant; empty in any other run: no section
 * @param requests   the bursts' sizes, in words
 * @param sampleMillis how often the delay service's calls in progress were read
 * @param thresholds   for the tolerance
 */
record BurstSection(List<Row> rows, String requests, int sampleMillis, Thresholds thresholds) {

    /** One burst, as the table shows it; {@code recorded} marks the twin taken with the detailed JFR settings. */
    record Row(int delay, String variant, String colour, boolean recorded, String lastAnswer,
               String predicted, String binding, String gap, String errors, String p99, String held, String cpu,
               String k6, String k6Memory, List<String> why) {
    }

    /** A burst's variant used this much of its quota at least: the CPU was busy throughout. */
    static final double CPU_BUSY = 0.9;
    /** k6 took this much of a core or more during the burst: on this machine's 2 cores it shared the CPU. */
    static final double K6_BUSY = 0.5;
    /** The calls held at once fell this far below what the binding ceiling counts: the pool was not filled. */
    static final double SLOTS_SHORT = 0.8;
    /**
     * The collector paused the JVM for this share of the time beyond the prediction or more: a pause stops every
     * thread, so the burst's last wave comes that much later (the imperative burst at 100 ms of burst-1, +976 ms
     * with a full collection of 641 ms and a young one of 184 ms, the delay service idle meanwhile).
     */
    static final double GC_SHARE_OF_EXCESS = 0.5;

    static BurstSection of(ReportContext c) {
        List<WindowResult> bursts = c.run().windows().stream().filter(w -> w.burst() != null)
                .sorted(Comparator.comparing(WindowResult::delayMs).thenComparing(w -> order(w.variant()))
                        .thenComparing(WindowResult::recorded).thenComparing(WindowResult::jvm))
                .toList();
        double quota = c.run().confinement().variantCpuQuota();
        Object timeout = c.run().manifest().knobs().get(Axis.READ_TIMEOUT_MS.effect().quarkusProperty());
        Integer readTimeoutMs = timeout == null ? null : Integer.valueOf(String.valueOf(timeout));
        List<Row> rows = bursts.stream().map(w -> row(w, c.thresholds().tolerance(), quota, readTimeoutMs)).toList();
        String requests = bursts.stream().map(WindowResult::requests).distinct()
                .map(n -> String.format(Locale.ROOT, "%,d", n)).collect(Collectors.joining(", "));
        return new BurstSection(rows, requests, Burst.SAMPLE_MILLIS, c.thresholds());
    }

    private static int order(String variant) {
        return Variant.find(variant).map(Variant::port).orElse(Integer.MAX_VALUE); // the variants' own order
    }

    /**
     * @param quota         the variants' CPU quota, by which the CPU ceiling's time gives the CPU a request was to cost
     * @param readTimeoutMs the REST client's read timeout, which a wait for a pooled connection counts toward; null
     *                      where the run did not record it
     */
    static Row row(WindowResult w, double tolerance, double quota, Integer readTimeoutMs) {
        WindowResult.BurstFigures b = w.burst();
        Double gap = b.gap();
        return new Row(w.delayMs(), w.variant(), ChartStyle.hex(w.variant()), w.recorded(),
                ms(b.timeToLastAnswerMs()), ms(b.predictedMs()), b.predictedBinding(),
                gap == null ? "–" : String.format(Locale.ROOT, "%+.0f %%", gap * 100), errors(w.load()),
                ms(w.load().p99Ms()), b.peakDownstreamInFlight() == null ? "–"
                        : String.format(Locale.ROOT, "%,.0f", b.peakDownstreamInFlight()),
                b.cpuShareOfQuota() == null ? "–" : Numbers.pct(b.cpuShareOfQuota()),
                b.k6Cores() == null ? "–" : String.format(Locale.ROOT, "%.2f", b.k6Cores()),
                b.k6PeakRssMb() == null ? "not read" : String.format(Locale.ROOT, "%,.0f MB", b.k6PeakRssMb()),
                // a burst with failures is said why whatever its gap: its last answer may be a failure's
                (gap == null || Math.abs(gap) <= tolerance) && w.load().errors() == 0 ? List.of()
                        : why(w, gap == null ? 0 : gap, tolerance, quota, readTimeoutMs));
    }

    /**
     * What the burst's own readings show beside a gap: only what holds, each with its number; if nothing does, that
     * it is not explained by them.
     */
    static List<String> why(WindowResult w, double gap, double tolerance, double quota, Integer readTimeoutMs) {
        WindowResult.BurstFigures b = w.burst();
        List<String> why = new ArrayList<>();
        Double cpuCeilingMs = b.ceilingsMs().get("CPU");
        double measuredCpuMs = w.cpu().cpuMsPerRequest();
        if (cpuCeilingMs != null && measuredCpuMs > 0 && quota > 0 && w.requests() != null) {
            // the CPU ceiling's time is the requests × the CPU each was to cost ÷ the quota
            double predictedCpuMs = cpuCeilingMs * quota / w.requests();
            double more = measuredCpuMs / predictedCpuMs - 1;
            if (Math.abs(more) > tolerance && Math.signum(more) == Math.signum(gap)) {
                why.add(String.format(Locale.ROOT, "a request cost %.3f CPU-ms in the burst against the %.3f the"
                        + " closed model's calibration gave (%+.0f %%)", measuredCpuMs, predictedCpuMs, more * 100));
            }
        }
        if (gap > 0 && b.cpuShareOfQuota() != null && b.cpuShareOfQuota() >= CPU_BUSY
                && !"CPU".equals(b.predictedBinding())) {
            why.add(String.format(Locale.ROOT, "the variant used %s of its CPU quota over the burst's window: the CPU bound"
                    + " beside the %s", Numbers.pct(b.cpuShareOfQuota()), b.predictedBinding()));
        }
        if (gap > 0 && b.k6Cores() != null && b.k6Cores() >= K6_BUSY) {
            why.add(String.format(Locale.ROOT, "k6 used %.2f CPU over the burst, on the cores the variant and the"
                    + " delay service share", b.k6Cores()));
        }
        if (b.bindingSlots() != null && b.peakDownstreamInFlight() != null
                && b.peakDownstreamInFlight() < SLOTS_SHORT * b.bindingSlots()) {
            why.add(String.format(Locale.ROOT, "at most %,.0f calls were at the delay service at once, where the %s"
                    + " count %,d: the pool was not filled", b.peakDownstreamInFlight(), b.predictedBinding(),
                    b.bindingSlots()));
        }
        double pausedMs = w.gc() == null ? 0 : (w.gc().minorPauseSeconds() + w.gc().majorPauseSeconds()) * 1000;
        if (gap > 0 && b.predictedMs() != null && pausedMs > 0
                && pausedMs >= GC_SHARE_OF_EXCESS * gap * b.predictedMs()) {
            why.add(String.format(Locale.ROOT, "the collector paused the JVM %,.0f ms in the burst (%d full, %d young"
                    + " collections), every thread stopped: %.0f %% of the %,.0f ms beyond the prediction", pausedMs,
                    w.gc().majorCollections(), w.gc().minorCollections(), pausedMs / (gap * b.predictedMs()) * 100,
                    gap * b.predictedMs()));
        }
        if (b.lateSenders() > 0) {
            why.add(String.format(Locale.ROOT, "%d of k6's %d senders fired late (up to %,.0f ms)", b.lateSenders(),
                    b.senders(), b.maxFireLagMs()));
        }
        long timedOut = w.load().errorCauses().getOrDefault("http_504", 0L);
        if (timedOut > 0 && readTimeoutMs != null && b.predictedMs() != null && b.predictedMs() > readTimeoutMs) {
            why.add(String.format(Locale.ROOT, "%,d requests answered 504 after the client's read timeout (%,d ms),"
                    + " which their wait for a pooled connection counts toward, before the %s ceiling's last wave"
                    + " (%,.0f ms): those past the timeout failed rather than waited", timedOut, readTimeoutMs,
                    b.predictedBinding(), b.predictedMs()));
        } else if (w.load().errors() > 0) {
            why.add(String.format(Locale.ROOT, "%,d requests failed (%s): the last answer may be a failure's",
                    w.load().errors(), errors(w.load())));
        }
        if (why.isEmpty()) {
            why.add("not explained by the burst's readings (CPU, k6, calls at once, the collector, senders,"
                    + " failures)");
        }
        return why;
    }

    private static String errors(WindowResult.Load load) {
        if (load.errors() == 0) {
            return "0";
        }
        Map<String, Long> causes = load.errorCauses();
        return String.format(Locale.ROOT, "%,d", load.errors()) + (causes.isEmpty() ? "" : " (" + causes.entrySet()
                .stream().map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(", ")) + ")");
    }

    private static String ms(Double ms) {
        return ms == null ? "–" : String.format(Locale.ROOT, "%,.0f", ms);
    }
}
