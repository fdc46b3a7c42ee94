package io.threadlab.experiment.report;

import io.threadlab.experiment.collect.WarmUpResult;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Each JVM's warm-up as a table row and (the first JVM of each variant) a picture, and each time to peak. */
final class WarmUps {

    /** @param compiler the compiler threads in the boost: "ran / waited" ms a second, "–" without a boost */
    record Row(String jvm, String boostSeconds, String compiler, String levels, boolean finished) {
    }

    record Peak(String variant, String colour, String seconds, String rate) {
    }

    private WarmUps() {
    }

    static List<Row> rows(Run run) {
        return run.warmUps().stream().map(w -> new Row(w.jvm(), Numbers.number(w.boostSeconds(), 0),
                w.compilerInBoost().map(c -> Numbers.number(c.ranMsPerSecond(), 0) + " / "
                        + Numbers.number(c.waitedMsPerSecond(), 0)).orElse("–"), levels(w), w.finished())).toList();
    }

    private static String levels(WarmUpResult w) {
        List<String> parts = new ArrayList<>();
        for (WarmUpResult.Level l : w.levels()) {
            parts.add(l.users() + " users: " + (l.boostedAgain() ? "its queue filled, boosted again, then " : "")
                    + (l.finished() ? "quiet in " + Numbers.number(l.seconds(), 0) + " s, "
                    + Numbers.number(l.meanRate(), 0) + " req/s" : "not quiet (" + l.reason() + ")"));
        }
        return String.join("; ", parts);
    }

    /** One picture per variant, as SVG: its first JVM's. */
    static List<String> pictures(Run run) {
        Map<String, String> first = new LinkedHashMap<>();
        for (WarmUpResult w : run.warmUps()) {
            first.computeIfAbsent(w.variant(), v -> WarmUpCharts.warmUp(w, "Warm-up of " + w.jvm()));
        }
        return List.copyOf(first.values());
    }

    static List<Peak> peaks(Run run) {
        return run.timesToPeak().stream().map(t -> new Peak(t.variant(), ChartStyle.hex(t.variant()),
                t.secondsToPeak() != null ? Numbers.number(t.secondsToPeak(), 0) : null,
                Numbers.number(t.levels().isEmpty() ? Double.NaN : t.levels().getLast().meanRate(), 0))).toList();
    }
}
