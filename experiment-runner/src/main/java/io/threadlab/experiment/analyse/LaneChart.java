package io.threadlab.experiment.analyse;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Draws {@link ThreadLanes}: one row per thread, grouped and labelled, time across, and a legend of the activities
 * drawn (a database read or a wait for a pooled connection is named only where the slice has one). Monitor blocks are
 * labelled with their site where the label fits inside, else with the number of the site in a key below, where the
 * slice's top sites are named.
 */
public final class LaneChart {

    private static final int WIDTH = 1100;
    private static final int LABEL = 230;
    private static final int PLOT = WIDTH - LABEL - 30;
    private static final int ROW = 14;
    private static final int GROUP_GAP = 22;
    private static final int TOP = 56;
    private static final int KEY_SITES = 5;
    private static final int KEY_LINE = 15;
    private static final int LEGEND_LINE = 18;
    /** Wide enough for any glyph of the 9-point label font, so that an estimated label never overflows its block. */
    private static final double LABEL_CHAR = 5.6;

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
        int key = monitorSites(lanes).isEmpty() ? 0 : 10 + (monitorSites(lanes).size() + 1) * KEY_LINE;
        return TOP + lanes.lanes().size() * ROW + (int) groups * GROUP_GAP + 90 + key
                + (legendLines(lanes) - 1) * LEGEND_LINE;
    }

    private static void draw(ThreadLanes lanes, Canvas c) {
        c.text(10, 22, lanes.title(), 15, "#222222", true, false);
        c.text(10, 40, "The requests wait on " + lanes.downstream() + ". Under a CPU quota the JVM is frozen for part"
                + " of every 100 ms period: an event that spans a frozen stretch looks long.", 11, "#666666", false,
                false);
        double scale = PLOT / lanes.sliceMs();
        List<String> keySites = List.copyOf(monitorSites(lanes).keySet());
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
            labelMonitorBlocks(lane, keySites, scale, y, c);
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
        for (ThreadLanes.Activity a : drawn(lanes)) {
            if (x + legendWidth(a) > WIDTH) {
                x = LABEL;
                y += LEGEND_LINE;
            }
            c.rect(x, y - 10, 14, 10, a.color);
            c.text(x + 18, y - 1, a.label, 11, "#333333", false, false);
            x += legendWidth(a);
        }
        // Key of the monitor sites
        Map<String, double[]> sites = monitorSites(lanes);
        if (!sites.isEmpty()) {
            y += 10 + KEY_LINE;
            c.text(LABEL, y, "Monitor blocks in this slice, by total wait (a number in a block names its site here):",
                    11, "#333333", true, false);
            int n = 1;
            for (Map.Entry<String, double[]> site : sites.entrySet()) {
                y += KEY_LINE;
                c.text(LABEL, y, String.format(Locale.ROOT, "%d  %s: %d blocks, %.1f ms", n++,
                        site.getKey(), (int) site.getValue()[0], site.getValue()[1]), 11, "#333333", false, false);
            }
        }
    }

    /** The legend's lines: as many as its entries need at the picture's width. */
    private static int legendLines(ThreadLanes lanes) {
        int lines = 1;
        double x = LABEL;
        for (ThreadLanes.Activity a : drawn(lanes)) {
            if (x + legendWidth(a) > WIDTH) {
                lines++;
                x = LABEL;
            }
            x += legendWidth(a);
        }
        return lines;
    }

    private static double legendWidth(ThreadLanes.Activity a) {
        return 18 + a.label.length() * 6.3 + 18;
    }

    /** The activities the lanes show, in the legend's order. */
    static List<ThreadLanes.Activity> drawn(ThreadLanes lanes) {
        EnumSet<ThreadLanes.Activity> drawn = EnumSet.noneOf(ThreadLanes.Activity.class);
        lanes.lanes().forEach(lane -> lane.segments().forEach(s -> drawn.add(s.activity())));
        return List.copyOf(drawn);
    }

    /** Inside each red block: its site if it fits, else its key number if it fits, else nothing. */
    private static void labelMonitorBlocks(ThreadLanes.Lane lane, List<String> keySites, double scale, double y,
                                           Canvas c) {
        double freeFrom = 0;
        List<ThreadLanes.Segment> blocks = lane.segments().stream()
                .filter(s -> s.activity() == ThreadLanes.Activity.MONITOR && s.label() != null)
                .sorted(Comparator.comparingDouble(ThreadLanes.Segment::fromMs)).toList();
        for (ThreadLanes.Segment s : blocks) {
            double x = LABEL + s.fromMs() * scale;
            double width = (s.toMs() - s.fromMs()) * scale;
            int key = keySites.indexOf(s.label()) + 1;
            String text = width >= s.label().length() * LABEL_CHAR + 4 ? s.label()
                    : key > 0 && width >= String.valueOf(key).length() * LABEL_CHAR + 4 ? String.valueOf(key) : null;
            if (text != null && x >= freeFrom) {
                c.text(x + 2, y + ROW - 4, text, 9, "#ffffff", true, false);
                freeFrom = x + width;
            }
        }
    }

    /** The slice's monitor sites with the most waiting, each with {blocks, total ms}, most first. */
    private static Map<String, double[]> monitorSites(ThreadLanes lanes) {
        Map<String, double[]> totals = new LinkedHashMap<>();
        for (ThreadLanes.Lane lane : lanes.lanes()) {
            for (ThreadLanes.Segment s : lane.segments()) {
                if (s.activity() == ThreadLanes.Activity.MONITOR && s.label() != null) {
                    double[] t = totals.computeIfAbsent(s.label(), k -> new double[2]);
                    t[0]++;
                    t[1] += s.toMs() - s.fromMs();
                }
            }
        }
        Map<String, double[]> top = new LinkedHashMap<>();
        totals.entrySet().stream()
                .sorted(Comparator.comparingDouble((Map.Entry<String, double[]> e) -> e.getValue()[1]).reversed())
                .limit(KEY_SITES).forEach(e -> top.put(e.getKey(), e.getValue()));
        return top;
    }
}
