package io.threadlab.experiment.findings;

import io.threadlab.experiment.plan.Point;
import io.threadlab.experiment.plan.Variant;
import io.threadlab.experiment.predict.Forecast;
import io.threadlab.experiment.report.HeadlineRatios;
import io.threadlab.experiment.report.RunFacts;
import io.threadlab.experiment.report.landscape.Landscape;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The headline over every published default run: each model's throughput over the worker-thread model's at each
 * point, one row per run, with its interval and whether it is decided; how each ratio ranged over the runs; how the
 * run's predictions fared; and each JVM start's throughput, where the spread between runs comes from.
 */
final class HeadlineSection {

    /** One headline ratio, named: "reactive / imperative" at "100 users". */
    record Key(String variant, String baseline, Point at) {
        String title() {
            return variant + " / " + baseline;
        }

        String where() {
            return at.describe();
        }
    }

    record Row(String run, String started, List<String> ratios, String decided, String ownCalibration,
               String otherJvmStarts, String covered) {
    }

    /** How one ratio ranged over the runs: its lowest and highest point estimate, and how often it was decided. */
    record Range(String ratio, String where, String lowest, String highest, String decided) {
    }

    /** One run's JVM starts: each start's mean throughput at each variant and point. */
    record Starts(String run, List<String> cells) {
    }

    record Section(int runs, String tolerance, List<String> columns, List<Row> rows, List<Range> ranges,
                   List<String> startColumns, List<Starts> starts, String minutes) {
    }

    private HeadlineSection() {
    }

    static Section of(List<PublishedRun> runs) {
        List<Key> keys = keys(runs);
        List<Row> rows = new ArrayList<>();
        for (PublishedRun run : runs) {
            Map<Key, HeadlineRatios.Ratio> mine = byKey(run.facts());
            List<String> cells = keys.stream().map(k -> mine.containsKey(k) ? Ratios.cited(mine.get(k).ratio(), run.results())
                    : "–").toList();
            long decided = mine.values().stream().filter(HeadlineRatios.Ratio::decided).count();
            Landscape landscape = run.facts().landscape();
            rows.add(new Row(Cite.link(run.name(), run.report()), Cite.link(day(run), run.manifest()), cells,
                    Cite.link(String.valueOf(decided), run.results()) + " of "
                            + Cite.link(String.valueOf(mine.size()), run.results()),
                    Forecasts.ownCalibration(landscape.outcomes()).cited(run.results()),
                    Forecasts.otherJvmStarts(landscape.outcomes()).cited(run.results()),
                    Forecasts.covered(landscape.outcomes()).cited(run.results())));
        }
        List<Range> ranges = keys.stream().map(k -> range(k, runs)).toList();
        List<Key> points = startPoints(runs);
        List<Starts> starts = runs.stream().map(run -> new Starts(Cite.link(run.name(), run.report()),
                points.stream().map(k -> jvmStarts(run, k)).toList())).toList();
        return new Section(runs.size(), Cite.threshold(Forecast.TOLERANCE, "predict/Forecast.java"),
                keys.stream().map(k -> k.title() + ", " + k.where()).toList(), rows, ranges,
                points.stream().map(k -> k.variant() + ", " + k.where()).toList(), starts, minutes(runs));
    }

    /** How long the runs took, start to end: "from 12.8 to 15.3 minutes", each a link to its manifest. */
    private static String minutes(List<PublishedRun> runs) {
        PublishedRun shortest = null;
        PublishedRun longest = null;
        for (PublishedRun run : runs) {
            double m = RunsIndex.minutes(run.facts().manifest());
            if (Double.isNaN(m)) {
                continue;
            }
            if (shortest == null || m < RunsIndex.minutes(shortest.facts().manifest())) {
                shortest = run;
            }
            if (longest == null || m > RunsIndex.minutes(longest.facts().manifest())) {
                longest = run;
            }
        }
        if (shortest == null) {
            return "an unrecorded time";
        }
        return "from " + Cite.number(RunsIndex.minutes(shortest.facts().manifest()), 1, shortest.manifest()) + " to "
                + Cite.number(RunsIndex.minutes(longest.facts().manifest()), 1, longest.manifest()) + " minutes";
    }

    /** Every headline ratio any run has, by variant in the design card's order, then point. */
    static List<Key> keys(List<PublishedRun> runs) {
        Set<Key> keys = new LinkedHashSet<>();
        runs.forEach(r -> keys.addAll(byKey(r.facts()).keySet()));
        List<String> order = Variant.all().stream().map(Variant::label).toList();
        return keys.stream().sorted(Comparator.comparingInt((Key k) -> order.indexOf(k.variant()))
                .thenComparing(Key::at)).toList();
    }

    static Map<Key, HeadlineRatios.Ratio> byKey(RunFacts facts) {
        Map<Key, HeadlineRatios.Ratio> byKey = new LinkedHashMap<>();
        facts.headline().forEach(r -> byKey.put(new Key(r.variant(), r.baseline(), r.at()), r));
        return byKey;
    }

    private static Range range(Key key, List<PublishedRun> runs) {
        PublishedRun lowest = null;
        PublishedRun highest = null;
        double low = Double.POSITIVE_INFINITY;
        double high = Double.NEGATIVE_INFINITY;
        int decided = 0;
        int measured = 0;
        for (PublishedRun run : runs) {
            HeadlineRatios.Ratio r = byKey(run.facts()).get(key);
            if (r == null || Double.isNaN(r.ratio().ratio())) {
                continue;
            }
            measured++;
            decided += r.decided() ? 1 : 0;
            if (r.ratio().ratio() < low) {
                low = r.ratio().ratio();
                lowest = run;
            }
            if (r.ratio().ratio() > high) {
                high = r.ratio().ratio();
                highest = run;
            }
        }
        if (measured == 0) {
            return new Range(key.title(), key.where(), "–", "–", "–");
        }
        return new Range(key.title(), key.where(), Cite.link(Cite.times(low), lowest.results()),
                Cite.link(Cite.times(high), highest.results()), Cite.link(String.valueOf(decided),
                PublishedRun.FROM_DOCS) + " of " + Cite.link(String.valueOf(measured), PublishedRun.FROM_DOCS));
    }

    /** Every variant at every headline point: where the JVM starts' throughput is shown. */
    private static List<Key> startPoints(List<PublishedRun> runs) {
        Set<Key> points = new LinkedHashSet<>();
        for (PublishedRun run : runs) {
            run.facts().cells().forEach(c -> points.add(new Key(c.variant(), "", c.at())));
        }
        List<String> order = Variant.all().stream().map(Variant::label).toList();
        return points.stream().sorted(Comparator.comparingInt((Key k) -> order.indexOf(k.variant()))
                .thenComparing(Key::at)).toList();
    }

    /** Each JVM start's mean throughput at the point, in start order. */
    private static String jvmStarts(PublishedRun run, Key key) {
        return run.facts().cells().stream().filter(c -> c.variant().equals(key.variant()) && c.at().equals(key.at()))
                .findFirst().map(c -> String.join(" · ", c.jvmMeans().stream()
                        .map(m -> Cite.number(m, 0, run.results())).toList())).orElse("–");
    }

    /** The day the run started, from its manifest. */
    static String day(PublishedRun run) {
        String started = run.facts().manifest().startedAt();
        return started == null || started.length() < 10 ? "unknown" : started.substring(0, 10);
    }
}
