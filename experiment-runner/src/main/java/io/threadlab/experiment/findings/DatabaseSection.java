package io.threadlab.experiment.findings;

import io.threadlab.experiment.report.RunFacts;

import java.util.List;

/**
 * The database's runs: each variant at each point with what the seeds compared (throughput, p99, memory, threads)
 * and what the database spent per request, and each model against the worker-thread model.
 */
final class DatabaseSection {

    record Row(String at, String variant, List<String> values) {
    }

    /** @param notAFinding why the run's report does not call it a finding ("" where it does) */
    record Ratio(String at, String comparison, String throughput, String p99, String cpu, String notAFinding) {
    }

    record Run(String run, String started, List<Row> rows, List<Ratio> ratios) {
    }

    static final List<String> COLUMNS = List.of("req/s", "p99 ms", "CPU ms per request", "RSS MB", "heap used MB",
            "platform threads", "PostgreSQL CPU ms per request");

    private DatabaseSection() {
    }

    static List<Run> of(List<PublishedRun> runs) {
        return runs.stream().map(run -> new Run(Cite.link(run.name(), run.report()), Cite.link(HeadlineSection.day(
                run), run.manifest()), run.facts().cells().stream().map(c -> row(c, run.results())).toList(),
                run.facts().againstBaseline().stream().map(r -> ratio(r, run.results())).toList())).toList();
    }

    private static Row row(RunFacts.CellFact c, String file) {
        return new Row(c.at().describe(), c.variant(), List.of(Cite.number(c.requestsPerSecond(), 0, file),
                Cite.number(c.p99Ms(), 0, file), Cite.number(c.cpuMsPerRequest(), 3, file),
                Cite.number(c.rssMb(), 0, file), Cite.number(c.heapUsedMb(), 0, file),
                Cite.number(c.platformThreads(), 0, file), Cite.number(c.dbCpuMsPerRequest(), 3, file)));
    }

    static Ratio ratio(RunFacts.RatioFact r, String file) {
        return new Ratio(r.at().describe(), r.variant() + " / " + r.against(), Ratios.cited(r.throughput(), file),
                Ratios.cited(r.p99(), file), Ratios.cited(r.cpu(), file), r.compilerUnfinished()
                ? "not a finding: a compiler had not finished when its JVM's warm-up gave up" : "");
    }
}
