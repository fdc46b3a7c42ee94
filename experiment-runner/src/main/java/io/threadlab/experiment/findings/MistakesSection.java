package io.threadlab.experiment.findings;

import io.threadlab.experiment.report.RunFacts;

import java.util.ArrayList;
import java.util.List;

/**
 * The gallery: each mistake against the correct variant it spoils, at every point its run measured, and whether the
 * thread analysis found the mistake's signature in its recording by itself.
 */
final class MistakesSection {

    record Row(String mistake, String spoils, String at, String throughput, String p99, String cpu,
               String signature) {
    }

    /** A mistake through JMC's eyes: what its first page flags on the mistake's recording, beside the lab's name. */
    record Seen(String mistake, String lab, String jmc) {
    }

    record Run(String run, String started, List<Row> rows, List<String> lost, List<Seen> seen) {
    }

    private MistakesSection() {
    }

    static List<Run> of(List<PublishedRun> runs) {
        List<Run> sections = new ArrayList<>();
        for (PublishedRun run : runs) {
            List<Row> rows = new ArrayList<>();
            List<String> lost = new ArrayList<>();
            List<Seen> seen = new ArrayList<>();
            for (RunFacts.MistakeFact m : run.facts().mistakes()) {
                String signature = signature(m, run);
                if (m.recordings() > 0) {
                    seen.add(new Seen(m.mistake(), signature, m.jmcFlagged().isEmpty() ? "nothing"
                            : Cite.link(String.join(", ", m.jmcFlagged()), run.link("analysis.md"))));
                }
                for (RunFacts.RatioFact cost : m.costs()) {
                    rows.add(new Row(m.mistake(), m.spoils(), cost.at().describe(),
                            Ratios.cited(cost.throughput(), run.results()), Ratios.cited(cost.p99(), run.results()),
                            Ratios.cited(cost.cpu(), run.results()), signature));
                }
                m.lost().forEach(l -> lost.add(Cite.link(l, run.report())));
            }
            sections.add(new Run(Cite.link(run.name(), run.report()), Cite.link(HeadlineSection.day(run),
                    run.manifest()), rows, lost, seen));
        }
        return sections;
    }

    private static String signature(RunFacts.MistakeFact m, PublishedRun run) {
        if (m.signature().isEmpty()) {
            return "none the analysis recognises";
        }
        if (m.recordings() == 0) {
            return "no recording";
        }
        return Cite.link(m.signatureFound() ? "found: " + m.signature().get() : "not found", run.link("analysis.md"));
    }
}
