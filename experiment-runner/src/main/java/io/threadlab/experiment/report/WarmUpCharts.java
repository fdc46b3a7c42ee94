package io.threadlab.experiment.report;

import io.threadlab.experiment.collect.CompilerSample;
import io.threadlab.experiment.collect.WarmUpResult;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.awt.BasicStroke;
import java.awt.Color;
import java.util.List;

/** A JVM's way to its peak: throughput against the compiler's queue and CPU, over time. */
final class WarmUpCharts {

    private static final int WIDTH = 600;
    private static final Color TRANSPARENT = new Color(0, 0, 0, 0);

    private WarmUpCharts() {
    }

    /** One JVM's warm-up: throughput (left axis), the compiler's queue and CPU (right axis), against seconds. */
    static String warmUp(WarmUpResult outcome, String title) {
        XYChart chart = new XYChartBuilder().width(WIDTH).height(280).title(title)
                .xAxisTitle("seconds into the warm-up").yAxisTitle("requests per second").build();
        ChartStyle.style(chart.getStyler());
        chart.getStyler().setMarkerSize(0);
        chart.setYAxisGroupTitle(1, "compile queue / compiler ms per s");
        List<CompilerSample> samples = outcome.samples();
        if (samples.isEmpty()) {
            return ChartStyle.svg(chart);
        }
        List<Double> t = samples.stream().map(CompilerSample::elapsedSeconds).toList();
        XYSeries rate = chart.addSeries("req/s", t, samples.stream().map(CompilerSample::requestsPerSecond).toList());
        rate.setLineColor(ChartStyle.colour(outcome.variant()));
        rate.setMarker(SeriesMarkers.NONE);
        if (samples.stream().anyMatch(CompilerSample::queueKnown)) {
            XYSeries queue = chart.addSeries("compile queue", t, samples.stream()
                    .map(s -> (double) Math.max(0, s.c1Queue() + s.c2Queue())).toList());
            queue.setYAxisGroup(1);
            queue.setLineColor(new Color(0x55, 0x55, 0x55));
            queue.setLineStyle(dashed(1.2f, 4f));
            queue.setMarker(SeriesMarkers.NONE);
        }
        XYSeries compiler = chart.addSeries("compiler ms/s", t, samples.stream()
                .map(CompilerSample::compilerCpuMsPerSecond).toList());
        compiler.setYAxisGroup(1);
        compiler.setLineColor(new Color(0xBC, 0xBD, 0x22));
        compiler.setMarker(SeriesMarkers.NONE);
        return ChartStyle.svg(chart);
    }

    /** Every variant's time to peak at the quota on one time axis, from its JVM's start. */
    static String timeToPeak(List<WarmUpResult> outcomes) {
        XYChart chart = new XYChartBuilder().width(WIDTH * 2 - 20).height(340)
                .title("Time to peak at the quota: throughput from the JVM's start (dot: compiler finished)")
                .xAxisTitle("seconds since the JVM started").yAxisTitle("requests per second").build();
        ChartStyle.style(chart.getStyler());
        chart.setYAxisGroupTitle(1, "compile queue (dashed)");
        for (WarmUpResult o : outcomes) {
            if (o.samples().isEmpty()) {
                continue;
            }
            Color colour = ChartStyle.colour(o.variant());
            List<Double> t = o.samples().stream().map(s -> s.elapsedSeconds() + o.startedAfterSeconds()).toList();
            List<Double> rate = o.samples().stream().map(CompilerSample::requestsPerSecond).toList();
            XYSeries r = chart.addSeries(o.variant(), t, rate);
            r.setLineColor(colour);
            r.setMarker(SeriesMarkers.NONE);
            XYSeries q = chart.addSeries(o.variant() + " queue", t, o.samples().stream()
                    .map(s -> (double) Math.max(0, s.c2Queue())).toList());
            q.setYAxisGroup(1);
            q.setLineColor(colour);
            q.setLineStyle(dashed(1f, 3f));
            q.setMarker(SeriesMarkers.NONE);
            q.setShowInLegend(false);
            if (o.secondsToPeak() != null) {
                XYSeries peak = chart.addSeries(o.variant() + " peak", List.of(o.secondsToPeak()),
                        List.of(nearest(t, rate, o.secondsToPeak())));
                peak.setMarker(SeriesMarkers.CIRCLE);
                peak.setMarkerColor(colour);
                peak.setLineColor(TRANSPARENT);
                peak.setShowInLegend(false);
            }
        }
        chart.getStyler().setMarkerSize(9);
        return ChartStyle.svg(chart);
    }

    private static BasicStroke dashed(float width, float dash) {
        return new BasicStroke(width, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {dash, 3f}, 0f);
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
}
