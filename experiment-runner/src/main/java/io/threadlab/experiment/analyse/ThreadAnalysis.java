package io.threadlab.experiment.analyse;

import io.threadlab.experiment.analyse.jmc.JmcRecording;
import io.threadlab.experiment.analyse.jmc.JmcRules;
import io.threadlab.experiment.collect.Json;
import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.WindowId;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * {@code analyze}: every recording of a results directory (or one recording) through the analyzer, with what
 * results.json says of its window, then analysis.json, analysis.md (rendered from the same records), a console table
 * and one lane picture per label. A recording that cannot be read is named with what is wrong, and the others are
 * still analysed; when none can be, nothing is written.
 */
public final class ThreadAnalysis {

    private static final Duration SLICE = Duration.ofMillis(200);
    private static final int LANES_PER_GROUP = 14;

    private final RecordingAnalyzer analyzer;
    private final int databasePort;
    private JmcRules jmcRules;

    /** @param databasePort the database's port where a run's manifest does not name its own */
    public ThreadAnalysis(int delayPort, int databasePort) {
        this.analyzer = new RecordingAnalyzer(delayPort, databasePort);
        this.databasePort = databasePort;
    }

    /** For recordings of HTTP windows only: no port is taken for the database's. */
    public ThreadAnalysis(int delayPort) {
        this(delayPort, RecordingAnalyzer.NO_PORT);
    }

    /**
     * What an analysis produced: the analyses, the failures (one line each), and where it wrote; {@code json} and
     * {@code markdown} are null when it wrote nothing, having read no recording.
     */
    public record Outcome(List<RecordingAnalysis> analyses, List<String> failures, Path json, Path markdown,
                          Map<String, Path> lanes, List<JmcRecording> jmc) {
    }

