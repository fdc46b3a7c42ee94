package io.threadlab.experiment.report;

import io.threadlab.experiment.collect.OpenStep;
import io.threadlab.experiment.plan.Point;
import io.threadlab.experiment.report.landscape.SloCapacity;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.Marker;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.awt.BasicStroke;
import java.awt.Color;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/** The report's charts of the measured cells, drawn with XChart and kept as SVG text so the report can inline them. */
final class Charts {

    /** A chart: its name (a file name without .svg) and its SVG. */
    record Figure(String name, String svg) {
    }

    /** Every chart of a run, as the html groups them; a chart the run has nothing for is null. */
    record Figures(List<Figure> throughput, List<Figure> latency, Figure cost, Figure cpu, Figure open,
                   Figure timeToPeak, List<Figure> landscape) {

        /** In the order the markdown lists them and charts/ holds them. */
        public List<Figure> all() {
            List<Figure> all = new ArrayList<>(throughput);
            all.addAll(latency);
            Stream.of(open, cost, cpu, timeToPeak).filter(Objects::nonNull).forEach(all::add);
            all.addAll(landscape);
            return all;
        }

        /** Every chart but the landscape's, which its own section shows. */
        public List<Figure> main() {
            List<Figure> main = new ArrayList<>(all());
            main.removeAll(landscape);
            return main;
        }

        /** Latency, with the recording's cost beside it. */
        public List<Figure> latencyAndCost() {
            List<Figure> figures = new ArrayList<>(latency);
            Optional.ofNullable(cost).ifPresent(figures::add);
            return figures;
        }
    }

    /** Marker per JVM start, so a reader sees at a glance whether the JVM starts agree. */
    private static final Marker[] JVM_MARKERS = {SeriesMarkers.CIRCLE, SeriesMarkers.DIAMOND, SeriesMarkers.SQUARE,
            SeriesMarkers.TRIANGLE_UP};
    private static final Color TRANSPARENT = new Color(0, 0, 0, 0);
    private static final int WIDTH = 600;
    private static final int HEIGHT = 340;

    private Charts() {
    }

    static Figures of(Run run, List<Cell> cells, Ratios ratios, List<CpuBreakdown.Bar> bars,
                      Map<String, XYChart> landscape) {
        Map<String, Map<Point, Stats.Ratio>> costs = ratios.recordingCosts();
        List<Point> recordedByAll = pointsEveryVariantRecorded(costs);
        List<SloCapacity> open = SloCapacity.of(run.windows());
        return new Figures(throughput(run, cells), latency(run, cells),
                recordedByAll.isEmpty() ? null : new Figure("jfr-overhead", recordingCost(run, costs, recordedByAll)),
                bars.isEmpty() ? null : new Figure("where-the-cpu-goes", CpuBreakdown.svg(run, bars)),
                open.isEmpty() ? null : new Figure("latency-vs-offered-load", openModel(run, open)),
                run.timesToPeak().isEmpty() ? null
                        : new Figure("time-to-peak", WarmUpCharts.timeToPeak(run.timesToPeak())),
                landscape.entrySet().stream().map(e -> new Figure(e.getKey(), ChartStyle.svg(e.getValue()))).toList());
    }

    private static List<Figure> throughput(Run run, List<Cell> cells) {
        List<Figure> figures = new ArrayList<>();
        for (Point p : run.points()) {
            List<Cell> at = cells.stream().filter(c -> c.point().equals(p)).toList();
            if (!at.isEmpty()) {
                figures.add(new Figure("throughput-" + run.slug(p), ChartStyle.svg(dots(run, p, at))));
            }
        }
        // XChart cannot draw a category chart without categories, nor a series without a number (every request of
        // a run failed: no CPU per request)
        List<Point> common = pointsEveryVariantHas(run, cells);
        if (!common.isEmpty()) {
            figures.add(new Figure("cpu-per-request", ChartStyle.svg(cpuChart(run, cells, common))));
        }
        return figures;
    }

    /**
     * The points at which every variant with a CPU per request has one, in the cells' order. XChart draws a category
     * chart's bars by position, so each series must have every category, and a missing bar cannot be left out where
     * whiskers are drawn (a null value throws, NaN is written into the SVG): a point some variant was not measured at
     * (a worker variant's parallel fan-out at as many users as workers) is left out of the chart, not of the tables.
     */
    private static List<Point> pointsEveryVariantHas(Run run, List<Cell> cells) {
        List<Cell> measured = cells.stream().filter(c -> Double.isFinite(c.get(Metric.CPU_PER_REQUEST).median()))
                .toList();
        List<String> variants = run.variants().stream()
                .filter(v -> measured.stream().anyMatch(c -> c.variant().equals(v))).toList();
        return measured.stream().map(Cell::point).distinct().filter(p -> variants.stream().allMatch(v -> measured
                .stream().anyMatch(c -> c.variant().equals(v) && c.point().equals(p)))).toList();
    }

