package io.threadlab.experiment.findings;

import io.threadlab.experiment.analyse.Canvas;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A dot plot of values grouped in bands: each band a question (a headline ratio, a variant at a point), each line of
 * it one published run, each dot one value with its interval as a whisker. Drawn on the lab's own canvas, so the same
 * data always makes the same file.
 */
final class DotPlot {

    /** One value: where the dot goes, its interval (NaN: none), and its colour. */
    record Dot(double value, double low, double high, String colour) {
    }

    /** One line of a band: a run's name and its dots. */
    record Line(String label, List<Dot> dots) {
    }

    record Band(String title, List<Line> lines) {
    }

    private static final int WIDTH = 780;
    private static final int LEFT = 200;
    private static final int RIGHT = 30;
    private static final int TOP = 46;
    private static final int BAND_HEAD = 22;
    private static final int LINE = 16;
    private static final int BOTTOM = 44;
    private static final String INK = "#333333";
    private static final String GRID = "#e5e5e5";

    private final String title;
    private final String axis;
    private final boolean log;
    /** A value to mark with a line across every band (1 for ratios); NaN: none. */
    private final double reference;

    DotPlot(String title, String axis, boolean log, double reference) {
        this.title = title;
        this.axis = axis;
        this.log = log;
        this.reference = reference;
    }

    String svg(List<Band> bands) {
        int height = TOP + bands.stream().mapToInt(b -> BAND_HEAD + b.lines().size() * LINE).sum() + BOTTOM;
        Canvas.Svg c = new Canvas.Svg(WIDTH, height);
        double[] range = range(bands);
        c.text(10, 22, title, 14, INK, true, false);
        int y = TOP;
        List<Double> ticks = ticks(range[0], range[1]);
        int plotTop = TOP;
        int plotBottom = height - BOTTOM;
        for (double t : ticks) {
            c.line(x(t, range), plotTop, x(t, range), plotBottom, GRID);
            c.centred(x(t, range), plotBottom + 14, tick(t), 10, INK, false);
        }
        if (!Double.isNaN(reference)) {
            c.line(x(reference, range), plotTop, x(reference, range), plotBottom, "#999999");
        }
        c.centred(LEFT + (WIDTH - LEFT - RIGHT) / 2.0, plotBottom + 32, axis, 11, INK, false);
        for (Band band : bands) {
            c.text(10, y + 15, band.title(), 12, INK, true, false);
            y += BAND_HEAD;
            for (Line line : band.lines()) {
                double mid = y + LINE / 2.0;
                c.text(LEFT - 8, mid + 4, line.label(), 10, INK, false, true);
                for (Dot d : line.dots()) {
                    if (!Double.isNaN(d.low()) && !Double.isNaN(d.high())) {
                        c.line(x(d.low(), range), mid, x(d.high(), range), mid, d.colour());
                        c.line(x(d.low(), range), mid - 3, x(d.low(), range), mid + 3, d.colour());
                        c.line(x(d.high(), range), mid - 3, x(d.high(), range), mid + 3, d.colour());
                    }
                    if (!Double.isNaN(d.value())) {
                        c.circle(x(d.value(), range), mid, 4, d.colour());
                    }
                }
                y += LINE;
            }
        }
        return c.svg();
    }

    private double[] range(List<Band> bands) {
        double low = Double.POSITIVE_INFINITY;
        double high = Double.NEGATIVE_INFINITY;
        for (Band b : bands) {
            for (Line l : b.lines()) {
                for (Dot d : l.dots()) {
                    for (double v : new double[] {d.value(), d.low(), d.high()}) {
                        if (!Double.isNaN(v) && (!log || v > 0)) {
                            low = Math.min(low, v);
                            high = Math.max(high, v);
                        }
                    }
                }
            }
        }
        if (!Double.isNaN(reference)) {
            low = Math.min(low, reference);
            high = Math.max(high, reference);
        }
        if (low > high) {
            return log ? new double[] {0.5, 2} : new double[] {0, 1};
        }
        return log ? new double[] {low / 1.15, high * 1.15} : new double[] {0, high * 1.08};
    }

    private double x(double v, double[] range) {
        double share = log ? Math.log(v / range[0]) / Math.log(range[1] / range[0])
                : (v - range[0]) / (range[1] - range[0]);
        return LEFT + share * (WIDTH - LEFT - RIGHT);
    }

    /** Round ticks inside the range: 1-2-5 steps on a linear axis, 1, 1.5, 2, 3, 5 per decade on a log one. */
    private List<Double> ticks(double low, double high) {
        List<Double> ticks = new ArrayList<>();
        if (log) {
            for (double decade = Math.pow(10, Math.floor(Math.log10(low))); decade <= high; decade *= 10) {
                for (double m : new double[] {1, 1.5, 2, 3, 5, 7}) {
                    double t = decade * m;
                    if (t >= low && t <= high) {
                        ticks.add(t);
                    }
                }
            }
            return ticks;
        }
        double raw = (high - low) / 6;
        double magnitude = Math.pow(10, Math.floor(Math.log10(raw)));
        double step = raw / magnitude < 2 ? 2 * magnitude : raw / magnitude < 5 ? 5 * magnitude : 10 * magnitude;
        for (double t = Math.ceil(low / step) * step; t <= high; t += step) {
            ticks.add(t);
        }
        return ticks;
    }

    private String tick(double t) {
        return log ? String.format(Locale.ROOT, t < 1 ? "%.2f×" : t == Math.rint(t) ? "%.0f×" : "%.1f×", t)
                : String.format(Locale.ROOT, "%,.0f", t);
    }
}
