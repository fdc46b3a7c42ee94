package io.threadlab.experiment.report;

import io.threadlab.experiment.plan.Variant;

import java.util.List;

/**
 * "Stack or threading model?": the baseline's difference from each model, split by the control variant into what
 * the classic stack costs and what the threading model costs. None without the control.
 *
 * @param headings the table's three ratio columns, named by the run's variants
 */
record SplitsSection(boolean severalDelays, String note, Headings headings, List<SummaryTables.SplitRow> rows) {

    record Headings(String total, String stack, String threading) {
    }

    static SplitsSection of(ReportContext c) {
        String baseline = Splits.baseline().label();
        String control = Variant.control().map(Variant::label).orElse("control");
        return new SplitsSection(c.run().severalDelays(), Notes.split(), new Headings(baseline + " / model (total)",
                "stack: " + baseline + " / " + control, "model: " + control + " / model"),
                SummaryTables.splits(Splits.of(c.run(), c.ratios())));
    }
}
