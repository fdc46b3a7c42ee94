package io.threadlab.experiment.report;

import java.util.List;

/**
 * The cells: the summary of every variant at every point, the stalled windows and failed requests, the memory and
 * threads, and the database where the run had one. The html shows them in one box with the ratios against the
 * baseline, which the markdown shows after the fan-out (ratios.md).
 *
 * @param severalDelays whether the tables name the delay beside the users
 * @param note          how the medians and intervals were made
 */
record SummarySection(boolean severalDelays, String note, List<SummaryTables.Heading> summaryHeadings,
                      List<SummaryTables.SummaryRow> summary, String stalls, List<String> failures,
                      List<SummaryTables.Heading> memoryHeadings, List<SummaryTables.MemoryRow> memory,
                      List<SummaryTables.Heading> databaseHeadings, List<SummaryTables.DatabaseRow> database,
                      RatiosSection ratios) {

    static SummarySection of(ReportContext c) {
        Run run = c.run();
        return new SummarySection(run.severalDelays(), Notes.summary(), SummaryTables.summaryHeadings(c.origin()),
                SummaryTables.summary(c.cells(), c.origin()), StalledWindows.perVariant(run), Failures.of(run),
                SummaryTables.headings(Metric.MEMORY), SummaryTables.memory(c.cells(), c.recorded()),
                SummaryTables.headings(Metric.DATABASE), SummaryTables.database(c.cells()), RatiosSection.of(c));
    }
}
