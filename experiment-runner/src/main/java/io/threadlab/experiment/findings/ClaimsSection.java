package io.threadlab.experiment.findings;

import io.threadlab.experiment.report.RunFacts;
import io.threadlab.experiment.report.landscape.Outcome;
import io.threadlab.experiment.report.landscape.SeedTable;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Every published claim the lab speaks to, beside the lab's number at the claim's own regime in each published run
 * that measured it there; and the seeds' table at 300 ms and 3,000 users, their rows beside ours. Their numbers link
 * to the source file that holds them.
 */
final class ClaimsSection {

    /** Where the claims' and the seeds' own numbers are kept, as the page links them. */
    static final String CLAIMS_SOURCE = Cite.SOURCE + "report/Claims.java";
    static final String SEEDS_SOURCE = Cite.SOURCE + "report/landscape/SeedTable.java";

    record Claim(String source, String claim, String comparison, String theirs, List<String> ours,
                 String howToMeasure) {
    }

    record SeedRow(String theirs, String theirRate, String littleBound, List<String> ours) {
    }

    record Section(List<Claim> claims, List<SeedRow> seeds, String seedsRegime) {
    }

    private ClaimsSection() {
    }

    static Section of(List<PublishedRun> runs) {
        Map<String, List<String>> ours = new LinkedHashMap<>();
        Map<String, RunFacts.ClaimFact> claims = new LinkedHashMap<>();
        for (PublishedRun run : runs) {
            for (RunFacts.ClaimFact c : run.facts().claims()) {
                String key = c.source() + ": " + c.claim();
                claims.putIfAbsent(key, c);
                List<String> measured = ours.computeIfAbsent(key, k -> new ArrayList<>());
                c.at().ifPresent(at -> measured.add(ratio(c, run)));
            }
        }
        List<Claim> rows = claims.entrySet().stream().map(e -> {
            RunFacts.ClaimFact c = e.getValue();
            String theirs = Cite.link(Cite.times(c.published()), CLAIMS_SOURCE) + (c.publishedRss() == null ? ""
                    : ", RSS " + Cite.link(Cite.times(c.publishedRss()), CLAIMS_SOURCE));
            return new Claim(Cite.link(c.source(), CLAIMS_SOURCE), Cite.link(c.claim(), CLAIMS_SOURCE),
                    c.comparison() + " at "
                    + c.regime(), theirs, ours.get(e.getKey()), c.howToMeasure());
        }).toList();
        return new Section(rows, seeds(runs), SeedTable.DELAY_MS + " ms, " + String.format(Locale.ROOT, "%,d users",
                SeedTable.USERS));
    }

    private static String ratio(RunFacts.ClaimFact c, PublishedRun run) {
        String rss = c.oursRss().map(r -> ", RSS " + Cite.link(Cite.times(r.ratio()), run.results())).orElse("");
        return Ratios.cited(c.ours(), run.results()) + rss + " in " + Cite.link(run.name(), run.report());
    }


    /** The seeds' rows, with every published run's JVM that matches each. */
    private static List<SeedRow> seeds(List<PublishedRun> runs) {
        Map<String, List<String>> ours = new LinkedHashMap<>();
        Map<String, SeedTable.Row> theirs = new LinkedHashMap<>();
        for (PublishedRun run : runs) {
            List<Outcome> outcomes = run.facts().landscape().outcomes();
            for (SeedTable.Row row : SeedTable.of(outcomes).rows()) {
                theirs.putIfAbsent(row.theirs(), row);
                List<String> measured = ours.computeIfAbsent(row.theirs(), k -> new ArrayList<>());
                row.ours().ifPresent(o -> measured.add(outcome(o, run)));
            }
        }
        return theirs.values().stream().map(r -> new SeedRow(r.theirs(), Cite.link(Cite.format(r.theirRate(),
                r.theirRate() % 1 == 0 ? 0 : 1), SEEDS_SOURCE), little(r), ours.get(r.theirs()))).toList();
    }

    /** Their threads ÷ the delay: what a pool of that many threads can serve at most (Little's law). */
    private static String little(SeedTable.Row r) {
        int at = r.matchingJvm().lastIndexOf("-w");
        if (at < 0) {
            return "–";
        }
        int threads = Integer.parseInt(r.matchingJvm().substring(at + 2));
        return Cite.link(Cite.format(threads / (SeedTable.DELAY_MS / 1000.0), 0), SEEDS_SOURCE);
    }

    private static String outcome(Outcome o, PublishedRun run) {
        String predicted = o.binding().map(b -> ", predicted " + Cite.number(o.predicted(), 0, run.results())
                + " (" + b.label() + ")").orElse("");
        return Cite.number(o.measured(), 0, run.results()) + predicted + " on " + o.jvm() + " in "
                + Cite.link(run.name(), run.report());
    }
}
