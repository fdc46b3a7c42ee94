package io.threadlab.experiment.report;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Recorded runs, rendered by this report, against what the report wrote from the same files at a7c5449, before it
 * was cut into sections: byte for byte. A refactoring of the report keeps these; a change meant to alter the report
 * regenerates them (the actual outputs of a failing run are left in {@code target/report-before-after/}).
 *
 * <p>The inputs are {@code /golden/<run>/}: the two golden runs, the published {@code findings/default-1} and
 * {@code map-1} (manifest.json, results.json, analysis.json where there is one, and the lane pictures the html
 * inlines), and a database run (with one empty compiler recording: the report only asks whether there is one). The
 * expected outputs are {@code /report-before-after/<run>/}: report.md as written; report.html as its SHA-256 and as a
 * skeleton, every inline {@code <svg>…</svg>} replaced by its own SHA-256, to show where a difference is without
 * storing 20 MB of charts; and every {@code charts/*.svg} by its SHA-256.
 *
 * <p>One input is no file: a run without its thread analysis names its own directory in report.html ("run
 * ./experiment analyze &lt;dir&gt;"), so the stored html says {@value #RUN_DIR} where the directory was.
 */
class ReportBeforeAfterTest {

    private static final String RUN_DIR = "@@RUN_DIR@@";
    private static final int EXCERPT = 300;

    @ParameterizedTest
    @ValueSource(strings = {"run-d6f4758", "run-4fa4b52-2x2", "default-1", "map-1", "2026-11-28T18-19-26Z"})
    void theReportIsTheOneWrittenBeforeTheSections(String run, @TempDir Path tmp) throws IOException {
        Path dir = copyRun(run, tmp.resolve(run));
        Report.write(dir);
        String expected = "/report-before-after/" + run + "/";

        String md = Files.readString(dir.resolve("report.md"));
        String html = Files.readString(dir.resolve("report.html")).replace(dir.toString(), RUN_DIR);
        String charts;
        try (Stream<Path> files = Files.list(dir.resolve("charts"))) {
            charts = files.sorted().map(f -> sha256(read(f)) + "  " + f.getFileName() + "\n")
                    .collect(Collectors.joining());
        }
        try {
            same(run + "/report.md", resource(expected + "report.md"), md);
            same(run + "/report.html (svgs by digest)", resource(expected + "report.html.skeleton"), skeleton(html));
            assertThat(sha256(html.getBytes(StandardCharsets.UTF_8)) + "\n").as(run + "/report.html, byte for byte")
                    .isEqualTo(resource(expected + "report.html.sha256"));
            same(run + "/charts/*.svg", resource(expected + "charts.sha256"), charts);
        } catch (AssertionError e) {
            keep(run, dir);
            throw e;
        }
    }

    /** The run's recorded files, in a directory of its own name: the report's title is that name. */
    static Path copyRun(String run, Path to) throws IOException {
        Path from;
        try {
            URL url = ReportBeforeAfterTest.class.getResource("/golden/" + run);
            assertThat(url).as("/golden/" + run).isNotNull();
            from = Path.of(url.toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        try (Stream<Path> files = Files.walk(from)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                String name = from.relativize(f).toString();
                if (name.endsWith(".json") || name.endsWith(".svg") || name.endsWith(".jfr")) {
                    Path target = to.resolve(name);
                    Files.createDirectories(target.getParent());
                    Files.copy(f, target);
                }
            }
        }
        return to;
    }

    /** Fails at the first character that differs, with the text around it on both sides. */
    private static void same(String what, String expected, String actual) {
        if (expected.equals(actual)) {
            return;
        }
        int at = 0;
        while (at < Math.min(expected.length(), actual.length()) && expected.charAt(at) == actual.charAt(at)) {
            at++;
        }
        int line = (int) expected.substring(0, at).chars().filter(c -> c == '\n').count() + 1;
        fail("%s differs first at character %d (line %d)%n--- expected ---%n%s%n--- actual ---%n%s", what, at, line,
                around(expected, at), around(actual, at));
    }

    private static String around(String text, int at) {
        int from = Math.max(0, at - EXCERPT);
        return text.substring(from, at) + "⟦HERE⟧" + text.substring(at, Math.min(text.length(), at + EXCERPT));
    }

    /** The html with every inline SVG replaced by its digest, as the stored skeleton was made. */
    static String skeleton(String html) {
        StringBuilder out = new StringBuilder();
        int from = 0;
        for (int start = html.indexOf("<svg"); start >= 0; start = html.indexOf("<svg", from)) {
            int end = html.indexOf("</svg>", start);
            if (end < 0) {
                break;
            }
            end += "</svg>".length();
            out.append(html, from, start).append("<svg sha256=\"")
                    .append(sha256(html.substring(start, end).getBytes(StandardCharsets.UTF_8))).append("\"/>");
            from = end;
        }
        return out.append(html, from, html.length()).toString();
    }

    /** A failing run's outputs, to read or to make the new expectation from. */
    private static void keep(String run, Path dir) throws IOException {
        Path kept = Files.createDirectories(Path.of("target", "report-before-after", run, "charts"));
        for (String file : List.of("report.md", "report.html")) {
            Files.copy(dir.resolve(file), kept.resolve("../" + file).normalize(),
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        try (Stream<Path> charts = Files.list(dir.resolve("charts"))) {
            for (Path chart : charts.toList()) {
                Files.copy(chart, kept.resolve(chart.getFileName()), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = ReportBeforeAfterTest.class.getResourceAsStream(name)) {
            assertThat(in).as(name).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static byte[] read(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
