package io.threadlab.experiment.report;

import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.Downstream;
import io.threadlab.experiment.plan.Point;
import java.util.List;
import java.util.Locale;

/** The cells as the summary, memory and ratio tables show them, one row per variant and point. */
final class SummaryTables {

    /** A column of numbers: its heading and unit. */
    record Heading(String heading, String unit) {
    }

    /** Which point a row is about: the delay (shown only when the run has several) and the users. */
    record At(String delay, String users) {
    }

    record SummaryRow(At at, String variant, String colour, List<String> values, String cv, boolean noisy,
                      String n, String interval) {
    }

    record MemoryRow(At at, String variant, String colour, List<String> values, String virtualThreads) {
    }

    record DatabaseRow(At at, String variant, String colour, List<String> values) {
    }

    record RatioRow(At at, String variant, String colour, RatioCell throughput, RatioCell p99, RatioCell cpu) {
    }

    record SplitRow(At at, String measure, RatioCell total, RatioCell stack, RatioCell threading,
                    String stackShare) {
    }

    private SummaryTables() {
    }

    static List<Heading> headings(List<Metric> metrics) {
        return metrics.stream().map(m -> new Heading(m.heading(), m.unit())).toList();
    }

    static At at(Point p) {
        boolean database = p.has(Axis.DOWNSTREAM) && p.get(Axis.DOWNSTREAM) == Downstream.DB;
        boolean fanOut = p.has(Axis.FAN_OUT) && p.get(Axis.FAN_OUT) > 1;
        return new At(p.get(Axis.DELAY_MS) + (database ? " (database)" : "") + (fanOut ? ", " + p.get(Axis.FAN_OUT)
                + " calls " + p.get(Axis.FAN_OUT_MODE).label() : "") + others(p), String.valueOf(p.get(Axis.USERS)));
    }

    /** Any other window axis of the point, in words, where its value is not the one names leave out. */
    private static String others(Point p) {
        StringBuilder words = new StringBuilder();
        for (Axis<?> axis : p.only(Axis.Scope.WINDOW).axes()) {
            if (!List.of(Axis.USERS, Axis.DELAY_MS, Axis.DOWNSTREAM, Axis.FAN_OUT, Axis.FAN_OUT_MODE).contains(axis)
                    && !axis.quiet(p.get(axis))) {
                words.append(", ").append(p.only(axis).describe());
            }
        }
        return words.toString();
    }

    /**
     * The summary's headings: every summary metric, and where the services ran elsewhere and the round trip to them
     * was measured, the p50 and p99 less that round trip, beside them.
     */
    static List<Heading> summaryHeadings(LoadOrigin origin) {
        List<Heading> headings = new java.util.ArrayList<>(headings(Metric.SUMMARY));
        if (origin.subtractsWire()) {
            headings.add(new Heading("p50 less the wire", "ms"));
            headings.add(new Heading("p99 less the wire", "ms"));
        }
        return headings;
    }

    static List<SummaryRow> summary(List<Cell> cells, LoadOrigin origin) {
        return cells.stream().map(c -> {
            Stats.Summary s = c.get(Metric.THROUGHPUT);
            List<String> values = new java.util.ArrayList<>(Metric.SUMMARY.stream()
                    .map(m -> Numbers.cell(c.get(m), m.digits())).toList());
            if (origin.subtractsWire()) { // k6's latency holds one round trip per request: the wire's, not the JVM's
                for (Metric m : List.of(Metric.P50, Metric.P99)) {
                    values.add(c.get(m).n() == 0 ? "–" : Numbers.number(c.get(m).median() - origin.wireMs(),
                            m.digits()));
                }
            }
            return new SummaryRow(at(c.point()), c.variant(), ChartStyle.hex(c.variant()), values,
                    Numbers.pct(s.cv()), s.cv() > SpreadChecks.TARGET_CV, s.n() + " (" + s.jvms() + ")",
                    s.method().words());
        }).toList();
    }

