package io.threadlab.experiment.report;

import io.threadlab.experiment.plan.Point;
import io.threadlab.experiment.analyse.AnalysisFile;
import io.threadlab.experiment.analyse.Layer;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

import java.awt.Color;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Where the CPU goes: per variant and closed-model point, the CPU milliseconds per request of each layer (HTTP
 * server, REST framework, REST client, JSON, ..., JIT/GC/VM threads). Each recorded window's CPU per request (its
 * results row) is shared out by the layer shares the thread analysis found in its recording (analysis.json,
 * cpu_by_layer); repetitions of a cell are averaged. These are the recorded twin windows, so JFR's own cost is in.
 */
final class CpuBreakdown {

    /** One stacked bar: a variant (or mistake) at a point, its CPU ms per request by layer label, in layer order. */
    record Bar(String variant, Point point, Map<String, Double> cpuMsPerRequestByLayer) {

        double total() {
            return cpuMsPerRequestByLayer.values().stream().mapToDouble(Double::doubleValue).sum();
        }
    }

    /** The bars as a table: a column per layer that spent anything, and the total; JFR's cost is in {@code jvm}. */
    record Table(List<String> layers, List<Row> rows, String jvm) {
    }

    record Row(String variant, String at, List<String> byLayer, String total) {
    }

    private static final int WIDTH = 820;
    private static final int HEIGHT = 400;
    /** One colour per layer, the same in every chart; the JVM's own threads in grey. */
    private static final Map<String, Color> COLOURS = Map.of(
            Layer.HTTP_SERVER.label(), new Color(0x1F, 0x77, 0xB4),
            Layer.REST_SERVER.label(), new Color(0xFF, 0x7F, 0x0E),
            Layer.REST_CLIENT.label(), new Color(0x2C, 0xA0, 0x2C),
            Layer.JSON.label(), new Color(0xD6, 0x27, 0x28),
            Layer.METRICS.label(), new Color(0x94, 0x67, 0xBD),
            Layer.VERTX_NETTY.label(), new Color(0x8C, 0x56, 0x4B),
            Layer.LAB.label(), new Color(0xE3, 0x77, 0xC2),
            Layer.QUARKUS.label(), new Color(0xBC, 0xBD, 0x22),
            Layer.JDK.label(), new Color(0x17, 0xBE, 0xCF),
            Layer.JVM_THREADS.label(), new Color(0x7F, 0x7F, 0x7F));

    private CpuBreakdown() {
    }

    /** The bars of a run, in the run's variant and point order; empty when it has no analysed recording. */
    static List<Bar> bars(Run run, List<Recorded> recorded) {
        record Key(String variant, Point point) {
        }
        Map<Key, List<Map<String, Double>>> cells = new LinkedHashMap<>();
        for (Recorded r : recorded) {
            AnalysisFile.CpuByLayer cpu = r.recording().load().cpuByLayer();
            Optional<Double> perRequest = r.cpuMsPerRequest();
            if (r.point().isEmpty() || cpu == null || cpu.layers().isEmpty() || perRequest.isEmpty()) {
                continue;
            }
            Map<String, Double> byLayer = new LinkedHashMap<>();
            cpu.layers().forEach((layer, share) -> byLayer.put(layer, share.share() * perRequest.get()));
            cells.computeIfAbsent(new Key(r.label(), r.point().get()), k -> new ArrayList<>()).add(byLayer);
        }
        List<String> variants = run.variants();
        List<Bar> bars = new ArrayList<>();
        cells.forEach((cell, repetitions) -> bars.add(new Bar(cell.variant(), cell.point(), mean(repetitions))));
        bars.sort(Comparator.comparingInt((Bar b) -> variants.contains(b.variant()) ? variants.indexOf(b.variant())
                        : variants.size()).thenComparing(Bar::variant)
                .thenComparingInt(b -> run.points().indexOf(b.point())));
        return bars;
    }

    /** A stacked bar chart, one bar per variant and point. */
    static String svg(Run run, List<Bar> bars) {
        CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT)
                .title("Where the CPU goes (recorded windows)").xAxisTitle("variant, concurrent users")
                .yAxisTitle("CPU ms per request").build();
        style(chart);
        if (bars.isEmpty()) {
            chart.setTitle("Where the CPU goes: no analysed recording");
            chart.addSeries("none", List.of("-"), List.of(0.0));
            return ChartStyle.svg(chart);
        }
        List<String> x = bars.stream().map(b -> b.variant() + " " + run.tag(b.point())).toList();
        for (String layer : layers(bars)) {
            chart.addSeries(layer, x, bars.stream().map(b -> b.cpuMsPerRequestByLayer().getOrDefault(layer, 0.0))
                    .toList()).setFillColor(COLOURS.getOrDefault(layer, Color.DARK_GRAY));
        }
        return ChartStyle.svg(chart);
    }

    static Table table(Run run, List<Bar> bars) {
        List<String> layers = layers(bars);
        return new Table(layers, bars.stream().map(b -> new Row(b.variant(), run.tag(b.point()), layers.stream()
                .map(l -> ms(b.cpuMsPerRequestByLayer().getOrDefault(l, 0.0))).toList(), ms(b.total()))).toList(),
                Layer.JVM_THREADS.label());
    }

    private static Map<String, Double> mean(List<Map<String, Double>> repetitions) {
        Map<String, Double> mean = new LinkedHashMap<>();
        repetitions.forEach(r -> r.forEach((layer, ms) -> mean.merge(layer, ms / repetitions.size(), Double::sum)));
        return mean;
    }

    /** Layers that spent anything, in the analysis' layer order, unknown labels after. */
    private static List<String> layers(List<Bar> bars) {
        Set<String> spent = new LinkedHashSet<>();
        bars.forEach(b -> b.cpuMsPerRequestByLayer().forEach((layer, ms) -> {
            if (ms > 0) {
                spent.add(layer);
            }
        }));
        List<String> ordered = new ArrayList<>();
        for (Layer layer : Layer.values()) {
            if (spent.remove(layer.label())) {
                ordered.add(layer.label());
            }
        }
        ordered.addAll(spent);
        return ordered;
    }

    private static String ms(double v) {
        return String.format(Locale.ROOT, "%.3f", v);
    }

    /** The look of the other charts, stacked, with the legend beside: ten layers are too many below. */
    private static void style(CategoryChart chart) {
        var styler = chart.getStyler();
        ChartStyle.style(styler);
        styler.setStacked(true);
        styler.setLegendPosition(Styler.LegendPosition.OutsideE);
        styler.setLegendLayout(Styler.LegendLayout.Vertical);
        styler.setAvailableSpaceFill(0.7);
        styler.setXAxisLabelRotation(20);
    }
}
