package io.threadlab.experiment.report;

import com.fasterxml.jackson.databind.JsonNode;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.Marker;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The report's charts, drawn with XChart and kept as SVG text so the report can inline them. */
public final class Charts {

    /** One colour per variant, the same in every chart; the mistakes share a muted palette. */
    static final Map<String, Color> COLOURS = Map.of(
            "imperative", new Color(0xD6, 0x27, 0x28),
            "reactive", new Color(0x1F, 0x77, 0xB4),
            "virtual-thread", new Color(0x2C, 0xA0, 0x2C),
            "imperative-rest", new Color(0xFF, 0x7F, 0x0E),
            "cpu-on-worker", new Color(0x8C, 0x56, 0x4B));
    private static final Color MISTAKE = new Color(0x7F, 0x7F, 0x7F);
    /** Marker per JVM start, so a reader sees at a glance whether the JVM starts agree. */
    private static final Marker[] JVM_MARKERS = {SeriesMarkers.CIRCLE, SeriesMarkers.DIAMOND, SeriesMarkers.SQUARE,
            SeriesMarkers.TRIANGLE_UP};

    private static final int WIDTH = 600;
    private static final int HEIGHT = 340;

    private Charts() {
    }

    /** Chart name (a file name without .svg) to SVG text, in the order the report shows them. */
    public static Map<String, String> all(Findings findings) {
        Map<String, String> charts = new LinkedHashMap<>();
        for (int level : findings.data().levels()) {
            charts.put("throughput-" + level, svg(dots(findings, level)));
        }
        charts.put("cpu-per-request", svg(cpuChart(findings)));
        for (int level : findings.data().levels()) {
            charts.put("latency-" + level, svg(latencyChart(findings, level)));
        }
        if (!findings.openSteps().isEmpty()) {
            charts.put("latency-vs-offered-load", svg(openModelChart(findings)));
        }
        if (!findings.jfrOverhead().isEmpty()) {
            charts.put("jfr-overhead", svg(overheadChart(findings)));
        }
        return charts;
    }

    /** Each repetition as a dot (shape: JVM start), the median as a bar, the 95 % interval as a whisker. */
    private static XYChart dots(Findings findings, int level) {
        List<Findings.Cell> cells = findings.cells().stream().filter(c -> c.level() == level).toList();
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT)
                .title("Throughput at " + level + " users: every repetition, median and 95 % CI")
                .xAxisTitle("").yAxisTitle("requests per second").build();
        style(chart.getStyler());
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
            Findings.Cell cell = cells.get(i);
            double x = i + 1;
            Stats.Summary s = cell.metrics().get("requests_per_second");
            Color colour = colour(cell.variant());
            line(chart, cell.variant() + " median", List.of(x - 0.3, x + 0.3), List.of(s.median(), s.median()),
                    colour, 3f);
            if (s.hasInterval()) {
                line(chart, cell.variant() + " CI", List.of(x, x), List.of(s.low(), s.high()), colour, 1f);
            }
            for (Findings.Dot dot : cell.dots()) {
                double offset = ((dot.repetition() % 4) - 1.5) * 0.06;
                XYSeries point = chart.addSeries(cell.variant() + " rep " + dot.repetition(),
                        List.of(x + offset), List.of(dot.value()));
                point.setMarker(JVM_MARKERS[(dot.jvm() - 1) % JVM_MARKERS.length]);
                point.setMarkerColor(colour);
                point.setLineColor(new Color(0, 0, 0, 0));
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

    private static CategoryChart cpuChart(Findings findings) {
        CategoryChart chart = category("CPU per request (lower is better; whiskers: 95 % CI)",
                "closed model: concurrent users", "CPU ms per request");
        for (String variant : findings.data().variants()) {
            List<String> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            List<Double> error = new ArrayList<>();
            for (Findings.Cell cell : findings.cells()) {
                if (cell.variant().equals(variant)) {
                    Stats.Summary s = cell.metrics().get("cpu_ms_per_request");
                    x.add(cell.level() + " users");
                    y.add(s.median());
                    // XChart draws symmetric whiskers: the larger side, so the interval is never understated
                    error.add(s.hasInterval() ? Math.max(s.high() - s.median(), s.median() - s.low()) : 0.0);
                }
            }
            if (!x.isEmpty()) {
                chart.addSeries(variant, x, y, error).setFillColor(colour(variant));
            }
        }
        chart.getStyler().setYAxisMin(0.0);
        return chart;
    }

    private static CategoryChart latencyChart(Findings findings, int level) {
        CategoryChart chart = category("Latency at " + level + " users (median of repetitions)", "percentile",
                "milliseconds");
        for (Findings.Cell cell : findings.cells()) {
            if (cell.level() == level) {
                chart.addSeries(cell.variant(), List.of("p50", "p90", "p99"), List.of(
                        cell.metrics().get("p50_ms").median(), cell.metrics().get("p90_ms").median(),
                        cell.metrics().get("p99_ms").median())).setFillColor(colour(cell.variant()));
            }
        }
        return chart;
    }

    private static XYChart openModelChart(Findings findings) {
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT)
                .title("Open model: p99 latency vs offered load (large dot: saturation knee)")
                .xAxisTitle("offered requests per second").yAxisTitle("p99 ms (log)").build();
        style(chart.getStyler());
        chart.getStyler().setYAxisLogarithmic(true);
        chart.getStyler().setXAxisLogarithmic(true);
        chart.getStyler().setMarkerSize(7);
        findings.openSteps().forEach((variant, steps) -> {
            List<Double> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            for (Findings.Step s : steps) {
                if (s.p99() != null && s.p99() > 0) {
                    x.add((double) s.offered());
                    y.add(s.p99());
                }
            }
            if (x.isEmpty()) {
                return;
            }
            XYSeries series = chart.addSeries(variant, x, y);
            series.setLineColor(colour(variant));
            series.setMarkerColor(colour(variant));
            series.setMarker(SeriesMarkers.CIRCLE);
            Optional<Integer> knee = Findings.knee(steps);
            knee.flatMap(k -> steps.stream().filter(s -> s.offered() == k && s.p99() != null).findFirst())
                    .ifPresent(s -> {
                        XYSeries marker = chart.addSeries(variant + " knee", List.of((double) s.offered()),
                                List.of(s.p99()));
                        marker.setMarker(SeriesMarkers.DIAMOND);
                        marker.setMarkerColor(colour(variant));
                        marker.setLineColor(new Color(0, 0, 0, 0));
                        marker.setShowInLegend(false);
                    });
        });
        return chart;
    }

