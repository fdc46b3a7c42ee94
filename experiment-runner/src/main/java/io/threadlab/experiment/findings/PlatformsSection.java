package io.threadlab.experiment.findings;

import io.threadlab.experiment.report.HeadlineRatios;
import io.threadlab.experiment.report.RunFacts;
import io.threadlab.experiment.report.Stats;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The default run on each Quarkus platform published, side by side: whether the release changed the answer. For
 * each platform its latest default run, with the headline ratios (each with its interval) and what each variant
 * served, spent and held at each point. Only the platform differs between such runs where their commits and knobs
 * are the same; the table names both, and the manifests say the rest.
 */
final class PlatformsSection {

    /** @param machine the median CPU-µs of the runner's fixed piece of work over its windows, cited; "–" untimed */
    record Row(String platform, String run, String commit, String machine, List<String> ratios) {
    }

    record Cell(String at, String variant, List<String> platforms) {
    }

    /**
     * @param platforms the versions published, oldest first, each a link to its run's manifest
     * @param machines  whether the runs' machines were of one speed, and so whether their absolute numbers compare
     */
    record Section(List<String> platforms, List<String> ratioColumns, List<Row> rows, List<Cell> cells,
                   String machines) {
        public List<String> measures() {
            return MEASURES;
        }
    }

    static final List<String> MEASURES = List.of("req/s", "CPU ms per request", "p99 ms", "RSS MB");
    /**
     * Runs whose fixed piece of work took more than this apart (in its median over their windows) ran on machines of
     * other speeds: a run's own windows time the piece a few per cent apart, and the published runs came from machines
     * 1.8 and 2.5 times slower than the fastest.
     */
    static final double SAME_MACHINE = 0.10;

    private PlatformsSection() {
    }

    static Section of(List<PublishedRun> defaults) {
        Map<String, PublishedRun> latest = new LinkedHashMap<>();
        defaults.stream().sorted(java.util.Comparator.comparing(PublishedRun::platform))
                .forEach(run -> latest.put(run.platform(), run)); // runs are oldest first: the last one wins
        if (latest.size() < 2) {
            return new Section(latest.values().stream().map(r -> Cite.link(r.platform(), r.manifest())).toList(),
                    List.of(), List.of(), List.of(), "");
        }
        List<PublishedRun> runs = defaults.stream().filter(latest::containsValue)
                .sorted(java.util.Comparator.comparing(PublishedRun::platform)).toList();
        List<HeadlineSection.Key> keys = HeadlineSection.keys(runs);
        List<Row> rows = new ArrayList<>();
        for (PublishedRun run : runs) {
            Map<HeadlineSection.Key, HeadlineRatios.Ratio> mine = HeadlineSection.byKey(run.facts());
            Double machine = machineUs(run);
            rows.add(new Row(Cite.link(run.platform(), run.manifest()), Cite.link(run.name(), run.report()),
                    Cite.link(run.commit(), run.manifest()), machine == null ? "–"
                    : Cite.number(machine, 0, run.results()), keys.stream().map(k -> mine.containsKey(k)
                    ? Ratios.cited(mine.get(k).ratio(), run.results()) : "–").toList()));
        }
        List<Cell> cells = new ArrayList<>();
        for (RunFacts.CellFact first : runs.getFirst().facts().cells()) {
            List<String> values = new ArrayList<>();
            for (PublishedRun run : runs) {
                RunFacts.CellFact c = run.facts().cells().stream().filter(o -> o.variant().equals(first.variant())
                        && o.at().equals(first.at())).findFirst().orElse(null);
                values.add(c == null ? "–" : String.join(" · ", Cite.number(c.requestsPerSecond(), 0, run.results()),
                        Cite.number(c.cpuMsPerRequest(), 3, run.results()), Cite.number(c.p99Ms(), 0,
                                run.results()), Cite.number(c.rssMb(), 0, run.results())));
            }
            cells.add(new Cell(first.at().describe(), first.variant(), values));
        }
        return new Section(runs.stream().map(r -> Cite.link(r.platform(), r.manifest())).toList(), keys.stream()
                .map(k -> k.title() + ", " + k.where()).toList(), rows, cells, machines(runs));
    }

    /** The median CPU-µs of the runner's fixed piece of work over a run's windows; null where none was timed. */
    static Double machineUs(PublishedRun run) {
        double[] us = run.facts().windows().stream().map(w -> w.instruments().yardstickUs())
                .filter(java.util.Objects::nonNull).mapToDouble(Double::doubleValue).toArray();
        return us.length == 0 ? null : Stats.median(us);
    }

    /** Whether the absolute numbers of the runs side by side compare: only on machines of one speed. */
    private static String machines(List<PublishedRun> runs) {
        Map<PublishedRun, Double> us = new LinkedHashMap<>();
        runs.forEach(r -> us.put(r, machineUs(r)));
        List<PublishedRun> untimed = runs.stream().filter(r -> us.get(r) == null).toList();
        if (!untimed.isEmpty()) {
            return "The machine's speed was not timed in " + String.join(", ", untimed.stream()
                    .map(r -> Cite.link(r.name(), r.manifest())).toList()) + ": the ratios compare across the"
                    + " platforms; req/s and CPU per request may be each machine's, not the release's.";
        }
        double fastest = us.values().stream().mapToDouble(Double::doubleValue).min().orElseThrow();
        double slowest = us.values().stream().mapToDouble(Double::doubleValue).max().orElseThrow();
        String timed = String.join(" and ", runs.stream().map(r -> Cite.number(us.get(r), 0, r.results()))
                .toList());
        return slowest / fastest - 1 > SAME_MACHINE
                ? "**The runs' machines differ: the runner's fixed piece of work took " + timed + " CPU-µs (the"
                + " median of each run's windows). The ratios compare across the platforms; req/s and CPU per request"
                + " are each machine's, not the release's.**"
                : "The runs' machines were of one speed (the runner's fixed piece of work took " + timed + " CPU-µs,"
                + " within " + Cite.format(SAME_MACHINE * 100, 0) + " %), so their numbers compare too.";
    }
}
