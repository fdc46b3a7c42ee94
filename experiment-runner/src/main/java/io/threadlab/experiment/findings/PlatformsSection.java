package io.threadlab.experiment.findings;

import io.threadlab.experiment.report.HeadlineRatios;
import io.threadlab.experiment.report.RunFacts;

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

    record Row(String platform, String run, String commit, List<String> ratios) {
    }

    record Cell(String at, String variant, List<String> platforms) {
    }

    /** @param platforms the versions published, oldest first, each a link to its run's manifest */
    record Section(List<String> platforms, List<String> ratioColumns, List<Row> rows, List<Cell> cells) {
        public List<String> measures() {
            return MEASURES;
        }
    }

    static final List<String> MEASURES = List.of("req/s", "CPU ms per request", "p99 ms", "RSS MB");

    private PlatformsSection() {
    }

    static Section of(List<PublishedRun> defaults) {
        Map<String, PublishedRun> latest = new LinkedHashMap<>();
        defaults.stream().sorted(java.util.Comparator.comparing(PublishedRun::platform))
                .forEach(run -> latest.put(run.platform(), run)); // runs are oldest first: the last one wins
        if (latest.size() < 2) {
            return new Section(latest.values().stream().map(r -> Cite.link(r.platform(), r.manifest())).toList(),
                    List.of(), List.of(), List.of());
        }
        List<PublishedRun> runs = defaults.stream().filter(latest::containsValue)
                .sorted(java.util.Comparator.comparing(PublishedRun::platform)).toList();
        List<HeadlineSection.Key> keys = HeadlineSection.keys(runs);
        List<Row> rows = new ArrayList<>();
        for (PublishedRun run : runs) {
            Map<HeadlineSection.Key, HeadlineRatios.Ratio> mine = HeadlineSection.byKey(run.facts());
            rows.add(new Row(Cite.link(run.platform(), run.manifest()), Cite.link(run.name(), run.report()),
                    Cite.link(run.commit(), run.manifest()), keys.stream().map(k -> mine.containsKey(k)
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
                .map(k -> k.title() + ", " + k.where()).toList(), rows, cells);
    }
}
