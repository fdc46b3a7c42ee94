package io.threadlab.experiment.report;

import java.util.List;

/**
 * What to open next: the analysis, the recorded windows' JFR files, the compiler recordings where they were kept.
 *
 * @param recordings the recorded windows' JFR files, relative to the results directory
 */
record OpenNextSection(List<String> recordings, boolean compilerRecordings) {

    static OpenNextSection of(ReportContext c) {
        return new OpenNextSection(Threads.recordings(c.run()), Setup.compilerRecordings(c.run()));
    }
}
