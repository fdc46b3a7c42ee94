package io.threadlab.experiment;

import io.threadlab.experiment.analyse.ThreadAnalysis;
import io.threadlab.experiment.analyse.jmc.JmcTiming;
import io.threadlab.experiment.start.LabDatabase;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code ./experiment analyze}: the thread analysis of a results directory or one recording. */
@Command(name = "analyze", mixinStandardHelpOptions = true,
        description = {"Thread-behaviour analysis of JFR recordings: per thread group (worker pool, event loops, "
                + "virtual threads, carriers, ...) socket I/O, parks, CPU samples, pinning; verdicts per variant; "
                + "a thread-lane picture per variant. Runs by itself at the end of `run`.",
                "Writes analysis.json, analysis.md and lanes-<variant>.svg/.png into the results directory "
                        + "(or <recording>.analysis.* beside a single recording), only when it read a recording."})
final class AnalyzeCommand implements Callable<Integer> {

    @Parameters(paramLabel = "RESULTS_DIR|RECORDING.jfr", description = "A results directory or one recording.")
    Path target;

    @Option(names = "--delay-port", paramLabel = "PORT", description = "The delay service's port, which marks "
            + "downstream socket I/O (default: 8090).")
    int delayPort = Experiment.DELAY_PORT;

    @Option(names = "--database-port", paramLabel = "PORT", description = "The database's port, which marks "
            + "its socket I/O, where the run's manifest does not name it (default: " + LabDatabase.PORT + ").")
    int databasePort = LabDatabase.PORT;

    @Override
    public Integer call() {
        if (!Files.exists(target)) {
            throw new IllegalArgumentException("no such results directory or recording: " + target);
        }
        return analyse(target, delayPort, databasePort);
    }

    static int analyse(Path target) {
        return analyse(target, Experiment.DELAY_PORT, LabDatabase.PORT);
    }

    /** Exit 0 when every recording was analysed, 1 when any could not be (the others are still written). */
    static int analyse(Path target, int delayPort, int databasePort) {
        ThreadAnalysis.Outcome outcome = new ThreadAnalysis(delayPort, databasePort).analyse(target);
        outcome.failures().forEach(f -> System.err.println("experiment analyze: " + f));
        if (outcome.analyses().isEmpty()) {
            System.err.println("experiment analyze: nothing written: no recording could be read");
            return 1;
        }
        System.out.println();
        System.out.print(ThreadAnalysis.table(outcome.analyses()));
        outcome.lanes().values().forEach(svg -> System.out.println("Thread lanes: " + svg));
        System.out.println(JmcTiming.line(outcome.jmc()));
        System.out.println("Analysis: " + outcome.markdown() + " and " + outcome.json());
        return outcome.failures().isEmpty() ? 0 : 1;
    }
}
