package io.threadlab.experiment;

import io.threadlab.experiment.findings.FindingsPage;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code ./experiment findings}: docs/findings.md, its pictures and README.md's findings section, made from the runs
 * published in findings/. {@code --check} writes nothing and says whether they are the data's.
 */
@Command(name = "findings", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Make docs/findings.md (with its pictures, docs/findings-*.svg) and README.md's findings"
                + " section from the runs published in findings/ (./experiment publish): every number links to the"
                + " file it came from. Nothing is typed by hand; run this after changing how a number is computed."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:made (or, with --check, already the data's)", "1:a published run could not be read; with"
                + " --check, a generated file differs from what the data makes"})
final class FindingsCommand implements Callable<Integer> {

    @Option(names = "--check", description = "Write nothing; exit 1 if any generated file differs from what the"
            + " published runs make.")
    boolean check;

    @Override
    public Integer call() {
        Path lab = LabHome.find();
        long start = System.nanoTime();
        try {
            if (check) {
                List<Path> stale = FindingsPage.stale(lab);
                stale.forEach(p -> System.err.println("experiment findings: " + p + " is not what findings/ makes"));
                System.out.println(stale.isEmpty() ? "The findings page is the published runs'." : "Run ./experiment"
                        + " findings to make it again.");
                return stale.isEmpty() ? 0 : 1;
            }
            say(lab, FindingsPage.write(lab));
            System.out.printf(java.util.Locale.ROOT, "Made in %.1f s%n", (System.nanoTime() - start) / 1e9);
            return 0;
        } catch (RuntimeException e) {
            System.err.println("experiment findings: " + e.getMessage());
            return 1;
        }
    }

    static void say(Path lab, List<Path> written) {
        System.out.println(written.isEmpty() ? "Findings: nothing changed (" + FindingsPage.PAGE + ")"
                : "Findings: wrote " + String.join(", ", written.stream().map(Path::toString).toList()));
    }
}
