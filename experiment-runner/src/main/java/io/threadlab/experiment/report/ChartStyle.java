package io.threadlab.experiment.report;

import io.threadlab.experiment.plan.Variant;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.AxesChartStyler;
import org.knowm.xchart.style.Styler;

import java.awt.Color;
import java.awt.Font;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** The look every chart shares, each variant's colour (from {@link Variant}), and a chart as SVG text to inline. */
final class ChartStyle {

    /** A label no variant has (a renamed or removed one, in an old run): the gallery's grey. */
    private static final String UNKNOWN = "#7f7f7f";

    private ChartStyle() {
    }

    /** The variant's colour as #rrggbb, for the html. */
    static String hex(String label) {
        return Variant.find(label).map(Variant::colour).orElse(UNKNOWN);
    }

    static Color colour(String label) {
        return Color.decode(hex(label));
    }

    static void style(AxesChartStyler styler) {
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