    private static CategoryChart overheadChart(Findings findings) {
        CategoryChart chart = category("Cost of the detailed JFR recording (throughput with / without; whiskers: "
                + "95 % CI)", "closed model: concurrent users", "ratio (1 = no cost)");
        findings.jfrOverhead().forEach((variant, byLevel) -> {
            List<String> x = byLevel.keySet().stream().map(l -> l + " users").toList();
            List<Double> y = byLevel.values().stream().map(Stats.Ratio::ratio).toList();
            List<Double> error = byLevel.values().stream().map(r -> Double.isNaN(r.low()) ? 0.0
                    : Math.max(r.high() - r.ratio(), r.ratio() - r.low())).toList();
            chart.addSeries(variant, x, y, error).setFillColor(colour(variant));
        });
        chart.getStyler().setYAxisMin(0.0);
        chart.getStyler().setYAxisMax(1.2);
        return chart;
    }

    /**
     * One JVM's warm-up or time to peak: throughput (left axis) and the compiler's queue and CPU (right axis)
     * against seconds, with the quota it ran at in the title.
     */
    public static String warmUp(JsonNode outcome, String title) {
        XYChart chart = new XYChartBuilder().width(WIDTH).height(280).title(title)
                .xAxisTitle("seconds into the warm-up").yAxisTitle("requests per second").build();
        style(chart.getStyler());
        chart.getStyler().setMarkerSize(0);
        chart.setYAxisGroupTitle(1, "compile queue / compiler ms per s");
        List<Double> t = new ArrayList<>();
        List<Double> rate = new ArrayList<>();
        List<Double> queue = new ArrayList<>();
        List<Double> compiler = new ArrayList<>();
        boolean queueKnown = false;
        for (JsonNode s : outcome.path("samples")) {
            t.add(s.path("elapsed_seconds").asDouble());
            rate.add(s.path("requests_per_second").asDouble());
            long q = s.path("c1_queue").asLong(-1) + s.path("c2_queue").asLong(-1);
            queueKnown |= s.path("c2_queue").asLong(-1) >= 0;
            queue.add((double) Math.max(0, q));
            compiler.add(s.path("compiler_cpu_ms_per_second").asDouble());
        }
        if (t.isEmpty()) {
            return svg(chart);
        }
        String variant = outcome.path("variant").asText();
        XYSeries r = chart.addSeries("req/s", t, rate);
        r.setLineColor(colour(variant));
        r.setMarker(SeriesMarkers.NONE);
        if (queueKnown) {
            XYSeries q = chart.addSeries("compile queue", t, queue);
            q.setYAxisGroup(1);
            q.setLineColor(new Color(0x55, 0x55, 0x55));
            q.setLineStyle(new BasicStroke(1.2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f,
                    new float[] {4f, 3f}, 0f));
            q.setMarker(SeriesMarkers.NONE);
        }
        XYSeries c = chart.addSeries("compiler ms/s", t, compiler);
        c.setYAxisGroup(1);
        c.setLineColor(new Color(0xBC, 0xBD, 0x22));
        c.setMarker(SeriesMarkers.NONE);
        return svg(chart);
    }

