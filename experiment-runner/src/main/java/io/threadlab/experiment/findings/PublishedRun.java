package io.threadlab.experiment.findings;

import io.threadlab.experiment.report.RunFacts;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A run published into the repository's {@code findings/<name>/}: its name, what it measured, and its facts as the
 * report computes them from its results. Runs are ordered by when they started, so that the page lists them in the
 * order they were measured, whatever their names.
 */
record PublishedRun(String name, Kind kind, RunFacts facts) {

    /** Where the findings page (docs/findings.md) finds a published run's files. */
    static final String FROM_DOCS = "../findings/";

    /** Every published run under {@code root}, oldest first; a folder that is not one is refused with its name. */
    static List<PublishedRun> readAll(Path root) {
        if (!Files.isDirectory(root)) {
            return List.of();
        }
        List<PublishedRun> runs = new ArrayList<>();
        try (Stream<Path> dirs = Files.list(root)) {
            for (Path dir : dirs.filter(Files::isDirectory).filter(d -> !d.getFileName().toString().startsWith("."))
                    .sorted().toList()) {
                RunFacts facts = RunFacts.read(dir);
                runs.add(new PublishedRun(dir.getFileName().toString(), Kind.of(facts.manifest()), facts));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("findings: " + e.getMessage(), e);
        }
        runs.sort(Comparator.comparing((PublishedRun r) -> String.valueOf(r.facts().manifest().startedAt()))
                .thenComparing(PublishedRun::name));
        return List.copyOf(runs);
    }

    /** A file of this run, as the findings page links it. */
    String link(String file) {
        return FROM_DOCS + name + "/" + file;
    }

    /** The results table: one row per window, where every measured number of the page can be checked. */
    String results() {
        return link("results.csv");
    }

    /** The manifest: versions, knobs and the plan. */
    String manifest() {
        return link("manifest.json");
    }

    String report() {
        return link("report.md");
    }

    /** The Quarkus version its services were built with, as its manifest records it. */
    String platform() {
        return facts.manifest().lab() == null ? "unknown" : String.valueOf(facts.manifest().lab().quarkusVersion());
    }

    /** The processor it ran on, as its manifest names it ("unknown" where it did not). */
    String processor() {
        return facts.manifest().lab() == null ? "unknown" : String.valueOf(facts.manifest().lab().cpuModel());
    }

    /** The commit it was measured at, short. */
    String commit() {
        String sha = facts.manifest().lab() == null ? null : facts.manifest().lab().gitSha();
        return sha == null || sha.length() < 7 ? "unknown" : sha.substring(0, 7);
    }
}