    static List<MemoryRow> memory(List<Cell> cells, List<Recorded> recorded) {
        return cells.stream().map(c -> new MemoryRow(at(c.point()), c.variant(), ChartStyle.hex(c.variant()),
                Metric.MEMORY.stream().map(m -> Numbers.number(c.get(m).median(), m.digits())).toList(),
                virtualThreadsPerSecond(recorded, c))).toList();
    }

    /** The database beside each cell whose requests waited on it; none in a run without it. */
    static List<DatabaseRow> database(List<Cell> cells) {
        return cells.stream().filter(c -> c.point().has(Axis.DOWNSTREAM)
                        && c.point().get(Axis.DOWNSTREAM) == Downstream.DB)
                .map(c -> new DatabaseRow(at(c.point()), c.variant(), ChartStyle.hex(c.variant()),
                        Metric.DATABASE.stream().map(m -> Numbers.number(c.get(m).median(), m.digits())).toList()))
                .toList();
    }

    /**
     * Virtual threads started per second in the cell's recorded windows (the median over them), from the analysis'
     * jdk.VirtualThreadStart counts: no counter outside JFR says how many a JVM started.
     */
    private static String virtualThreadsPerSecond(List<Recorded> recorded, Cell c) {
        double[] rates = recorded.stream().filter(r -> r.label().equals(c.variant())
                        && r.point().filter(c.point()::equals).isPresent() && r.recording().coverage().seconds() > 0)
                .mapToDouble(r -> r.recording().virtualThreads().virtualThreadsStarted() / r.recording().coverage().seconds()).toArray();
        return rates.length == 0 ? "–" : Numbers.number(Stats.median(rates), 0);
    }

    /** Each main variant against the worker-thread model, at every point. */
    static List<RatioRow> againstBaseline(Run run, Ratios ratios) {
        String baseline = Splits.baseline().label();
        return run.points().stream().flatMap(p -> run.mainVariants().stream().filter(v -> !v.equals(baseline))
                .map(v -> new RatioRow(at(p), v, ChartStyle.hex(v),
                        RatioCell.of(ratios.of(v, baseline, p, Metric.THROUGHPUT)),
                        RatioCell.of(ratios.of(v, baseline, p, Metric.P99)),
                        RatioCell.of(ratios.of(v, baseline, p, Metric.CPU_PER_REQUEST))))).toList();
    }

    static List<SplitRow> splits(List<Splits.Split> splits) {
        return splits.stream().map(s -> new SplitRow(at(s.point()), (s.measure() == Metric.THROUGHPUT ? "throughput"
                : s.measure().heading()) + " vs " + s.model(), RatioCell.of(s.total()), RatioCell.of(s.stack()),
                RatioCell.of(s.threading()), Numbers.pct(s.stackShare()))).toList();
    }

    /** The claims beside this run: the ratio at the claim's regime, or what to run to measure it there. */
    record ClaimRow(String claim, String source, String setup, String comparison, String thisRun, boolean measured,
                    String published, String differences) {
    }

    static List<ClaimRow> claims(Run run, List<Claims.Compared> compared) {
        return compared.stream().map(c -> {
            Claims.Claim claim = c.claim();
            String regime = claim.regime();
            String memory = c.rss().map(r -> "; RSS " + Numbers.ratio(r)).orElse("");
            return new ClaimRow(claim.claim(), claim.source(), claim.setup(), claim.comparison() + " at "
                    + c.point().map(run::label).orElse(regime), c.point().isPresent() ? Numbers.ratio(c.thisRun())
                    + memory : "not measured at this regime (run " + c.howToMeasure() + ")", c.point().isPresent(),
                    Numbers.number(claim.published(), 2) + "×" + (claim.publishedRss() == null ? ""
                    : "; RSS " + Numbers.number(claim.publishedRss(), 2) + "×"), claim.differences());
        }).toList();
    }
}
