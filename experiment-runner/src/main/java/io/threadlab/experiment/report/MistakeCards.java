package io.threadlab.experiment.report;

import io.threadlab.experiment.analyse.Mistakes;
import io.threadlab.experiment.plan.Point;
import io.threadlab.experiment.plan.Variant;
import io.threadlab.experiment.plan.WindowId;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The gallery: each mistake beside the correct variant it spoils, measured in the same run, with what the analysis
 * found in its recordings by itself, and the gallery's explanation where the recordings show what it explains.
 */
final class MistakeCards {

    /** Throughput, p99 and CPU per request of the mistake over what it spoils, at one point. */
    record Cost(String at, RatioCell throughput, RatioCell p99, RatioCell cpu) {
    }

    /**
     * @param noEvidence  why there is no evidence, where there is none: no recording analysed, or nothing flagged
     * @param explanation the gallery's section where the analysis found the mistake's signature, else why not
     */
    record Card(String label, String spoils, List<Cost> costs, List<String> failures, List<String> evidence,
                String noEvidence, Threads.Lane lane, String explanation, List<MarkdownText.Paragraph> paragraphs) {
    }

    private MistakeCards() {
    }

    static List<Card> of(Run run, Ratios ratios, List<Recorded> recorded) {
        List<Card> cards = new ArrayList<>();
        for (Map.Entry<String, String> mistake : run.mistakes().entrySet()) {
            String label = mistake.getKey();
            String spoils = mistake.getValue();
            // against its reference's point: the same, but for a mistake of one fan-out mode (Variant.referencePoint)
            Function<Point, Point> reference = p -> Variant.find(label).map(v -> v.referencePoint(p)).orElse(p);
            List<Cost> costs = run.points().stream().map(p -> new Cost(run.label(p),
                    RatioCell.of(ratios.of(label, p, spoils, reference.apply(p), Metric.THROUGHPUT)),
                    RatioCell.of(ratios.of(label, p, spoils, reference.apply(p), Metric.P99)),
                    RatioCell.of(ratios.of(label, p, spoils, reference.apply(p), Metric.CPU_PER_REQUEST)))).toList();
            List<String> evidence = new ArrayList<>();
            List<String> found = new ArrayList<>();
            int recordings = 0;
            for (Recorded r : recorded) {
                if (r.label().equals(label)) { // its lost warm-up's recording included: it has no point
                    recordings++;
                    r.recording().judgement().mistakes().forEach(m -> {
                        evidence.add(r.recording().window() + ": " + evidence(m));
                        found.add(m.name());
                    });
                }
            }
            String noEvidence = !evidence.isEmpty() ? null : recordings == 0
                    ? "no recording of this mistake was analysed"
                    : "the analysis flagged nothing in this mistake's " + recordings
                    + (recordings == 1 ? " recording" : " recordings");
            String text = explanation(run, label, recordings, found);
            List<String> failures = new ArrayList<>(Failures.of(run, run.windows().stream()
                    .filter(w -> w.variant().equals(label)).toList()));
            failures.addAll(lost(run, label));
            cards.add(new Card(label, spoils, costs, failures, evidence, noEvidence,
                    Threads.lane(run, label).orElse(null), text, MarkdownText.paragraphs(text)));
        }
        return cards;
    }

    /**
     * The mistake's points the run could not measure, with why: a mistake that blocks its event loops answers not
     * even the runner's reads, and that is what its card can say of it.
     */
    static List<String> lost(Run run, String label) {
        return run.manifest().lostPoints().stream()
                .filter(w -> WindowId.parse(w.substring(0, Math.max(0, w.indexOf(": ")))).map(WindowId::variant)
                        .filter(label::equals).isPresent())
                .map(w -> "not measured: " + w).toList();
    }

    /**
     * The gallery's explanation says why the mistake costs what it does, from its signature; it is quoted only where
     * the analysis found that signature in this run's recordings of it, with a word where the gallery was written
     * for another JDK or Quarkus than this run's. Otherwise: why it is not quoted.
     */
    static String explanation(Run run, String label, int recordings, List<String> found) {
        String gallery = MistakeTexts.of(label);
        if (gallery.isEmpty()) {
            return "";
        }
        Optional<String> signature = MistakeTexts.recognisedAs(label);
        if (signature.isEmpty()) {
            return "The gallery (docs/mistakes.md) names no signature the analysis recognises this mistake by, so its"
                    + " explanation is not quoted: nothing in this run could show it applies.";
        }
        if (recordings == 0) {
            return "No recording of this mistake was analysed, so the gallery's explanation (docs/mistakes.md) is not"
                    + " quoted: it is quoted where the analysis finds the mistake's signature (" + signature.get()
                    + ") in a recording of it.";
        }
        if (!found.contains(signature.get())) {
            return "The analysis did not find this mistake's signature (" + signature.get() + ") in its "
                    + recordings + (recordings == 1 ? " recording" : " recordings") + ", so the gallery's"
                    + " explanation (docs/mistakes.md) is not quoted: what it explains did not show in this run.";
        }
        return writtenFor(run).map(w -> "*" + w + "*\n\n" + gallery).orElse(gallery);
    }

    /** Where the gallery was written for another JDK or Quarkus than this run's, or this run's are not known. */
    private static Optional<String> writtenFor(Run run) {
        Optional<Integer> jdk = MistakeTexts.writtenForJdk();
        Optional<String> quarkus = MistakeTexts.writtenForQuarkus();
        if (jdk.isEmpty() || quarkus.isEmpty()) {
            return Optional.empty();
        }
        Optional<Integer> runJdk = run.jdk().flatMap(MistakeCards::feature);
        String runQuarkus = run.lab().quarkusVersion();
        boolean sameJdk = runJdk.equals(jdk);
        boolean sameQuarkus = runQuarkus != null && (runQuarkus + ".").startsWith(quarkus.get() + ".");
        if (sameJdk && sameQuarkus) {
            return Optional.empty();
        }
        return Optional.of("The gallery's explanation below was written for JDK " + jdk.get() + " and Quarkus "
                + quarkus.get() + "; this run ran " + run.jdk().map(v -> "JDK " + v).orElse("a JDK it did not record")
                + " and Quarkus " + (runQuarkus != null ? runQuarkus : "(not recorded)") + ".");
    }

    private static Optional<Integer> feature(String version) {
        try {
            return Optional.of(Runtime.Version.parse(version).feature());
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static String evidence(Mistakes.Mistake m) {
        return m.evidence() != null ? m.evidence() : m.name();
    }
}
