package io.threadlab.experiment.report;

import io.threadlab.experiment.analyse.AnalysisFile;
import io.threadlab.experiment.collect.WindowResult;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** Where the threads wait: the analysis' lane pictures, its verdict on each recording, and the recordings to open. */
final class Threads {

    /** A lane picture: its file (relative to the results directory) and its SVG, inlined by the html. */
    record Lane(String file, String svg) {
        public boolean missing() {
            return svg.isEmpty();
        }
    }

    /** One recording's verdicts; {@code unexpected} when the analysis found what the variant should not show. */
    record Verdict(String text, boolean unexpected) {
    }

    private Threads() {
    }

    static List<Lane> lanes(Run run) {
        return run.analysis().map(a -> a.lanes().values().stream().map(file -> read(run, file)).toList())
                .orElse(List.of());
    }

    /** The lane picture of a variant or mistake, by its label. */
    static Optional<Lane> lane(Run run, String label) {
        return run.analysis().map(a -> a.lanes().get(label)).filter(Objects::nonNull).map(file -> read(run, file));
    }

    private static Lane read(Run run, String file) {
        try {
            String svg = Files.readString(run.dir().resolve(file));
            return new Lane(file, svg.substring(Math.max(0, svg.indexOf("<svg"))));
        } catch (IOException e) {
            return new Lane(file, "");
        }
    }

    static List<Verdict> verdicts(Run run) {
        List<Verdict> verdicts = new ArrayList<>();
        for (AnalysisFile.Recording r : run.recordings()) {
            List<String> said = new ArrayList<>();
            r.judgement().unexpected().forEach(u -> said.add("UNEXPECTED: " + u));
            said.addAll(r.judgement().verdicts());
            verdicts.add(new Verdict(r.window() + ": " + String.join("; ", said), !r.judgement().unexpected().isEmpty()));
        }
        return verdicts;
    }

    /** The recorded windows' JFR files, for JDK Mission Control. */
    static List<String> recordings(Run run) {
        return run.windows().stream().map(w -> w.window().jfrFile()).filter(Objects::nonNull).toList();
    }
}