    /** @param target a results directory (its jfr/*.jfr) or a single .jfr file */
    public Outcome analyse(Path target) {
        boolean single = Files.isRegularFile(target) || target.toString().endsWith(".jfr");
        List<Path> recordings = single ? List.of(target) : recordingsIn(target);
        Path outDir = single ? target.toAbsolutePath().getParent() : target.toAbsolutePath();
        String prefix = single ? stripJfr(target.getFileName().toString()) + "." : "";

        List<RecordingAnalysis> analyses = new ArrayList<>();
        List<JmcRecording> jmc = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        if (recordings.isEmpty()) {
            failures.add(target + ": no recordings found (expected " + target.resolve("jfr") + "/*.jfr)");
        }
        Path run = single ? runOf(target) : target;
        RecordedWindows measured = RecordedWindows.read(run);
        int runsDatabasePort = measured.databasePort() != null ? measured.databasePort() : databasePort;
        for (Path recording : recordings) {
            try {
                RecordedWindows.Row row = measured.row(recording);
                RecordingAnalysis a = analyzer.analyse(recording, runsDatabasePort, row.downstreamOrNull());
                a = a.withMeasured(row.cpuMsPerRequest(), measured.delayMs(recording, a.window()),
                        stalls(recording, row, failures)).withJdk(measured.jdk())
                        .withFanOut(WindowFanOut.of(row.fanOut(), row.fanOutMode(), a.window()));
                a = a.withHeldCalls(a.downstream().database() ? null : HeldCalls.of(row, a.measured().fanOut()));
                // The pool's own numbers speak of the window's downstream only where it is the database.
                if (a.downstream().database()) {
                    Path log = row.serviceLog(run);
                    Long refused = RefusedConnections.inDatabaseLog(run.resolve("logs/postgres.log"), a.start(),
                            a.end());
                    if (refused == null && log != null) {
                        refused = RefusedConnections.during(log, a.start(), a.end(), ZoneId.systemDefault());
                    }
                    a = a.withPoolEdges(PoolGauges.read(run.resolve("metrics"), a.window()))
                            .withRefusedConnections(refused);
                }
                analyses.add(a);
                jmc.add(jmcRules().evaluate(recording, a.window(), jmcPage(recording), outDir));
            } catch (UnusableRecording e) {
                failures.add(e.getMessage()); // named once: JMC's rules are run on the recordings the lab could read
            }
        }
        jmc.stream().filter(j -> j.failure() != null).forEach(j -> failures.add(j.file() + ": " + j.failure()));
        if (analyses.isEmpty()) {
            // Nothing to say, and README.md.analysis.json beside a file that is no recording would say otherwise.
            return new Outcome(analyses, failures, null, null, Map.of(), jmc);
        }
        Map<String, Path> lanes = new LinkedHashMap<>();
        for (RecordingAnalysis chosen : lanesSources(analyses)) {
            try {
                ThreadLanes picture = ThreadLanes.read(chosen, SLICE, LANES_PER_GROUP);
                Path svg = outDir.resolve(prefix + "lanes-" + chosen.label() + ".svg");
                LaneChart.write(picture, svg, pngOrNull(outDir.resolve(prefix + "lanes-" + chosen.label() + ".png")));
                lanes.put(chosen.label(), svg);
            } catch (IOException | RuntimeException | Error e) {
                failures.add(chosen.file() + ": lane picture failed: " + e);
            }
        }
        Map<String, String> pictures = new LinkedHashMap<>();
        lanes.forEach((label, svg) -> pictures.put(label, outDir.relativize(svg.toAbsolutePath()).toString()));
        AnalysisFile file = new AnalysisFile(analyses.stream().map(a -> RecordingEntry.of(a, Verdicts.of(a)))
                .toList(), failures, pictures, jmc);
        Path json = outDir.resolve(prefix + "analysis.json");
        Path markdown = outDir.resolve(prefix + "analysis.md");
        Json.write(json, file);
        try {
            Files.writeString(markdown, AnalysisMarkdown.render(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new Outcome(analyses, failures, json, markdown, lanes, jmc);
    }

    /**
     * The console table: one line per recording. Socket reads count those from the recording's threshold ("sockets
     * from"): from 1 ms, an event loop's microsecond reads are not there. The reads are from the window's downstream
     * ("waits": http, the delay service; db, the database); "pool wts" are waits in a JDBC pool, every group's.
     */
    public static String table(List<RecordingAnalysis> analyses) {
        // as wide as the longest name: today's carry a delay and a setup (imperative-w512-300ms-closed-3000-jfr-1)
        int width = Math.max(34, analyses.stream().mapToInt(a -> a.window().length()).max().orElse(0));
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT,
                "%-" + width + "s %12s %5s %8s %9s %9s %9s %9s %9s %9s %7s %-44s %s%n", "recording", "sockets from",
                "waits", "workers", "wrk reads", "loop rds", "vt reads", "pool wts", "vthreads", "pinned", "carr.idle",
                "top monitor contention (waits, total ms)", "signature"));
        for (RecordingAnalysis a : analyses) {
            Verdicts v = Verdicts.of(a);
            out.append(String.format(Locale.ROOT,
                    "%-" + width + "s %12s %5s %8d %9d %9d %9d %9d %9d %9d %7s %-44s %s%n", a.window(),
                    a.socketThreshold() == null ? "?" : a.socketThreshold(), a.downstream().name(),
                    a.downstreamIo(ThreadKind.WORKER).readers.size(),
                    a.downstreamIo(ThreadKind.WORKER).reads.count(),
                    a.downstreamIo(ThreadKind.EVENT_LOOP).reads.count(),
                    a.downstreamIo(ThreadKind.VIRTUAL).reads.count(),
                    a.groups().values().stream().mapToLong(g -> g.poolWaits.count()).sum(),
                    a.virtualThreads().started(), a.virtualThreads().pinned().count(),
                    Double.isNaN(a.carrierIdleShare()) ? "-"
                            : String.format(Locale.ROOT, "%.0f%%", a.carrierIdleShare() * 100),
                    topContention(a),
                    signature(v)));
        }
        return out.toString();
    }

    private static String signature(Verdicts v) {
        List<String> said = new ArrayList<>();
        said.add(v.unexpected().isEmpty() ? "as expected" : "UNEXPECTED: " + String.join("; ", v.unexpected()));
        v.mistakes().stream().filter(Mistakes.Mistake::harmful).map(m -> "MISTAKE " + m.name()).forEach(said::add);
        return String.join("; ", said);
    }

    private static String topContention(RecordingAnalysis a) {
        if (a.waitedAt().monitorEnterSites().isEmpty()) {
            return "-";
        }
        WaitSites.Site top = a.waitedAt().monitorEnterSites().getFirst();
        String numbers = String.format(Locale.ROOT, " (%d, %.0f)", top.count(), top.totalMs());
        String site = top.shortForm();
        int room = 44 - numbers.length();
        return (site.length() > room ? site.substring(0, room - 1) + "…" : site) + numbers;
    }

    /**
     * The stalls in the recorded window's per-second throughput, with the recording's samples of them; none where
     * the row does not say when its measured interval began, for then its seconds cannot be found in the recording.
     */
    private static List<RecordedStall> stalls(Path recording, RecordedWindows.Row row, List<String> failures) {
        List<Stalls.Stall> stalls = Stalls.find(row.perSecond(), row.users());
        if (stalls.isEmpty() || row.measuredAt() == null) {
            return List.of();
        }
        try {
            return StallChains.read(recording, stalls, Instant.parse(row.measuredAt()));
        } catch (IOException | DateTimeParseException e) {
            failures.add(recording + ": the stalls' samples could not be read: " + e.getMessage());
            return List.of();
        }
    }

    /** JMC's rules, loaded once (the registry reads its rules and the lab's from the service files). */
    private JmcRules jmcRules() {
        if (jmcRules == null) {
            jmcRules = new JmcRules();
        }
        return jmcRules;
    }

    /** JMC's own page of its rules, beside the recording: {@code x.jfr} gets {@code x.jmc.html}. */
    private static Path jmcPage(Path recording) {
        return recording.toAbsolutePath().resolveSibling(stripJfr(recording.getFileName().toString()) + ".jmc.html");
    }

    /** The run a single recording belongs to: the directory above the jfr/ directory that holds it, else its own. */
    private static Path runOf(Path recording) {
        Path dir = recording.toAbsolutePath().getParent();
        return dir.getFileName() != null && dir.getFileName().toString().equals("jfr") ? dir.getParent() : dir;
    }

    private static List<Path> recordingsIn(Path dir) {
        Path jfr = dir.resolve("jfr");
        if (!Files.isDirectory(jfr)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(jfr)) {
            return files.filter(f -> f.toString().endsWith(".jfr")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Per label (the variant, or the mistake), the recording under the heaviest closed-model load of the first
     * repetition, else any.
     */
    private static List<RecordingAnalysis> lanesSources(List<RecordingAnalysis> analyses) {
        Map<String, RecordingAnalysis> best = new LinkedHashMap<>();
        Comparator<RecordingAnalysis> preference = Comparator.comparingInt(ThreadAnalysis::closedLevel)
                .thenComparing(a -> -repetition(a));
        for (RecordingAnalysis a : analyses) {
            best.merge(a.label(), a, (x, y) -> preference.compare(x, y) >= 0 ? x : y);
        }
        return List.copyOf(best.values());
    }

    private static int closedLevel(RecordingAnalysis a) {
        return WindowId.parse(a.window()).map(id -> id.at().get(Axis.USERS)).filter(u -> u != null).orElse(-1);
    }

    private static int repetition(RecordingAnalysis a) {
        return WindowId.parse(a.window()).map(WindowId::number).orElse(99);
    }

    private static Path pngOrNull(Path png) {
        return Boolean.getBoolean("lab.noPng") ? null : png;
    }

    private static String stripJfr(String name) {
        return name.endsWith(".jfr") ? name.substring(0, name.length() - 4) : name;
    }
}
