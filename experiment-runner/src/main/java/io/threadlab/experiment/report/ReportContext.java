package io.threadlab.experiment.report;

import io.threadlab.experiment.report.landscape.Landscape;

import java.util.List;

/**
 * What several sections show from, computed once per report: the cells, the ratios between them, the analysed
 * recordings beside their windows, where the load came from, the landscape, the CPU by layer and the charts (the
 * slowest part: XChart draws every one). The thresholds are the ones the prose quotes: the enforced ones in a report,
 * others where a test changes them to see the prose follow.
 */
record ReportContext(Run run, Thresholds thresholds, List<Cell> cells, Ratios ratios, List<Recorded> recorded,
                     LoadOrigin origin, Landscape landscape, List<CpuBreakdown.Bar> bars, Charts.Figures charts) {

    static ReportContext of(Run run, Thresholds thresholds) {
        List<Cell> cells = Cell.all(run);
        Ratios ratios = new Ratios(run);
        List<Recorded> recorded = Recorded.all(run);
        List<CpuBreakdown.Bar> bars = CpuBreakdown.bars(run, recorded);
        LoadOrigin origin = LoadOrigin.of(run);
        Landscape landscape = Landscape.of(run.windows(), origin.loadCores(run.lab().machineCores()),
                origin.loadAlone());
        return new ReportContext(run, thresholds, cells, ratios, recorded, origin, landscape, bars,
                Charts.of(run, cells, ratios, bars, landscape.charts()));
    }

    /** The report's title: the results directory's name. */
    String title() {
        return run.dir().getFileName().toString();
    }
}
