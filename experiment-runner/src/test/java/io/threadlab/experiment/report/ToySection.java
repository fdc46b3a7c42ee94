package io.threadlab.experiment.report;

/**
 * A section the runner does not have, in test scope only: its windows counted from the run, and a threshold from the
 * context, shown by its fragments sections/toy.md and toy.html in the tests' resources.
 */
record ToySection(int windows, String variants, Thresholds thresholds) {

    static ToySection of(ReportContext c) {
        return new ToySection(c.run().windows().size(), String.join(" & ", c.run().variants()), c.thresholds());
    }
}
