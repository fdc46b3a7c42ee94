package io.threadlab.experiment.findings;

import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.Point;
import io.threadlab.experiment.predict.Ceiling;
import io.threadlab.experiment.predict.Forecast;
import io.threadlab.experiment.report.RunFacts;
import io.threadlab.experiment.report.landscape.Outcome;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Fan-out: at each delay, users, mode and number of calls per request, each variant's throughput, its p50 (one delay
 * when the calls run at once, N in turn) and the ceiling its prediction named.
 */
final class FanOutFindings {

    record Row(String delay, String users, String calls, List<String> variants) {
    }

    /**
     * @param forecasts each held-out point beside the prediction its own JVM's calibration made before it was measured;
     *                  {@code within}, {@code covered} and {@code named} counted as the report's checks count them
     */
    record Run(String run, String started, List<String> variants, List<Row> rows,
               List<OffCalibrationSection.Row> forecasts, String within, String covered, String named) {
    }

    /**
     * The runs, and every run's held-out points together against the capacity model's targets (each linked to its
     * constant): within the tolerance, inside the interval stated, the binding ceiling named; "59 of 65 (91 %)".
     */
    record Section(List<Run> runs, String count, String within, String covered, String named, String withinTarget,
                   String coverageTarget, String namedTarget) {
    }

    private FanOutFindings() {
    }

    /** The section, or null where no fan-out run is published. */
    static Section of(List<PublishedRun> runs) {
        if (runs.isEmpty()) {
            return null;
        }
        List<Outcome> all = runs.stream().flatMap(run -> heldOut(run).stream()).toList();
        return new Section(runs(runs), Cite.link(String.valueOf(runs.size()), PublishedRun.FROM_DOCS),
                OffCalibrationSection.share(Forecasts.judgedWithin(all), Forecast.WITHIN_TARGET),
                OffCalibrationSection.share(Forecasts.covered(all), Forecast.COVERAGE_TARGET),
                OffCalibrationSection.share(Forecasts.named(all), Forecast.NAMED_TARGET),
                Cite.threshold(Forecast.WITHIN_TARGET, "predict/Forecast.java"),
                Cite.threshold(Forecast.COVERAGE_TARGET, "predict/Forecast.java"),
                Cite.threshold(Forecast.NAMED_TARGET, "predict/Forecast.java"));
    }

    /** The points predicted from their own JVM's calibration before they were measured, where it did not calibrate. */
    private static List<Outcome> heldOut(PublishedRun run) {
        return run.facts().landscape().outcomes().stream().filter(Outcome::heldOut)
                .filter(o -> o.prediction().isPresent()).toList();
    }

    private static List<Run> runs(List<PublishedRun> runs) {
        List<Run> sections = new ArrayList<>();
        for (PublishedRun run : runs) {
            List<RunFacts.CellFact> cells = run.facts().cells();
            List<String> variants = cells.stream().map(RunFacts.CellFact::variant).distinct().toList();
            Map<Point, Map<String, RunFacts.CellFact>> byPoint = new LinkedHashMap<>();
            cells.stream().sorted(Comparator.comparing((RunFacts.CellFact c) -> c.at().get(Axis.DELAY_MS))
                            .thenComparing(c -> c.at().get(Axis.USERS)).thenComparing(c -> mode(c.at()))
                            .thenComparing(c -> calls(c.at())))
                    .forEach(c -> byPoint.computeIfAbsent(c.at(), k -> new LinkedHashMap<>()).put(c.variant(), c));
            List<Row> rows = byPoint.entrySet().stream().map(e -> new Row(e.getKey().get(Axis.DELAY_MS) + " ms",
                    String.format(Locale.ROOT, "%,d users", e.getKey().get(Axis.USERS)), calls(e.getKey()) == 1
                    ? "1 call" : calls(e.getKey()) + " calls " + mode(e.getKey()),
                    variants.stream().map(v -> e.getValue().containsKey(v) ? cell(e.getValue().get(v), run.results())
                            : "–").toList())).toList();
            List<Outcome> outcomes = heldOut(run);
            sections.add(new Run(Cite.link(run.name(), run.report()), Cite.link(HeadlineSection.day(run),
                    run.manifest()), variants, rows, outcomes.stream().map(o -> OffCalibrationSection.Row.of(o,
                    run.results(), run.results())).toList(), Forecasts.within(outcomes, run.results()),
                    Forecasts.covered(outcomes).cited(run.results()), Forecasts.named(outcomes).cited(run.results())));
        }
        return sections;
    }

    /** "[1,422](f) req/s, p50 [10.4](f) ms · CPU". */
    private static String cell(RunFacts.CellFact c, String file) {
        return Cite.number(c.requestsPerSecond(), 0, file) + " req/s, p50 " + Cite.number(c.p50Ms(), 1, file)
                + " ms · " + c.binding().map(FanOutFindings::ceiling).orElse("not predicted");
    }

    static String ceiling(String binding) {
        return Arrays.stream(Ceiling.values()).filter(c -> c.name().equalsIgnoreCase(binding)).findFirst()
                .map(Ceiling::label).orElse(binding);
    }

    private static int calls(Point p) {
        return p.getOrFallback(Axis.FAN_OUT);
    }

    private static String mode(Point p) {
        return p.getOrFallback(Axis.FAN_OUT_MODE).label();
    }
}
