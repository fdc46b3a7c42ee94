package io.threadlab.experiment.findings;

import io.threadlab.experiment.collect.RunManifest;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;

/**
 * Every published run: what it measured, when, at which commit, on which JDK and Quarkus, with which k6 collector, and
 * what its checks said.
 */
final class RunsIndex {

    record Row(String run, String kind, String started, String commit, String jdk, String quarkus, String k6Gogc,
               String minutes, String failedChecks) {
    }

    /** What a run that set no GOGC for k6 ran with: Go's own default, before the knob. */
    static final String GO_DEFAULT = "Go's default";

    private RunsIndex() {
    }

    static List<Row> of(List<PublishedRun> runs) {
        return runs.stream().map(RunsIndex::row).toList();
    }

    private static Row row(PublishedRun run) {
        RunManifest m = run.facts().manifest();
        String manifest = run.manifest();
        RunManifest.Lab lab = m.lab();
        String started = m.startedAt() == null ? "unknown"
                : Cite.link(m.startedAt().substring(0, Math.min(16, m.startedAt().length())).replace('T', ' '),
                manifest);
        String commit = lab == null || lab.gitSha() == null ? "unknown" : Cite.link(lab.gitSha().substring(0,
                Math.min(7, lab.gitSha().length())) + (lab.gitDirty() ? " with changes" : ""), manifest);
        return new Row(Cite.link(run.name(), run.report()), run.kind().label(), started, commit,
                run.facts().jdk().map(v -> Cite.link(v, manifest)).orElse("unknown"),
                lab == null || lab.quarkusVersion() == null ? "unknown" : Cite.link(lab.quarkusVersion(), manifest),
                gogc(m, manifest), minutes(m, manifest),
                Cite.link(String.valueOf(run.facts().failedChecks().size()), run.report()));
    }

    /** k6's GOGC as the run's placement recorded it (--k6-gogc). */
    private static String gogc(RunManifest m, String manifest) {
        Object gogc = m.k6Environment().get("GOGC");
        return gogc == null ? GO_DEFAULT : Cite.link(String.valueOf(gogc), manifest);
    }

    private static String minutes(RunManifest m, String manifest) {
        double minutes = minutes(m);
        return Double.isNaN(minutes) ? "unknown" : Cite.number(minutes, 1, manifest);
    }

    /** From the run's start to its end, as its manifest records them (NaN: not recorded). */
    static double minutes(RunManifest m) {
        try {
            return Duration.between(Instant.parse(m.startedAt()), Instant.parse(m.finishedAt())).toMillis() / 60000.0;
        } catch (DateTimeParseException | NullPointerException e) {
            return Double.NaN;
        }
    }
}