    private static List<Figure> latency(Run run, List<Cell> cells) {
        List<Figure> figures = new ArrayList<>();
        for (Point p : run.points()) {
            List<Cell> at = cells.stream().filter(c -> c.point().equals(p)).toList();
            if (!at.isEmpty()) {
                figures.add(new Figure("latency-" + run.slug(p), ChartStyle.svg(latencyChart(run, p, at))));
            }
        }
        return figures;
    }

    /** Each repetition as a dot (shape: JVM start), the median as a bar, the 95 % interval as a whisker. */
    private static XYChart dots(Run run, Point p, List<Cell> cells) {
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT)
                .title("Throughput at " + run.label(p) + ": every repetition, median and " + Numbers.CONFIDENCE + " CI")
                .xAxisTitle("").yAxisTitle("requests per second").build();
        ChartStyle.style(chart.getStyler());
        chart.getStyler().setXAxisMin(0.4);
        chart.getStyler().setXAxisMax(cells.size() + 0.6);
        chart.getStyler().setYAxisMin(0.0);
        chart.getStyler().setxAxisTickLabelsFormattingFunction(x -> {
            long i = Math.round(x);
            return Math.abs(x - i) < 1e-6 && i >= 1 && i <= cells.size() ? cells.get((int) i - 1).variant() : " ";
        });
        chart.getStyler().setXAxisTickMarkSpacingHint(40);
        chart.getStyler().setMarkerSize(8);
        chart.getStyler().setLegendVisible(false);
        for (int i = 0; i < cells.size(); i++) {
            Cell cell = cells.get(i);
            double x = i + 1;
            Stats.Summary s = cell.get(Metric.THROUGHPUT);
            Color colour = ChartStyle.colour(cell.variant());
            line(chart, cell.variant() + " median", List.of(x - 0.3, x + 0.3), List.of(s.median(), s.median()),
                    colour, 3f);
            if (s.hasInterval()) {
                line(chart, cell.variant() + " CI", List.of(x, x), List.of(s.low(), s.high()), colour, 1f);
            }
            for (Cell.Dot dot : cell.dots()) {
                double offset = ((dot.repetition() % 4) - 1.5) * 0.06;
                XYSeries point = chart.addSeries(cell.variant() + " rep " + dot.repetition(), List.of(x + offset),
                        List.of(dot.value()));
                point.setMarker(JVM_MARKERS[Math.floorMod(dot.jvm() - 1, JVM_MARKERS.length)]);
                point.setMarkerColor(colour);
                point.setLineColor(TRANSPARENT);
            }
        }
        return chart;
    }

    private static void line(XYChart chart, String name, List<Double> x, List<Double> y, Color colour, float width) {
        XYSeries series = chart.addSeries(name, x, y);
        series.setMarker(SeriesMarkers.NONE);
        series.setLineColor(colour);
        series.setLineStyle(new BasicStroke(width));
    }

    private static CategoryChart cpuChart(Run run, List<Cell> cells, List<Point> points) {
        boolean all = cells.stream().map(Cell::point).distinct().count() == points.size();
        CategoryChart chart = category("CPU per request (lower is better; whiskers: " + Numbers.CONFIDENCE + " CI)"
                + (all ? "" : "; at the points every variant was measured at"), "closed model: concurrent users",
                "CPU ms per request");
        for (String variant : run.variants()) {
            List<String> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            List<Double> error = new ArrayList<>();
            for (Cell cell : cells) {
                Stats.Summary s = cell.get(Metric.CPU_PER_REQUEST);
                if (cell.variant().equals(variant) && Double.isFinite(s.median()) && points.contains(cell.point())) {
                    x.add(run.label(cell.point()));
                    y.add(s.median());
                    // XChart draws symmetric whiskers: the larger side, so the interval is never understated
                    error.add(s.hasInterval() ? Math.max(s.high() - s.median(), s.median() - s.low()) : 0.0);
                }
            }
            if (!x.isEmpty()) {
                chart.addSeries(variant, x, y, error).setFillColor(ChartStyle.colour(variant));
            }
        }
        chart.getStyler().setYAxisMin(0.0);
        return chart;
    }

    private static CategoryChart latencyChart(Run run, Point p, List<Cell> cells) {
        CategoryChart chart = category("Latency at " + run.label(p) + " (median of repetitions)", "percentile",
                "milliseconds");
        for (Cell cell : cells) {
            chart.addSeries(cell.variant(), List.of("p50", "p90", "p99"), List.of(cell.get(Metric.P50).median(),
                    cell.get(Metric.P90).median(), cell.get(Metric.P99).median()))
                    .setFillColor(ChartStyle.colour(cell.variant()));
        }
        return chart;
    }

    /** Each variant's steps at each delay; the diamond: its SLO capacity, the highest rate that met the SLO. */
    private static String openModel(Run run, List<SloCapacity> open) {
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT)
                .title("Open model: p99 latency vs offered load (diamond: SLO capacity)")
                .xAxisTitle("offered requests per second").yAxisTitle("p99 ms (log)").build();
        ChartStyle.style(chart.getStyler());
        chart.getStyler().setYAxisLogarithmic(true);
        chart.getStyler().setXAxisLogarithmic(true);
        chart.getStyler().setMarkerSize(7);
        Map<String, Integer> named = new HashMap<>();
        for (SloCapacity s : open) {
            List<OpenStep> drawn = s.steps().stream().filter(step -> step.p99Ms() != null && step.p99Ms() > 0)
                    .toList();
            if (drawn.isEmpty()) {
                continue;
            }
            Color colour = ChartStyle.colour(s.variant());
            String base = s.jvm() + (run.severalDelays() ? " at " + s.delayMs() + " ms" : "");
            // two points of one JVM at one delay (the page through the plain client and through Hibernate) are two
            // series: XChart refuses a name twice
            int seen = named.merge(base, 1, Integer::sum);
            String name = seen == 1 ? base : base + " (" + seen + ")";
            XYSeries series = chart.addSeries(name, drawn.stream().map(step -> (double) step.offeredRate())
                    .toList(), drawn.stream().map(OpenStep::p99Ms).toList());
            series.setLineColor(colour);
            series.setMarkerColor(colour);
            series.setMarker(SeriesMarkers.CIRCLE);
            java.util.Optional.ofNullable(s.capacity()).flatMap(k -> drawn.stream()
                    .filter(step -> step.offeredRate() == k).findFirst()).ifPresent(capacity -> {
                        XYSeries marker = chart.addSeries(name + " SLO capacity",
                                List.of((double) capacity.offeredRate()), List.of(capacity.p99Ms()));
                        marker.setMarker(SeriesMarkers.DIAMOND);
                        marker.setMarkerColor(colour);
                        marker.setLineColor(TRANSPARENT);
                        marker.setShowInLegend(false);
                    });
        }
        return ChartStyle.svg(chart);
    }

    /**
     * The points every variant has a recording cost at, in the first variant's order: as for the CPU chart, each
     * series must have every category (fanout-4's imperative had no parallel fan-out at 400 users, and the chart
     * threw), so the others are left out of the chart, not of the table.
     */
    private static List<Point> pointsEveryVariantRecorded(Map<String, Map<Point, Stats.Ratio>> costs) {
        return costs.values().stream().map(byPoint -> List.copyOf(byPoint.keySet()))
                .reduce((a, b) -> a.stream().filter(b::contains).toList()).orElse(List.of());
    }

    private static String recordingCost(Run run, Map<String, Map<Point, Stats.Ratio>> costs, List<Point> points) {
        boolean all = costs.values().stream().allMatch(byPoint -> byPoint.size() == points.size());
        CategoryChart chart = category("Cost of the detailed JFR recording (throughput with / without; whiskers: "
                + Numbers.CONFIDENCE + " CI)" + (all ? "" : "; at the points every variant was recorded at"),
                "closed model: concurrent users", "ratio (1 = no cost)");
        costs.forEach((variant, byPoint) -> {
            List<Stats.Ratio> at = points.stream().map(byPoint::get).toList();
            List<String> x = points.stream().map(run::label).toList();
            List<Double> y = at.stream().map(Stats.Ratio::ratio).toList();
            List<Double> error = at.stream().map(r -> Double.isNaN(r.low()) ? 0.0
                    : Math.max(r.high() - r.ratio(), r.ratio() - r.low())).toList();
            chart.addSeries(variant, x, y, error).setFillColor(ChartStyle.colour(variant));
        });
        chart.getStyler().setYAxisMin(0.0);
        chart.getStyler().setYAxisMax(1.2);
        return ChartStyle.svg(chart);
    }

    private static CategoryChart category(String title, String xTitle, String yTitle) {
        CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT).title(title)
                .xAxisTitle(xTitle).yAxisTitle(yTitle).build();
        ChartStyle.style(chart.getStyler());
        chart.getStyler().setErrorBarsColor(new Color(0x33, 0x33, 0x33));
        chart.getStyler().setAvailableSpaceFill(0.7);
        return chart;
    }
}
