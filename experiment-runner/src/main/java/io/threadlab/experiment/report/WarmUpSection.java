package io.threadlab.experiment.report;

import java.util.List;

/**
 * Each JVM's warm-up (a row each, a picture per variant) and, where it was measured, each variant's time to peak at
 * the quota from a fresh start.
 *
 * @param pictures   the first JVM of each variant's warm-up, as SVG
 * @param timeToPeak the chart, null where the run did not measure it
 */
record WarmUpSection(String note, List<WarmUps.Row> rows, List<String> pictures, List<WarmUps.Peak> peaks,
                     Charts.Figure timeToPeak) {

    static WarmUpSection of(ReportContext c) {
        return new WarmUpSection(Notes.warmUp(c.run()), WarmUps.rows(c.run()), WarmUps.pictures(c.run()),
                WarmUps.peaks(c.run()), c.charts().timeToPeak());
    }
}