    /** Every variant's time to peak at the quota on one time axis, from its JVM's start. */
    public static String timeToPeak(List<JsonNode> outcomes) {
        XYChart chart = new XYChartBuilder().width(WIDTH * 2 - 20).height(HEIGHT)
                .title("Time to peak at the quota: throughput from the JVM's start (dot: compiler finished)")
                .xAxisTitle("seconds since the JVM started").yAxisTitle("requests per second").build();
        style(chart.getStyler());
        chart.getStyler().setMarkerSize(0);
        chart.setYAxisGroupTitle(1, "compile queue (dashed)");
        for (JsonNode o : outcomes) {
            String variant = o.path("variant").asText();
            double offset = o.path("samples").size() == 0 ? 0 : o.path("seconds_to_peak").asDouble(Double.NaN);
            List<Double> t = new ArrayList<>();
            List<Double> rate = new ArrayList<>();
            List<Double> queue = new ArrayList<>();
            double sinceStart = o.path("started_after_seconds").asDouble(0);
            for (JsonNode s : o.path("samples")) {
                t.add(s.path("elapsed_seconds").asDouble() + sinceStart);
                rate.add(s.path("requests_per_second").asDouble());
                queue.add((double) Math.max(0, s.path("c2_queue").asLong(0)));
            }
            if (t.isEmpty()) {
                continue;
            }
            XYSeries r = chart.addSeries(variant, t, rate);
            r.setLineColor(colour(variant));
            r.setMarker(SeriesMarkers.NONE);
            XYSeries q = chart.addSeries(variant + " queue", t, queue);
            q.setYAxisGroup(1);
            q.setLineColor(colour(variant));
            q.setLineStyle(new BasicStroke(1f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f,
                    new float[] {3f, 3f}, 0f));
            q.setMarker(SeriesMarkers.NONE);
            q.setShowInLegend(false);
            if (!Double.isNaN(offset)) {
                double y = nearest(t, rate, offset);
                XYSeries peak = chart.addSeries(variant + " peak", List.of(offset), List.of(y));
                peak.setMarker(SeriesMarkers.CIRCLE);
                peak.setMarkerColor(colour(variant));
                peak.setLineColor(new Color(0, 0, 0, 0));
                peak.setShowInLegend(false);
            }
        }
        chart.getStyler().setMarkerSize(9);
        return svg(chart);
    }

    private static double nearest(List<Double> t, List<Double> y, double at) {
        int best = 0;
        for (int i = 1; i < t.size(); i++) {
            if (Math.abs(t.get(i) - at) < Math.abs(t.get(best) - at)) {
                best = i;
            }
        }
        return y.get(best);
    }

    private static CategoryChart category(String title, String xTitle, String yTitle) {
        CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT).title(title)
                .xAxisTitle(xTitle).yAxisTitle(yTitle).build();
        style(chart.getStyler());
        chart.getStyler().setErrorBarsColor(new Color(0x33, 0x33, 0x33));
        chart.getStyler().setAvailableSpaceFill(0.7);
        return chart;
    }

    static void style(org.knowm.xchart.style.AxesChartStyler styler) {
        styler.setChartBackgroundColor(Color.WHITE);
        styler.setPlotBackgroundColor(Color.WHITE);
        styler.setPlotBorderVisible(false);
        styler.setLegendPosition(Styler.LegendPosition.OutsideS);
        styler.setLegendLayout(Styler.LegendLayout.Horizontal);
        styler.setLegendBorderColor(Color.WHITE);
        styler.setChartTitleBoxVisible(false);
        styler.setChartTitleFont(new Font(Font.SANS_SERIF, Font.BOLD, 14));
        styler.setAxisTitleFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        styler.setAxisTickLabelsFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        styler.setLegendFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        styler.setPlotGridLinesColor(new Color(0xE5, 0xE5, 0xE5));
    }

    static Color colour(String variant) {
        return COLOURS.getOrDefault(variant, MISTAKE);
    }

    static String svg(Chart<?, ?> chart) {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            VectorGraphicsEncoder.saveVectorGraphic(chart, out, VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
            String svg = out.toString(StandardCharsets.UTF_8);
            int start = svg.indexOf("<svg");
            return start > 0 ? svg.substring(start) : svg; // drop the XML prolog and DOCTYPE, for inlining
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
