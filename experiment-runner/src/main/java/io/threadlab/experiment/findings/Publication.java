package io.threadlab.experiment.findings;

import io.threadlab.experiment.collect.PlanFacts;
import io.threadlab.experiment.collect.RunManifest;
import io.threadlab.experiment.collect.RunRecord;
import io.threadlab.experiment.plan.Defaults;
import io.threadlab.experiment.plan.WindowId;
import io.threadlab.experiment.report.RunFacts;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * {@code ./experiment publish RESULTS_DIR --as NAME}: a finished run's small artifacts copied into the repository's
 * {@code findings/NAME/}, where the findings page is generated from them and a reader can check every number. Only a
 * completed run with every point measured is published, never a recording, and never more than {@link #SIZE_CAP}: a
 * refusal says why and writes nothing.
 */
public final class Publication {

    /** What a published run may weigh: its results and report, a few MB at most; never its recordings. */
    public static final long SIZE_CAP = 8L * 1024 * 1024;

    /** The files a published run keeps: what the page computes from, and what a reader opens to check it. */
    static final List<String> FILES = List.of("manifest.json", "results.json", "results.csv", "report.md",
            "analysis.json", "analysis.md");
    /** Pictures: the report's charts and the analysis' lane pictures, SVG only. */
    private static final Pattern PICTURES = Pattern.compile("(charts/[^/]+|lanes-[^/]+)\\.svg");
    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9.-]{0,62}");
    /** A JFR recording begins with these bytes, whatever it is named. */
    private static final byte[] JFR_MAGIC = {'F', 'L', 'R', 0};

    /** A run that cannot be published, and why; nothing was written. */
    public static final class Refused extends Exception {
        Refused(String message) {
            super(message);
        }
    }

    private Publication() {
    }

    /** Checks the run and copies it into {@code findingsRoot/name}; returns that folder. */
    public static Path publish(Path results, Path findingsRoot, String name) throws Refused {
        if (!NAME.matcher(name).matches()) {
            throw new Refused("--as " + name + ": a name is lower-case letters, digits, dots and dashes (e.g."
                    + " default-2026-11-28a), starting with a letter or digit");
        }
        Path target = findingsRoot.resolve(name);
        if (Files.exists(target)) {
            throw new Refused(target + " exists: a published run is never overwritten; choose another name");
        }
        List<Path> files = check(results);
        Path partial = findingsRoot.resolve("." + name + ".partial");
        try {
            Files.createDirectories(findingsRoot);
            deleteTree(partial); // what an interrupted publication left
            for (Path file : files) {
                Path copy = partial.resolve(results.relativize(file).toString());
                Files.createDirectories(copy.getParent());
                if (isSvg(file)) {
                    Files.writeString(copy, Svg.lighter(Files.readString(file)));
                } else {
                    Files.copy(file, copy, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
            Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE);
            return target;
        } catch (FileAlreadyExistsException e) {
            deleteTree(partial);
            throw new Refused(target + " exists: a published run is never overwritten; choose another name");
        } catch (IOException e) {
            deleteTree(partial);
            throw new UncheckedIOException("cannot publish into " + target + ": " + e.getMessage(), e);
        }
    }

    /** The files to publish, once the run is known to be whole, readable and small; else why not. */
    static List<Path> check(Path results) throws Refused {
        if (!Files.isDirectory(results)) {
            throw new Refused(results + " is not a directory: give a results directory of ./experiment run or map");
        }
        RunManifest manifest;
        try {
            manifest = RunRecord.read(results).manifest();
        } catch (IOException | RuntimeException e) {
            throw new Refused("not a results directory of ./experiment run or map: " + e.getMessage());
        }
        if (!manifest.completed() || !"completed".equals(manifest.status())) {
            throw new Refused("the run did not complete (status " + manifest.status()
                    + (manifest.failure() != null ? ": " + manifest.failure() : "") + "): only a whole run is"
                    + " published");
        }
        List<String> lost = lostBeyondMistakes(manifest);
        if (!lost.isEmpty()) {
            throw new Refused("a partial run: " + lost.size() + " point(s) not measured (" + String.join("; ", lost)
                    + ")");
        }
        PlanFacts.Sampling sampling = manifest.plan() == null ? null : manifest.plan().sampling();
        if (sampling != null && sampling.windowSeconds() <= Defaults.QUICK_WINDOW) {
            throw new Refused("a smoke run (windows of " + sampling.windowSeconds() + " s, no longer than --quick's "
                    + Defaults.QUICK_WINDOW + " s): it checks that the pipeline works, and its numbers are not"
                    + " findings; publish a run whose windows are longer (the default's: " + Defaults.WINDOW + " s)");
        }
        if (!Files.isRegularFile(results.resolve("report.md"))) {
            throw new Refused("no report.md in " + results + ": make it with ./experiment report " + results);
        }
        List<Path> files = selected(results);
        for (Path file : files) {
            if (isRecording(file)) {
                throw new Refused(results.relativize(file) + " is a JFR recording: recordings are never published"
                        + " (they stay in the results directory)");
            }
        }
        long size = files.stream().mapToLong(Publication::publishedSize).sum();
        if (size > SIZE_CAP) {
            String largest = files.stream().sorted(Comparator.comparingLong(Publication::publishedSize).reversed())
                    .limit(3).map(f -> results.relativize(f) + " " + megabytes(publishedSize(f)))
                    .reduce((a, b) -> a + ", " + b)
                    .orElse("");
            throw new Refused("the run's files weigh " + megabytes(size) + ", more than the " + megabytes(SIZE_CAP)
                    + " a published run may (largest: " + largest + ")");
        }
        try {
            RunFacts.read(results); // the page must be able to read what is published
        } catch (IOException | RuntimeException e) {
            throw new Refused("the findings page could not read this run: " + e.getMessage());
        }
        return files;
    }

    /**
     * The points the run went on without, but for a mistake's own: a mistake that stops its service answering has
     * that as its cost, which its card shows; a model's or a reference's lost point leaves the run partial.
     */
    private static List<String> lostBeyondMistakes(RunManifest manifest) {
        Set<String> mistakes = manifest.plan() == null ? Set.of() : manifest.plan().variantRoles().mistakes().keySet();
        return manifest.lostPoints().stream().filter(w -> WindowId.parse(w.substring(0, Math.max(0, w.indexOf(": "))))
                .map(WindowId::variant).filter(mistakes::contains).isEmpty()).toList();
    }

    private static List<Path> selected(Path results) {
        List<Path> files = new ArrayList<>(FILES.stream().map(results::resolve).filter(Files::isRegularFile).toList());
        try (Stream<Path> all = Files.walk(results)) {
            all.filter(Files::isRegularFile).filter(f -> PICTURES.matcher(results.relativize(f).toString()
                    .replace('\\', '/')).matches()).sorted().forEach(files::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return files;
    }

    private static boolean isRecording(Path file) {
        if (file.getFileName().toString().endsWith(".jfr")) {
            return true;
        }
        try (InputStream in = Files.newInputStream(file)) {
            return Arrays.equals(in.readNBytes(JFR_MAGIC.length), JFR_MAGIC);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** What a file will weigh published: an SVG's paths drawn to a tenth of a pixel, the rest as it is. */
    private static long publishedSize(Path file) {
        try {
            return isSvg(file) ? Svg.lighter(Files.readString(file)).getBytes(java.nio.charset.StandardCharsets.UTF_8)
                    .length : Files.size(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean isSvg(Path file) {
        return file.getFileName().toString().endsWith(".svg");
    }

    private static String megabytes(long bytes) {
        return String.format(Locale.ROOT, "%.1f MB", bytes / 1024.0 / 1024.0);
    }

    private static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
