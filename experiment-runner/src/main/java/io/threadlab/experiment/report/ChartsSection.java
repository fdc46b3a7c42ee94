package io.threadlab.experiment.report;

/**
 * The charts of the measured cells, where each page puts them: the markdown under one heading ({@code charts}), the
 * html by topic ({@code throughput-charts}, {@code latency-charts}, {@code open-model-chart}). The charts of the CPU,
 * the warm-up and the landscape are their own sections'.
 *
 * @param thresholds for the interval the throughput charts' whiskers show
 */
record ChartsSection(Charts.Figures charts, Thresholds thresholds) {

    static ChartsSection of(ReportContext c) {
        return new ChartsSection(c.charts(), c.thresholds());
    }
}
