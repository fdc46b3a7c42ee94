package io.threadlab.experiment.report;

/**
 * "Fan-out", in a run that varied the calls per request: each variant at each number of calls, and the crossovers
 * in N ({@link FanOutTable}).
 *
 * @param table      null where the run did not vary the calls: no section
 * @param thresholds for the lead under which two variants tie
 */
record FanOutSection(FanOutTable.Table table, Thresholds thresholds) {

    static FanOutSection of(ReportContext c) {
        return new FanOutSection(FanOutTable.of(cell -> c.run().plain(cell.variant(), cell.point()), c.cells(),
                Splits.baseline().label()), c.thresholds());
    }
}
