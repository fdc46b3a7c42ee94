package io.threadlab.experiment.report;

import java.util.List;

/**
 * Each main variant against the worker-thread model at every point, paired by repetition, and how far each headline
 * ratio is from decided. Only the markdown shows it as a section of its own; the html shows it inside the summary's
 * box (summary.html).
 *
 * @param note       what a ratio pairs (the html's)
 * @param thresholds for the half-width a headline ratio should reach
 */
record RatiosSection(boolean severalDelays, String baseline, String note, List<SummaryTables.RatioRow> rows,
                     Decision decision, Thresholds thresholds) {

    static RatiosSection of(ReportContext c) {
        Run run = c.run();
        return new RatiosSection(run.severalDelays(), Splits.baseline().label(), Notes.ratios(run),
                SummaryTables.againstBaseline(run, c.ratios()), Decision.of(run), c.thresholds());
    }
}
