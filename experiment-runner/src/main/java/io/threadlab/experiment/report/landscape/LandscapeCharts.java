package io.threadlab.experiment.report.landscape;

import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.awt.Color;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The landscape's charts, one pair per JVM: throughput against users at every delay, the prediction made before
 * each point was measured dashed beside each measured line; and p99 against users. Users on a log scale: the grid spans 10 to thousands.
 */
public final class LandscapeCharts {

    private static final Color[] DELAY_COLOURS = {new Color(0x1b9e77), new Color(0xd95f02), new Color(0x7570b3),
            new Color(0xe7298a), new Color(0x66a61e), new Color(0xe6ab02), new Color(0xa6761d)};

    private LandscapeCharts() {
    }

    /** Chart name (a file name without .svg) to chart: the closed model's pairs, then the open model's. */
    public static Map<String, XYChart> of(List<Outcome> points, List<SloCapacity> open) {
        Map<String, List<Outcome>> byJvm = new TreeMap<>();
        points.forEach(p -> byJvm.computeIfAbsent(p.jvm(), j -> new java.util.ArrayList<>()).add(p));
        Map<String, XYChart> charts = new LinkedHashMap<>();
        byJvm.forEach((jvm, at) -> {
            charts.put("landscape-throughput-" + jvm, throughput(jvm, at));
            charts.put("landscape-p99-" + jvm, p99(jvm, at));
        });
        Map<Integer, List<SloCapacity>> byDelay = new TreeMap<>();
        open.forEach(o -> byDelay.computeIfAbsent(o.delayMs(), d -> new java.util.ArrayList<>()).add(o));
        byDelay.forEach((delay, at) -> charts.put("open-model-" + delay + "ms", openModel(delay, at)));
        return charts;
    }

    /** p99 against the offered rate, one line per JVM, the SLO's bound as a horizontal line. */
    private static XYChart openModel(int delayMs, List<SloCapacity> jvms) {
        XYChart chart = new XYChartBuilder().width(640).height(400).title("open model at " + delayMs
                + " ms: p99 against arrival rate").xAxisTitle("offered req/s").yAxisTitle("p99 (ms)").build();
        chart.getStyler().setYAxisLogarithmic(true);
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        double top = 0;
        int i = 0;
        for (SloCapacity o : jvms) {
            List<io.threadlab.experiment.collect.OpenStep> steps = o.steps().stream().filter(s -> s.p99Ms() != null
                    && s.p99Ms() > 0).toList();
            if (steps.isEmpty()) {
                continue;
            }
            XYSeries series = chart.addSeries(o.jvm(), steps.stream().map(s -> (double) s.offeredRate()).toList(),
                    steps.stream().map(io.threadlab.experiment.collect.OpenStep::p99Ms).toList());
            Color colour = DELAY_COLOURS[i++ % DELAY_COLOURS.length];
            series.setLineColor(colour);
            series.setMarkerColor(colour);
            top = Math.max(top, steps.getLast().offeredRate());
        }
        if (top > 0) {
            XYSeries bound = chart.addSeries("SLO bound", List.of(0.0, top), List.of(jvms.getFirst().boundMs(),
                    jvms.getFirst().boundMs()));
            bound.setLineColor(Color.GRAY);
            bound.setLineStyle(SeriesLines.DASH_DASH);
            bound.setMarker(SeriesMarkers.NONE);
        }
        return chart;
    }

    private static XYChart throughput(String jvm, List<Outcome> points) {
        XYChart chart = base(jvm + ": throughput against users, predicted ceiling dashed", "req/s");
        int i = 0;
        for (Map.Entry<Integer, List<Outcome>> delay : byDelay(points).entrySet()) {
            Color colour = DELAY_COLOURS[i++ % DELAY_COLOURS.length];
            List<Outcome> line = delay.getValue();
            XYSeries measured = chart.addSeries(delay.getKey() + " ms", line.stream().map(p -> (double) p.users())
                    .toList(), line.stream().map(Outcome::measured).toList());
            measured.setLineColor(colour);
            measured.setMarkerColor(colour);
            measured.setMarker(SeriesMarkers.CIRCLE);
            List<Outcome> foretold = line.stream().filter(p -> p.prediction().isPresent()).toList();
            if (foretold.isEmpty()) {
                continue;
            }
            XYSeries predicted = chart.addSeries(delay.getKey() + " ms predicted", foretold.stream()
                    .map(p -> (double) p.users()).toList(), foretold.stream().map(Outcome::predicted).toList());
            predicted.setLineColor(colour);
            predicted.setLineStyle(SeriesLines.DASH_DASH);
            predicted.setMarker(SeriesMarkers.NONE);
            predicted.setShowInLegend(false);
        }
        return chart;
    }

    private static XYChart p99(String jvm, List<Outcome> points) {
        XYChart chart = base(jvm + ": p99 latency against users", "p99 (ms)");
        chart.getStyler().setYAxisLogarithmic(true);
        int i = 0;
        for (Map.Entry<Integer, List<Outcome>> delay : byDelay(points).entrySet()) {
            Color colour = DELAY_COLOURS[i++ % DELAY_COLOURS.length];
            List<Outcome> line = delay.getValue().stream().filter(p -> p.readings().p99Ms() > 0).toList();
            if (!line.isEmpty()) {
                XYSeries series = chart.addSeries(delay.getKey() + " ms", line.stream().map(p -> (double) p.users())
                        .toList(), line.stream().map(p -> p.readings().p99Ms()).toList());
                series.setLineColor(colour);
                series.setMarkerColor(colour);
            }
        }
        return chart;
    }

    private static Map<Integer, List<Outcome>> byDelay(List<Outcome> points) {
        Map<Integer, List<Outcome>> byDelay = new TreeMap<>();
        points.stream().sorted(Comparator.comparingInt(Outcome::users))
                .forEach(p -> byDelay.computeIfAbsent(p.delayMs(), d -> new java.util.ArrayList<>()).add(p));
        return byDelay;
    }

    private static XYChart base(String title, String yAxis) {
        XYChart chart = new XYChartBuilder().width(640).height(400).title(title).xAxisTitle("users")
                .yAxisTitle(yAxis).build();
        chart.getStyler().setXAxisLogarithmic(true);
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.InsideNW);
        return chart;
    }
}
