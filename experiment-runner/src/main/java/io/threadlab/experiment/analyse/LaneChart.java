package io.threadlab.experiment.analyse;

import java.io.IOException;
import java.nio.file.Path;

/** Draws {@link ThreadLanes}: one row per thread, grouped and labelled, time across, and a legend. */
public final class LaneChart {

    private static final int WIDTH = 1100;
    private static final int LABEL = 230;
    private static final int PLOT = WIDTH - LABEL - 30;
    private static final int ROW = 14;
    private static final int GROUP_GAP = 22;
    private static final int TOP = 56;

    private LaneChart() {
    }

    public static void write(ThreadLanes lanes, Path svg, Path png) throws IOException {
        int height = height(lanes);
        Canvas.Svg vector = new Canvas.Svg(WIDTH, height);
        draw(lanes, vector);
        vector.save(svg);
        if (png != null) {
            Canvas.Png raster = new Canvas.Png(WIDTH, height);
            draw(lanes, raster);
            raster.save(png);
        }
    }

    private static int height(ThreadLanes lanes) {
        long groups = lanes.lanes().stream().map(ThreadLanes.Lane::kind).distinct().count();
        return TOP + lanes.lanes().size() * ROW + (int) groups * GROUP_GAP + 90;
    }

    private static void draw(ThreadLanes lanes, Canvas c) {
        c.text(10, 22, lanes.title(), 15, "#222222", true, false);
        c.text(10, 40, "Under a CPU quota the JVM is frozen for part of every 100 ms period: an event that spans a frozen"
                + " stretch looks long.", 11, "#666666", false, false);
        double scale = PLOT / lanes.sliceMs();
        double y = TOP;
        ThreadKind current = null;
        for (ThreadLanes.Lane lane : lanes.lanes()) {
            if (lane.kind() != current) {
                current = lane.kind();
                y += GROUP_GAP;
                int hidden = lanes.hidden().getOrDefault(current, 0);
                c.text(10, y - 6, current.label() + " (" + current.pattern() + ")"
                        + (hidden > 0 ? ", " + hidden + " more threads not shown" : ""), 12, "#222222", true, false);
            }
            c.text(LABEL - 6, y + ROW - 3, lane.thread(), 10, "#444444", false, true);
            c.rect(LABEL, y + 1, PLOT, ROW - 2, "#f4f4f4");
            for (ThreadLanes.Segment s : lane.segments()) {
                double inset = s.activity() == ThreadLanes.Activity.ALIVE ? 4 : 1;
                c.rect(LABEL + s.fromMs() * scale, y + inset, (s.toMs() - s.fromMs()) * scale, ROW - 2 * inset,
                        s.activity().color);
            }
            y += ROW;
        }
        if (lanes.lanes().isEmpty()) {
            c.text(LABEL, y + 20, "no thread of the lesson's groups had events in this slice", 12, "#d62728", false,
                    false);
            y += 30;
        }
        // Time axis
        y += 8;
        c.line(LABEL, y, LABEL + PLOT, y, "#888888");
        for (int t = 0; t <= lanes.sliceMs(); t += 20) {
            double x = LABEL + t * scale;
            c.line(x, y, x, y + 4, "#888888");
            c.text(x + 2, y + 15, t + " ms", 10, "#666666", false, false);
        }
        // Legend
        double x = LABEL;
        y += 40;
        for (ThreadLanes.Activity a : ThreadLanes.Activity.values()) {
            c.rect(x, y - 10, 14, 10, a.color);
            c.text(x + 18, y - 1, a.label, 11, "#333333", false, false);
            x += 18 + a.label.length() * 6.3 + 18;
        }
    }
}
