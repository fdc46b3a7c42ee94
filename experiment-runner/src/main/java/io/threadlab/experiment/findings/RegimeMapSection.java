package io.threadlab.experiment.findings;

import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.Point;
import io.threadlab.experiment.predict.Ceiling;
import io.threadlab.experiment.predict.Forecast;
import io.threadlab.experiment.report.landscape.Outcome;
import io.threadlab.experiment.report.landscape.Winners;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Which model when: the newest published regime map as a grid of delays by users, each cell the model that served the
 * most there, its lead over the runner-up (a tie under {@link Winners#CLEAR}), and the ceiling that bound it.
 */
final class RegimeMapSection {

    /** One cell as the picture and the table show it. */
    record Cell(int delayMs, int users, String winner, String variant, List<String> tied, List<Winners.Excuse> excused,
                double margin, String ceiling, double measured) {
        boolean tie() {
            return !tied.isEmpty();
        }
    }

    record Row(String delay, List<String> cells) {
    }

    record Section(String run, String started, String quota, String tie, List<String> users, List<Row> rows,
                   String heldOut, String tolerance, String covered, String named, List<String> others,
                   List<Cell> cells) {
    }

    /** The model's share of its quota from which the CPU is said to have bound a point nobody predicted. */
    static final double SATURATED = 0.95;

    private RegimeMapSection() {
    }

    /** The newest map's section; empty where none is published. */
    static Optional<Section> of(List<PublishedRun> maps) {
        if (maps.isEmpty()) {
            return Optional.empty();
        }
        PublishedRun map = maps.getLast();
        List<Outcome> outcomes = map.facts().landscape().outcomes();
        List<Winners.Cell> grid = Winners.cells(outcomes);
        List<Cell> cells = grid.stream().map(RegimeMapSection::cell).toList();
        List<Integer> users = List.copyOf(new TreeSet<>(cells.stream().map(Cell::users).toList()));
        List<Integer> delays = List.copyOf(new TreeSet<>(cells.stream().map(Cell::delayMs).toList()));
        LogBands bands = new LogBands(delays.stream().mapToDouble(d -> d).toArray(), 0, 1);
        List<Row> rows = delays.stream().map(d -> new Row(band(d, delays.indexOf(d), bands), users.stream().map(u -> cells.stream()
                .filter(c -> c.delayMs() == d && c.users() == u).findFirst().map(c -> text(c, map.results()))
                .orElse("–")).toList())).toList();
        return Optional.of(new Section(Cite.link(map.name(), map.report()), Cite.link(HeadlineSection.day(map),
                map.manifest()), quota(map), Cite.threshold(Winners.CLEAR - 1, "report/landscape/Winners.java"),
                users.stream().map(u -> String.format(Locale.ROOT, "%,d users", u)).toList(), rows,
                Forecasts.ownCalibration(outcomes).cited(map.results()), Cite.threshold(Forecast.TOLERANCE,
                "predict/Forecast.java"),
                Forecasts.covered(outcomes).cited(map.results()), Forecasts.named(outcomes).cited(map.results()),
                maps.subList(0, maps.size() - 1).stream().map(m -> Cite.link(m.name(), m.report())).toList(),
                cells));
    }

    /** The quota every JVM of the map had, as "0.5 CPU"; several where the map varied it. */
    private static String quota(PublishedRun map) {
        return map.facts().landscape().outcomes().stream().map(o -> o.at().get(Axis.CPUS)).distinct().sorted()
                .map(q -> Point.of(Axis.CPUS, q).describe()).reduce((a, b) -> a + ", " + b).orElse("its quota");
    }

    /** "100 ms (32–173 ms)": the delay measured, and the band it stands for. */
    private static String band(int delay, int i, LogBands bands) {
        return String.format(Locale.ROOT, "%d ms (%s–%s ms)", delay, round(bands.edge(i)), round(bands.edge(i + 1)));
    }

    private static String round(double v) {
        return v < 10 ? String.format(Locale.ROOT, "%.1f", v) : String.format(Locale.ROOT, "%,.0f", v);
    }

    private static Cell cell(Winners.Cell c) {
        Outcome winner = c.winner();
        List<String> tied = c.clear() ? List.of() : c.leaders().stream().map(Outcome::jvm).toList();
        return new Cell(c.delayMs(), c.users(), winner.jvm(), winner.variant(), tied, c.excused(), c.margin(),
                ceiling(winner), winner.measured());
    }

    /** What bound the winner: its prediction's ceiling, else the CPU where it used its quota; else not known. */
    static String ceiling(Outcome o) {
        return o.binding().map(Ceiling::label)
                .orElse(o.readings().saturation() >= SATURATED ? Ceiling.CPU.label() : "–");
    }

    private static String text(Cell c, String file) {
        String margin = Double.isNaN(c.margin()) ? "" : " " + Cite.link(Cite.times(c.margin()), file);
        String excused = c.excused().isEmpty() ? "" : c.excused().stream().map(e -> e.crowded() ? e.describe()
                : "the machine " + Cite.link(Cite.times(e.slowdown()), file) + " slower for " + e.jvm())
                .collect(Collectors.joining("; ", " (", ")"));
        return (c.tie() ? "tie: " + String.join(", ", c.tied()) : "**" + c.winner() + "**") + margin + excused
                + " · " + c.ceiling();
    }
}
