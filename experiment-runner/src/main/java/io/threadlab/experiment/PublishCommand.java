package io.threadlab.experiment;

import io.threadlab.experiment.findings.FindingsPage;
import io.threadlab.experiment.findings.Publication;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code ./experiment publish RESULTS_DIR --as NAME}: a finished run into the repository's findings, and the findings
 * page made again from them. Exit 2, with why and nothing written, for a run that cannot be published.
 */
@Command(name = "publish", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Publish a finished run into the repository: its small artifacts (manifest.json, results.json,"
                + " results.csv, report.md, the thread analysis and the SVG charts; never a recording) are copied into"
                + " findings/NAME/, and docs/findings.md and README.md's findings section are made again from every"
                + " published run.",
                "Refused, with the reason and nothing written: a directory that is not a completed run of"
                        + " ./experiment run or map, a run with points it could not measure, a smoke run (windows no"
                        + " longer than --quick's), a name already published,"
                        + " a recording among the files, or more than the size cap."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:published, and the page made again", "1:published, but the page could not be made",
                "2:refused: nothing written"},
        footerHeading = "%nExample:%n",
        footer = "  ./experiment publish results/2026-11-28T17-11-19Z --as default-2026-11-28a")
final class PublishCommand implements Callable<Integer> {

    @Parameters(paramLabel = "RESULTS_DIR", description = "A results directory of ./experiment run or map.")
    Path results;

    @Option(names = "--as", required = true, paramLabel = "NAME", description = "The published run's name: its"
            + " folder under findings/ (lower-case letters, digits, dots and dashes).")
    String name;

    @Override
    public Integer call() {
        Path lab = LabHome.find();
        Path published;
        try {
            published = Publication.publish(results.toAbsolutePath(), lab.resolve(FindingsPage.FINDINGS), name);
        } catch (Publication.Refused e) {
            System.err.println("experiment publish: " + e.getMessage() + "; nothing was written");
            return 2;
        }
        System.out.println("Published " + results + " as " + lab.relativize(published));
        try {
            FindingsCommand.say(lab, FindingsPage.write(lab));
            return 0;
        } catch (RuntimeException e) {
            System.err.println("experiment publish: the run is published, but the findings page could not be made: "
                    + e.getMessage());
            return 1;
        }
    }
}
