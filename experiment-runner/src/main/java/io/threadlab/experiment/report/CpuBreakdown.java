package io.threadlab.experiment.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.threadlab.experiment.analyse.Layer;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.style.Styler;

import java.awt.Color;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where the CPU goes: per variant and closed-model level, the CPU milliseconds per request of each layer (HTTP
 * server, REST framework, REST client, JSON, ..., JIT/GC/VM threads). Each recorded window's CPU per request (its
 * results row) is shared out by the layer shares the thread analysis found in its recording (analysis.json,
 * cpu_by_layer); repetitions of a cell are averaged. These are the recorded twin windows, so JFR's own cost is in.
 */
public final class CpuBreakdown {

    /** One stacked bar: a variant at a level, its CPU ms per request by layer label, in layer order. */
    public record Bar(String variant, int users, Map<String, Double> cpuMsPerRequestByLayer) {

        public double total() {
            return cpuMsPerRequestByLayer.values().stream().mapToDouble(Double::doubleValue).sum();
        }
    }

    private static final Pattern CLOSED_LEVEL = Pattern.compile("-closed-(\\d+)(?:-jfr)?-\\d+$");
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

    /** The bars of a run, in the run's variant and level order; empty when it has no analysed recording. */
    public static List<Bar> bars(RunData data) {
        record Cell(String variant, int users) {
        }
        Map<Cell, List<Map<String, Double>>> cells = new LinkedHashMap<>();
        for (JsonNode recording : data.analysis().map(a -> a.path("recordings")).orElse(MissingNode.getInstance())) {
            Matcher level = CLOSED_LEVEL.matcher(recording.path("window").asText());
            JsonNode layers = recording.path("cpu_by_layer").path("layers");
            Optional<Double> perRequest = cpuMsPerRequest(data, recording);
            if (!level.find() || !layers.isObject() || perRequest.isEmpty()) {
                continue;
            }
            Map<String, Double> byLayer = new LinkedHashMap<>();
            layers.fields().forEachRemaining(e -> byLayer.put(e.getKey(),
                    e.getValue().path("share").asDouble() * perRequest.get()));
            cells.computeIfAbsent(new Cell(recording.path("variant").asText(), Integer.parseInt(level.group(1))),
                    k -> new ArrayList<>()).add(byLayer);
        }
        List<String> variants = data.variants();
        List<Bar> bars = new ArrayList<>();
        cells.forEach((cell, repetitions) -> bars.add(new Bar(cell.variant(), cell.users(), mean(repetitions))));
        bars.sort(Comparator.comparingInt((Bar b) -> variants.contains(b.variant()) ? variants.indexOf(b.variant())
                : variants.size()).thenComparing(Bar::variant).thenComparingInt(Bar::users));
        return bars;
    }

    /** A stacked bar chart, one bar per variant and level, as SVG text for inlining. */
    public static String svg(List<Bar> bars) {
        CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT)
                .title("Where the CPU goes (recorded windows)").xAxisTitle("variant, concurrent users")
                .yAxisTitle("CPU ms per request").build();
        style(chart);
        if (bars.isEmpty()) {
            chart.setTitle("Where the CPU goes: no analysed recording");
            chart.addSeries("none", List.of("-"), List.of(0.0));
            return svg(chart);
        }
        List<String> x = bars.stream().map(b -> b.variant() + " " + b.users()).toList();
        for (String layer : layers(bars)) {
            chart.addSeries(layer, x, bars.stream().map(b -> b.cpuMsPerRequestByLayer().getOrDefault(layer, 0.0))
                    .toList()).setFillColor(COLOURS.getOrDefault(layer, Color.DARK_GRAY));
        }
        return svg(chart);
    }

    /** A table: one row per bar, one column per layer that spent anything, and the total. */
    public static String markdown(List<Bar> bars) {
        if (bars.isEmpty()) {
            return "No analysed recording gives CPU by layer (run `./experiment analyze` on the results directory).\n";
        }
        List<String> layers = layers(bars);
        StringBuilder md = new StringBuilder("CPU ms per request by layer, in the recorded windows (JFR's own cost"
                + " included, under \"" + Layer.JVM_THREADS.label() + "\"):\n\n| variant | users |");
        layers.forEach(l -> md.append(' ').append(l).append(" |"));
        md.append(" total |\n|---|---:|").append("---:|".repeat(layers.size() + 1)).append('\n');
        for (Bar bar : bars) {
            md.append("| ").append(bar.variant()).append(" | ").append(bar.users()).append(" |");
            layers.forEach(l -> md.append(' ').append(ms(bar.cpuMsPerRequestByLayer().getOrDefault(l, 0.0)))
                    .append(" |"));
            md.append(' ').append(ms(bar.total())).append(" |\n");
        }
        return md.toString();
    }

    /** The recorded window's CPU per request: its results row (jfr_file), else what the analysis was given. */
    private static Optional<Double> cpuMsPerRequest(RunData data, JsonNode recording) {
        String file = recording.path("window").asText() + ".jfr";
        for (JsonNode row : data.rows()) {
            if (row.path("jfr_file").isTextual() && row.path("cpu_ms_per_request").isNumber()
                    && Path.of(row.path("jfr_file").asText()).getFileName().toString().equals(file)) {
                return Optional.of(row.path("cpu_ms_per_request").asDouble());
            }
        }
        JsonNode given = recording.path("cpu_by_layer").path("cpu_ms_per_request");
        return given.isNumber() ? Optional.of(given.asDouble()) : Optional.empty();
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

    /** The look of {@link Charts}, stacked, with the legend beside: ten layers are too many below. */
    private static void style(CategoryChart chart) {
        var styler = chart.getStyler();
        Charts.style(styler);
        styler.setStacked(true);
        styler.setLegendPosition(Styler.LegendPosition.OutsideE);
        styler.setLegendLayout(Styler.LegendLayout.Vertical);
        styler.setAvailableSpaceFill(0.7);
        styler.setXAxisLabelRotation(20);
    }

    private static String svg(CategoryChart chart) {
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
