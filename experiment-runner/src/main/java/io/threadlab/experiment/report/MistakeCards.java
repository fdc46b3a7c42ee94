package io.threadlab.experiment.report;

import io.threadlab.experiment.analyse.Mistakes;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The gallery: each mistake beside the correct variant it spoils, measured in the same run, with what the analysis
 * found in its recordings by itself and the gallery's explanation.
 */
final class MistakeCards {

    /** Throughput, p99 and CPU per request of the mistake over what it spoils, at one point. */
    record Cost(String at, RatioCell throughput, RatioCell p99, RatioCell cpu) {
    }

    record Card(String label, String spoils, List<Cost> costs, List<String> failures, List<String> evidence,
                Threads.Lane lane, String explanation, List<MarkdownText.Paragraph> paragraphs) {
    }

    private MistakeCards() {
    }

    static List<Card> of(Run run, Ratios ratios, List<Recorded> recorded) {
        List<Card> cards = new ArrayList<>();
        for (Map.Entry<String, String> mistake : run.mistakes().entrySet()) {
            String label = mistake.getKey();
            String spoils = mistake.getValue();
            List<Cost> costs = run.points().stream().map(p -> new Cost(run.label(p),
                    RatioCell.of(ratios.of(label, spoils, p, Metric.THROUGHPUT)),
                    RatioCell.of(ratios.of(label, spoils, p, Metric.P99)),
                    RatioCell.of(ratios.of(label, spoils, p, Metric.CPU_PER_REQUEST)))).toList();
            List<String> evidence = new ArrayList<>();
            for (Recorded r : recorded) {
                if (r.label().equals(label) && r.point().isPresent()) {
                    r.recording().mistakes().forEach(m -> evidence.add(r.recording().window() + ": " + evidence(m)));
                }
            }
            String text = MistakeTexts.of(label);
            cards.add(new Card(label, spoils, costs, Failures.of(run, run.windows().stream()
                    .filter(w -> w.variant().equals(label)).toList()), evidence,
                    Threads.lane(run, label).orElse(null), text, MarkdownText.paragraphs(text)));
        }
        return cards;
    }

    private static String evidence(Mistakes.Mistake m) {
        return m.evidence() != null ? m.evidence() : m.name();
    }
}
