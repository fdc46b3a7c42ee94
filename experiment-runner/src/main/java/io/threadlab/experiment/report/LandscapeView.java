package io.threadlab.experiment.report;

import io.threadlab.experiment.report.landscape.InFlightCost;
import io.threadlab.experiment.report.landscape.Landscape;
import io.threadlab.experiment.report.landscape.Point;
import io.threadlab.experiment.report.landscape.SeedTable;
import io.threadlab.experiment.report.landscape.SloCapacity;
import io.threadlab.experiment.report.landscape.Winners;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The landscape as the templates show it: the capacity model at every point, who wins where, the crossovers, what a
 * request in flight costs, the SLO capacity at each delay, and the seeds' table at its own regime.
 *
 * @param map whether the run spans delays or users enough to draw a landscape (the capacity model shows anyway)
 */
record LandscapeView(boolean map, List<PointRow> points, List<WinnerRow> winners, List<String> crossovers,
                     List<String> inFlightHeadings, List<CostRow> inFlight, List<SloRow> slo, List<SeedRow> seeds,
                     List<Checks.Check> checks) {

    record PointRow(String jvm, String colour, int delay, int users, String measured, String predicted,
                    String binding, String ratio, boolean off, String ceilings, String little, String note) {
    }

    record WinnerRow(int delay, int users, String winner, String colour, String margin, String binding,
                     String everyone) {
    }

    record CostRow(String jvm, String colour, int points, String maxInFlight, List<String> perThousand) {
    }

    record SloRow(String jvm, String colour, int delay, String bound, String capacity, String steps) {
    }

    record SeedRow(String theirs, String theirRate, String theirLittle, String jvm, String ours, String explanation) {
    }

    static LandscapeView of(Landscape l) {
        return new LandscapeView(l.isMap(), l.points().stream().map(LandscapeView::point).toList(),
                l.cells().stream().map(LandscapeView::winner).toList(), l.crossovers().stream()
                .map(LandscapeView::crossover).toList(), List.copyOf(InFlightCost.MEASURES.keySet()),
                l.inFlight().stream().map(LandscapeView::cost).toList(), l.slo().stream().map(LandscapeView::slo)
                .toList(), seeds(l.seeds()), l.checks().stream().map(c -> new Checks.Check(c.name(), c.passed(),
                c.detail())).toList());
    }

    private static PointRow point(Point p) {
        String ceilings = p.ceilings().entrySet().stream().map(e -> e.getKey().label() + " " + rate(e.getValue()))
                .collect(Collectors.joining(", "));
        List<String> notes = new ArrayList<>();
        if (p.margin() < 1.15) {
            notes.add("two ceilings within 15 %");
        }
        if (p.k6Limited()) {
            notes.add("k6 out of headroom");
        }
        if (p.errors() > 0) {
            notes.add(p.errors() + " errors " + p.errorCauses());
        }
        return new PointRow(p.jvm(), ChartStyle.hex(p.variant()), p.delayMs(), p.users(), rate(p.measured()),
                rate(p.predicted()), p.binding().label(), pct(p.ratio()), p.margin() >= 1.15 && !p.withinTolerance(),
                ceilings, p.littleUsers() == null ? "–" : String.format(Locale.ROOT, "%,.0f", p.littleUsers()),
                String.join("; ", notes));
    }

    private static WinnerRow winner(Winners.Cell c) {
        Point w = c.winner();
        String who = c.clear() ? w.jvm()
                : "tie: " + c.leaders().stream().map(Point::jvm).collect(Collectors.joining(" ≈ "));
        return new WinnerRow(c.delayMs(), c.users(), who, ChartStyle.hex(w.variant()), Double.isNaN(c.margin())
                ? "–" : String.format(Locale.ROOT, "%.2f×", c.margin()), w.binding().label(),
                c.ranked().stream().map(p -> p.jvm() + " " + rate(p.measured()) + " (" + p.binding().label() + ")")
                        .collect(Collectors.joining(", ")));
    }

    private static String crossover(Winners.Crossover x) {
        return x.along().equals("users")
                ? String.format(Locale.ROOT, "at %d ms: %s leads up to %d users, %s from %d", x.delayMs(), x.from(),
                x.fromAt(), x.to(), x.toAt())
                : String.format(Locale.ROOT, "at %d users: %s leads up to %d ms, %s from %d ms", x.users(), x.from(),
                x.fromAt(), x.to(), x.toAt());
    }

    private static CostRow cost(InFlightCost c) {
        return new CostRow(c.jvm(), ChartStyle.hex(c.variant()), c.points(),
                String.format(Locale.ROOT, "%,.0f", c.maxInFlight()), c.perThousand().values().stream()
                .map(v -> Double.isNaN(v) ? "–" : String.format(Locale.ROOT, "%,.1f", v)).toList());
    }

    private static SloRow slo(SloCapacity s) {
        return new SloRow(s.jvm(), ChartStyle.hex(s.variant()), s.delayMs(), String.format(Locale.ROOT, "%.0f ms",
                s.boundMs()), s.capacity() == null ? "below the first step" : rate(s.capacity()) + " req/s",
                s.steps().stream().map(st -> String.format(Locale.ROOT, "%,d: p99 %s ms%s", st.offeredRate(),
                        st.p99Ms() == null ? "–" : String.format(Locale.ROOT, "%,.0f", st.p99Ms()),
                        st.droppedIterations() > 0 ? ", " + st.droppedIterations() + " dropped" : ""))
                        .collect(Collectors.joining("; ")));
    }

    /** The seeds' rows, wherever any of their regime was measured (a map, or a run at 300 ms and 3,000 users). */
    private static List<SeedRow> seeds(SeedTable seeds) {
        if (!seeds.anyMeasured()) {
            return List.of();
        }
        return seeds.rows().stream().map(r -> new SeedRow(r.theirs(), rate(r.theirRate()),
                r.matchingJvm().contains("-w") ? rate(Integer.parseInt(r.matchingJvm().replaceAll(".*-w", ""))
                        / (SeedTable.DELAY_MS / 1000.0)) : "–", r.matchingJvm(),
                r.ours().map(p -> rate(p.measured())).orElse("–"), r.explanation())).toList();
    }

    private static String rate(double v) {
        return Double.isNaN(v) ? "–" : String.format(Locale.ROOT, "%,.0f", v);
    }

    private static String pct(double ratio) {
        return Double.isNaN(ratio) ? "–" : String.format(Locale.ROOT, "%.0f %%", ratio * 100);
    }
}
