package io.threadlab.experiment.report;

import io.threadlab.experiment.plan.Variant;
import io.threadlab.experiment.report.landscape.Landscape;

import java.util.List;

/**
 * Everything the report states, computed once from a run and handed to both templates (report.md, report.html): they
 * show it and compute nothing. Numbers are already written as text; SVGs are whole.
 *
 * @param severalDelays whether the tables name the delay beside the users
 * @param unfinished    the main variants whose compiler had not finished: none of their numbers is a finding
 * @param compilerRecordings whether the directory holds the JVMs' compiler recordings, to point at
 * @param thresholds  what the prose says of each threshold: the constants that enforce them
 */
record ReportModel(String title, String dir, boolean severalDelays, String baseline, List<String> headline,
                   List<Headline.Tile> tiles, List<String> unfinished, Notes notes, String setup,
                   List<Setup.Step> schedule, List<Check> checks,
                   List<SummaryTables.Heading> summaryHeadings, List<SummaryTables.SummaryRow> summary,
                   String stalls, List<String> failures, List<SummaryTables.Heading> memoryHeadings,
                   List<SummaryTables.MemoryRow> memory, List<SummaryTables.Heading> databaseHeadings,
                   List<SummaryTables.DatabaseRow> database, FanOutSection.Table fanOut,
                   List<SummaryTables.RatioRow> ratios,
                   SplitHeadings splitHeadings, List<SummaryTables.SplitRow> splits, CpuBreakdown.Table cpu,
                   List<Contention.Row> contention, List<WarmUps.Row> warmUps,
                   List<String> warmUpPictures, List<WarmUps.Peak> peaks, Charts.Figures charts,
                   List<MistakeCards.Card> mistakes, List<SummaryTables.ClaimRow> claims,
                   List<Threads.Lane> lanes, List<Threads.Verdict> verdicts, List<String> recordings,
                   boolean compilerRecordings, Decision decision, LandscapeView landscape,
                   LoadPlacementView placement, Thresholds thresholds, List<JmcBeside.Table> jmc) {

    /** The stack-or-model table's three ratio columns, named by the run's variants. */
    record SplitHeadings(String total, String stack, String threading) {
    }

    static ReportModel of(Run run) {
        List<Cell> cells = Cell.all(run);
        Ratios ratios = new Ratios(run);
        List<Recorded> recorded = Recorded.all(run);
        List<CpuBreakdown.Bar> bars = CpuBreakdown.bars(run, recorded);
        String baseline = Splits.baseline().label();
        String control = Variant.control().map(Variant::label).orElse("control");
        LoadOrigin origin = LoadOrigin.of(run);
        Landscape landscape = Landscape.of(run.windows(), origin.loadCores(run.lab().machineCores()),
                origin.loadAlone());
        return new ReportModel(run.dir().getFileName().toString(), run.dir().toString(), run.severalDelays(),
                baseline, Headline.sentences(run, ratios), Headline.tiles(run, ratios), Headline.unfinished(run),
                Notes.of(run, recorded), Setup.text(run), Setup.schedule(run), Checks.of(run, cells, ratios),
                SummaryTables.summaryHeadings(origin), SummaryTables.summary(cells, origin),
                StalledWindows.perVariant(run),
                Failures.of(run), SummaryTables.headings(Metric.MEMORY), SummaryTables.memory(cells, recorded),
                SummaryTables.headings(Metric.DATABASE), SummaryTables.database(cells),
                FanOutSection.of(c -> run.plain(c.variant(), c.point()), cells, baseline),
                SummaryTables.againstBaseline(run, ratios), new SplitHeadings(baseline + " / model (total)",
                        "stack: " + baseline + " / " + control, "model: " + control + " / model"),
                SummaryTables.splits(Splits.of(run, ratios)), CpuBreakdown.table(run, bars),
                Contention.rows(run, recorded), WarmUps.rows(run), WarmUps.pictures(run), WarmUps.peaks(run),
                Charts.of(run, cells, ratios, bars, landscape.charts()),
                MistakeCards.of(run, ratios, recorded), SummaryTables.claims(run, Claims.of(run, ratios)),
                Threads.lanes(run), Threads.verdicts(run), Threads.recordings(run), Setup.compilerRecordings(run),
                Decision.of(run),
                LandscapeView.of(landscape, run.windows()), LoadPlacementView.of(run), Thresholds.ENFORCED,
                JmcBeside.of(run));
    }

    /** The same report, its prose quoting other thresholds: what a test changes to see the text follow. */
    ReportModel quoting(Thresholds other) {
        return new ReportModel(title, dir, severalDelays, baseline, headline, tiles, unfinished, notes, setup, schedule,
                checks, summaryHeadings, summary, stalls, failures, memoryHeadings, memory, databaseHeadings, database,
                fanOut, ratios, splitHeadings, splits, cpu, contention, warmUps, warmUpPictures, peaks, charts,
                mistakes, claims, lanes, verdicts, recordings, compilerRecordings, decision, landscape, placement,
                other, jmc);
    }
}
