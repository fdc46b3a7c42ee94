package io.threadlab.experiment.report;

import java.util.List;

/**
 * Where the CPU goes (the CPU per request by layer, in the recorded windows) and where threads wait for each other
 * (the top monitor-contention sites): two headings in the markdown, one box in the html.
 *
 * @param chart null without an analysed recording: then neither the chart nor the table
 * @param note  what the contention table shows, and why threads wait there where the lab knows
 */
record CpuAndContentionSection(boolean severalDelays, Charts.Figure chart, CpuBreakdown.Table table,
                               List<Contention.Row> contention, String note) {

    static CpuAndContentionSection of(ReportContext c) {
        return new CpuAndContentionSection(c.run().severalDelays(), c.charts().cpu(),
                CpuBreakdown.table(c.run(), c.bars()), Contention.rows(c.run(), c.recorded()),
                Contention.note(c.run(), c.recorded()));
    }
}
