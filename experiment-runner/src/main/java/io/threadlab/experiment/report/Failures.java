package io.threadlab.experiment.report;

import io.threadlab.experiment.collect.WindowResult;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** Failed requests, window by window, each broken down by its causes (timeout, refused, reset, http_500, ...). */
final class Failures {

    private Failures() {
    }

    /** "reactive closed-500 rep 2: 12 failed (timeout 10, reset 2)", for every window with a failure; most first. */
    static List<String> of(Run run, List<WindowResult> windows) {
        return windows.stream().filter(w -> w.load().errors() > 0).map(w -> run.name(w) + ": " + w.load().errors()
                + " failed (" + causes(w) + ")").toList();
    }

    static List<String> of(Run run) {
        return of(run, run.windows());
    }

    private static String causes(WindowResult w) {
        Map<String, Long> causes = w.load().errorCauses();
        if (causes.isEmpty()) {
            return "causes not recorded";
        }
        return causes.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()
                .thenComparing(Map.Entry.comparingByKey())).map(e -> e.getKey() + " " + e.getValue())
                .collect(Collectors.joining(", "));
    }

    /** The variants' windows must have none; a mistake's failures are its own, shown in its card. */
    static Check check(Run run) {
        List<WindowResult> variants = run.windows().stream().filter(w -> !run.mistakes().containsKey(w.variant()))
                .toList();
        if (variants.isEmpty()) {
            return Check.notMeasured("No errors", "no window of a variant was measured");
        }
        long errors = variants.stream().mapToLong(w -> w.load().errors()).sum();
        List<String> windows = of(run, variants);
        return Check.of("No errors", errors == 0, errors + " failed requests in " + variants.size()
                + " windows of the variants"
                + (windows.isEmpty() ? "" : ": " + String.join("; ", windows))
                + (run.mistakes().isEmpty() ? "" : " (the mistakes' own are in their cards)"));
    }
}
