package io.threadlab.experiment.report;

import java.util.List;

/**
 * "Predicted before measured": every point beside what was predicted of it, and, where the run spans enough delays or
 * users, who wins where and the landscape's charts ({@link LandscapeView}).
 *
 * @param thresholds what the prose quotes of the model's targets
 */
record LandscapeSection(LandscapeView view, List<Charts.Figure> charts, Thresholds thresholds) {

    static LandscapeSection of(ReportContext c) {
        return new LandscapeSection(LandscapeView.of(c.landscape(), c.run().windows()), c.charts().landscape(),
                c.thresholds());
    }
}
