package io.threadlab.experiment.report;

import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

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

    /** One colour per variant, the same in every chart. */
    static final Map<String, Color> COLOURS = Map.of(
            "imperative", new Color(0xD6, 0x27, 0x28),
            "reactive", new Color(0x1F, 0x77, 0xB4),
            "virtual-thread", new Color(0x2C, 0xA0, 0x2C));

    private static final int WIDTH = 600;
    private static final int HEIGHT = 340;

    private Charts() {
    }

    /** Chart name (a file name without .svg) to SVG text, in the order the report shows them. */
    public static Map<String, String> all(Findings findings) {
        Map<String, String> charts = new LinkedHashMap<>();
        charts.put("throughput", svg(barChart(findings, "Throughput (mean, whiskers: 95 % CI)", "requests per second",
                "requests_per_second")));
        charts.put("cpu-per-request", svg(barChart(findings, "CPU per request (lower is better)", "CPU ms per request",
                "cpu_ms_per_request")));
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

    private static CategoryChart barChart(Findings findings, String title, String yTitle, String column) {
        CategoryChart chart = category(title, "closed model: concurrent users", yTitle);
        for (String variant : findings.data().variants()) {
            List<String> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            List<Double> error = new ArrayList<>();
            for (Findings.Cell cell : findings.cells()) {
                if (cell.variant().equals(variant)) {
                    Stats.Summary s = cell.metrics().get(column);
                    x.add(cell.level() + " users");
                    y.add(s.mean());
                    error.add(s.hasInterval() ? (s.high() - s.low()) / 2 : 0.0);
                }
            }
            if (!x.isEmpty()) {
                chart.addSeries(variant, x, y, error).setFillColor(colour(variant));
            }
        }
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
                .title("Open model: p99 latency vs offered load (ring: saturation knee)")
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
                        marker.setMarker(SeriesMarkers.CIRCLE);
                        marker.setMarkerColor(colour(variant));
                        marker.setLineColor(new Color(0, 0, 0, 0));
                        marker.setShowInLegend(false);
                    });
        });
        // a ring around each knee: a larger, hollow-looking second marker
        chart.getStyler().setMarkerSize(8);
        return chart;
    }

    private static CategoryChart overheadChart(Findings findings) {
        CategoryChart chart = category("Cost of the detailed JFR recording (throughput with / without)",
                "closed model: concurrent users", "ratio (1 = no cost)");
        findings.jfrOverhead().forEach((variant, byLevel) -> chart.addSeries(variant,
                byLevel.keySet().stream().map(l -> l + " users").toList(), List.copyOf(byLevel.values()))
                .setFillColor(colour(variant)));
        chart.getStyler().setYAxisMin(0.0);
        chart.getStyler().setYAxisMax(1.2);
        return chart;
    }

    private static CategoryChart category(String title, String xTitle, String yTitle) {
        CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT).title(title)
                .xAxisTitle(xTitle).yAxisTitle(yTitle).build();
        style(chart.getStyler());
        chart.getStyler().setErrorBarsColor(new Color(0x33, 0x33, 0x33));
        chart.getStyler().setAvailableSpaceFill(0.7);
        return chart;
    }

    private static void style(org.knowm.xchart.style.AxesChartStyler styler) {
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

    private static Color colour(String variant) {
        return COLOURS.getOrDefault(variant, Color.GRAY);
    }

    private static String svg(Chart<?, ?> chart) {
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
