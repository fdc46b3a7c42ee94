package io.threadlab.experiment.report;

import java.util.List;

/** The published claims beside this run, each at its own regime only ({@link Claims}). */
record ClaimsSection(List<SummaryTables.ClaimRow> claims) {

    static ClaimsSection of(ReportContext c) {
        return new ClaimsSection(SummaryTables.claims(c.run(), Claims.of(c.run(), c.ratios())));
    }
}
