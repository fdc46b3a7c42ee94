package io.threadlab.experiment.findings;

import io.threadlab.experiment.analyse.Canvas;
import io.threadlab.experiment.plan.Variant;
import io.threadlab.experiment.report.landscape.Winners;

import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

/**
 * The regime map as a picture: delays down, users across, both on log axes, each cell the colour of the model that
 * served the most there (grey: a tie). A cell spans from halfway (geometrically) to its neighbours, so any delay and
 * number of users can be read off by where it falls: 50 ms lies in the 100 ms row, 2,000 users in the 3,000 column.
 */
final class MapPicture {

    private static final int WIDTH = 780;
    private static final int LEFT = 90;
    private static final int RIGHT = 20;
    private static final int TOP = 56;
    private static final int HEIGHT = 470;
    private static final int BOTTOM = 60;
    private static final String INK = "#333333";
    private static final String TIE = "#bdbdbd";

    private MapPicture() {
    }

    static String svg(String title, List<RegimeMapSection.Cell> cells) {
        Canvas.Svg c = new Canvas.Svg(WIDTH, HEIGHT);
        double[] users = cells.stream().mapToDouble(RegimeMapSection.Cell::users).distinct().sorted().toArray();
        double[] delays = cells.stream().mapToDouble(RegimeMapSection.Cell::delayMs).distinct().sorted().toArray();
        c.text(10, 22, title, 14, INK, true, false);
        c.text(10, 40, "colour: the model that served the most (grey: a tie, a lead under " + Cite.percent(Winners.CLEAR
                - 1) + "); its lead over the runner-up and the ceiling that bound it", 10, INK, false, false);
        LogBands across = new LogBands(users, LEFT, WIDTH - RIGHT);
        LogBands down = new LogBands(delays, TOP, HEIGHT - BOTTOM);
        for (RegimeMapSection.Cell cell : cells) {
            int i = index(users, cell.users());
            int j = index(delays, cell.delayMs());
            double x = across.from(i);
            double y = down.from(j);
            double w = across.to(i) - x;
            double h = down.to(j) - y;
            String fill = cell.tie() ? TIE : Variant.find(cell.variant()).map(Variant::colour).orElse(TIE);
            c.rect(x + 1, y + 1, w - 2, h - 2, fill);
            // the narrowest cells hold about ten characters: the winner's name, shortened where it is longer
            String name = cell.tie() ? "tie" : cell.winner().replace("virtual-thread", "virtual");
            c.centred(x + w / 2, y + h / 2 - 6, name, 11, "#ffffff", true);
            c.centred(x + w / 2, y + h / 2 + 7, (Double.isNaN(cell.margin()) ? "" : String.format(Locale.ROOT,
                    "%.2f× ", cell.margin())) + cell.ceiling(), 10, "#ffffff", false);
        }
        for (int i = 0; i < users.length; i++) {
            c.centred((across.from(i) + across.to(i)) / 2, HEIGHT - BOTTOM + 16, String.format(Locale.ROOT, "%,.0f",
                    users[i]), 11, INK, true);
        }
        for (int i = 1; i < users.length; i++) {
            c.centred(across.from(i), HEIGHT - BOTTOM + 30, String.format(Locale.ROOT, "%,.0f", across.edge(i)), 9,
                    "#888888", false);
        }
        c.centred(LEFT + (WIDTH - LEFT - RIGHT) / 2.0, HEIGHT - 10, "users (closed model); small numbers: where a"
                + " cell hands over to the next", 11, INK, false);
        for (int j = 0; j < delays.length; j++) {
            c.text(LEFT - 8, (down.from(j) + down.to(j)) / 2 + 4, String.format(Locale.ROOT, "%,.0f ms", delays[j]),
                    11, INK, true, true);
        }
        for (int j = 1; j < delays.length; j++) {
            c.text(LEFT - 8, down.from(j) + 3, String.format(Locale.ROOT, "%,.0f", down.edge(j)), 9, "#888888",
                    false, true);
        }
        c.text(10, TOP - 4, "delay", 10, INK, false, false);
        return c.svg();
    }

    private static int index(double[] values, double v) {
        for (int i = 0; i < values.length; i++) {
            if (values[i] == v) {
                return i;
            }
        }
        throw new IllegalArgumentException("no " + v);
    }
}
