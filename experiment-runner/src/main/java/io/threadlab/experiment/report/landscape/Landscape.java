package io.threadlab.experiment.report.landscape;

import io.threadlab.experiment.collect.WindowResult;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The regime map's findings: every closed-model point with its ceilings, who wins where and where that changes,
 * what a request in flight costs, the open model's SLO capacity at each delay, the seeds' table at its own regime,
 * and the map's own checks, each with its numbers.
 */
public record Landscape(List<Point> points, List<Winners.Cell> cells, List<Winners.Crossover> crossovers,
                        List<InFlightCost> inFlight, List<SloCapacity> slo, SeedTable seeds, List<Check> checks,
                        Map<String, org.knowm.xchart.XYChart> charts) {

    /** A target of the map, met or not, with the numbers behind it. */
    public record Check(String name, boolean passed, String detail) {
    }

    public static Landscape of(List<WindowResult> rows) {
        List<Point> points = CapacityModel.points(rows);
        List<Winners.Cell> cells = Winners.cells(points);
        List<SloCapacity> slo = SloCapacity.of(rows);
        boolean map = isMap(points);
        // a run at one delay and two levels: the capacity model's table says it all; the landscape's charts are a map's
        return new Landscape(points, cells, Winners.crossovers(cells), InFlightCost.of(rows), slo,
                SeedTable.of(points), checks(points), map ? LandscapeCharts.of(points, slo) : Map.of());
    }

    /** More than one delay, or more than two numbers of users: a landscape, not a point. */
    public boolean isMap() {
        return isMap(points);
    }

    private static boolean isMap(List<Point> points) {
        return points.stream().map(Point::delayMs).distinct().count() > 1
                || points.stream().map(Point::users).distinct().count() > 2;
    }

    private static List<Check> checks(List<Point> points) {
        List<Point> clear = points.stream().filter(p -> p.margin() >= 1 + Point.TOLERANCE).toList();
        List<String> off = clear.stream().filter(p -> !p.withinTolerance()).map(Landscape::name).toList();
        List<String> little = points.stream().filter(p -> Boolean.FALSE.equals(p.littleHolds()))
                .map(p -> String.format(Locale.ROOT, "%s (%.0f busy)", name(p), p.littleUsers())).toList();
        List<String> errors = points.stream().filter(p -> p.errors() > 0)
                .map(p -> name(p) + " " + p.errors() + " " + p.errorCauses()).toList();
        List<String> k6 = points.stream().filter(Point::k6Limited).map(Landscape::name).toList();
        return List.of(
                new Check("Measured within " + pct(Point.TOLERANCE) + " of predicted wherever one ceiling binds",
                        off.isEmpty() && !clear.isEmpty(), String.format(Locale.ROOT, "%d of %d points where one"
                                + " ceiling binds (the next is %s higher)%s", clear.size() - off.size(), clear.size(),
                        pct(Point.TOLERANCE), off.isEmpty() ? "" : "; OFF: " + String.join(", ", off))),
                new Check("Little's law held at every point (users = throughput x mean response time, within "
                        + pct(Point.LITTLE_TOLERANCE) + ")", little.isEmpty(), little.isEmpty()
                        ? points.size() + " points" : "FAILED at " + String.join(", ", little)
                        + ": the load generator did not keep its users busy there"),
                new Check("No errors at any point", errors.isEmpty(), errors.isEmpty() ? points.size() + " points"
                        : String.join("; ", errors)),
                new Check("k6 had headroom at every point", k6.isEmpty(), k6.isEmpty() ? points.size() + " points"
                        : "k6 used more than 80 % of the CPU left to it at " + String.join(", ", k6)
                        + ": the load generator may have capped these points"));
    }

    static String name(Point p) {
        return String.format(Locale.ROOT, "%s@%dms/%d (measured %,.0f, predicted %,.0f by %s)", p.jvm(), p.delayMs(),
                p.users(), p.measured(), p.predicted(), p.binding().label());
    }

    private static String pct(double share) {
        return String.format(Locale.ROOT, "%.0f %%", share * 100);
    }
}
