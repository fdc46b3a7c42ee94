package io.threadlab.experiment.findings;

import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.predict.Forecast;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The burst: seed 004's table at its waits, each model's time to its last answer beside the time the lab predicted
 * before the burst fired and the ceiling that set it, and seed 004's own numbers where it gave one. The lab's cells
 * are each JVM's plain burst (the recorded twin's is in the run's report).
 */
final class BurstFindings {

    /** What seed 004 published, by its wait: a Spring comparison of 10,000 requests fired at once. */
    static final Map<Integer, String> SEED_004 = Map.of(
            50, "WebFlux 1.7 s, MVC 2.9 s; 200 threads' best 2.5 s",
            1000, "WebFlux 20 s; MVC failed");

    /** This file, where a reader checks seed 004's numbers. */
    static final String SOURCE = Cite.SOURCE + "findings/BurstFindings.java";

    record Row(String delay, String seed, List<String> variants) {
    }

    /**
     * @param within    the plain bursts whose last answer came within the tolerance of the time predicted with
     *                  none failing, of {@code predicted} that were predicted
     * @param tolerance the tolerance, linked to its constant
     */
    record Run(String run, String started, String requests, List<String> variants, List<Row> rows, String within,
               String predicted, String tolerance, String seed) {
    }

    private BurstFindings() {
    }

    static List<Run> of(List<PublishedRun> runs) {
        List<Run> sections = new ArrayList<>();
        for (PublishedRun run : runs) {
            List<WindowResult> bursts = run.facts().windows().stream()
                    .filter(w -> w.burst() != null && !w.recorded()).toList();
            List<String> variants = bursts.stream().map(WindowResult::variant).distinct().toList();
            Map<Integer, List<WindowResult>> byDelay = new TreeMap<>();
            bursts.forEach(w -> byDelay.computeIfAbsent(w.delayMs(), d -> new ArrayList<>()).add(w));
            List<Row> rows = byDelay.entrySet().stream().map(e -> new Row(e.getKey() + " ms",
                    SEED_004.containsKey(e.getKey()) ? Cite.link(SEED_004.get(e.getKey()), SOURCE) : "–",
                    variants.stream().map(v -> cell(e.getValue().stream().filter(w -> w.variant().equals(v))
                            .sorted(Comparator.comparingInt(WindowResult::jvm)).toList(), run.results())).toList()))
                    .toList();
            String requests = bursts.stream().map(WindowResult::requests).distinct()
                    .map(n -> String.format(Locale.ROOT, "%,d", n)).reduce((a, b) -> a + ", " + b).orElse("–");
            List<WindowResult> predicted = bursts.stream().filter(w -> w.burst().gap() != null).toList();
            // within: its last answer near the prediction, and every answer a success
            long within = predicted.stream().filter(w -> Math.abs(w.burst().gap()) <= Forecast.TOLERANCE
                    && w.load().errors() == 0).count();
            sections.add(new Run(Cite.link(run.name(), run.report()), Cite.link(HeadlineSection.day(run),
                    run.manifest()), requests, variants, rows, Cite.link(String.valueOf(within), run.results()),
                    Cite.link(String.valueOf(predicted.size()), run.results()),
                    Cite.threshold(Forecast.TOLERANCE, "predict/Forecast.java"), Cite.link("seed 004", SOURCE)));
        }
        return sections;
    }

    /** "[2,640](f) ms (predicted [2,520](f), workers)", a JVM start's after another; "–" where none ran. */
    private static String cell(List<WindowResult> bursts, String file) {
        if (bursts.isEmpty()) {
            return "–";
        }
        List<String> each = new ArrayList<>();
        for (WindowResult w : bursts) {
            WindowResult.BurstFigures b = w.burst();
            String last = b.timeToLastAnswerMs() == null ? "–"
                    : Cite.number(b.timeToLastAnswerMs(), 0, file) + " ms";
            String errors = w.load().errors() == 0 ? "" : ", " + Cite.number(w.load().errors(), 0, file) + " failed";
            String predicted = b.predictedMs() == null ? b.predictedBinding()
                    : "predicted " + Cite.number(b.predictedMs(), 0, file) + ", " + b.predictedBinding();
            each.add(last + errors + " (" + predicted + ")");
        }
        return String.join("; ", each);
    }
}
