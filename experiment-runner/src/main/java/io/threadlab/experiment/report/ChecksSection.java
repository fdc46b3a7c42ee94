package io.threadlab.experiment.report;

import java.util.List;

/** The validity checks: whether the run measured what it meant to, each with the numbers it was judged on. */
record ChecksSection(List<Check> checks) {

    static ChecksSection of(ReportContext c) {
        return new ChecksSection(Checks.of(c.run(), c.cells(), c.ratios()));
    }
}
