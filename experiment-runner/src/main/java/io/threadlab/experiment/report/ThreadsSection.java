package io.threadlab.experiment.report;

import java.util.List;

/**
 * Where the threads wait: the thread analysis' lane pictures and its verdict on each recording.
 *
 * @param dir the results directory, for the command that analyses it where it was not
 */
record ThreadsSection(String dir, List<Threads.Lane> lanes, List<Threads.Verdict> verdicts) {

    static ThreadsSection of(ReportContext c) {
        return new ThreadsSection(c.run().dir().toString(), Threads.lanes(c.run()), Threads.verdicts(c.run()));
    }
}
