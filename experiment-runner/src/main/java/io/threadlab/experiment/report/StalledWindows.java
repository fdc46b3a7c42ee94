package io.threadlab.experiment.report;

import io.threadlab.experiment.analyse.Stalls;
import io.threadlab.experiment.collect.WindowResult;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Closed-model windows whose per-second throughput stalled ({@link Stalls}): a window with a stall is not one steady
 * state, whatever its mean says. The open model's steps change the rate on purpose, so only closed windows count.
 */
final class StalledWindows {

    private static final String STALLED = "a second below " + Math.round(Stalls.STALLED_SHARE * 100)
            + " % of its window's steady rate";

    record Stalled(WindowResult window, List<Stalls.Stall> stalls) {
        int seconds() {
            return stalls.stream().mapToInt(Stalls.Stall::seconds).sum();
        }
    }

    private StalledWindows() {
    }

    static List<Stalled> of(Run run) {
        List<Stalled> stalled = new ArrayList<>();
        for (WindowResult w : closed(run)) {
            List<Stalls.Stall> stalls = Stalls.find(w.load().perSecond(), w.users());
            if (!stalls.isEmpty()) {
                stalled.add(new Stalled(w, stalls));
            }
        }
        return stalled;
    }

    private static List<WindowResult> closed(Run run) {
        return run.windows().stream().filter(w -> run.point(w).isPresent()).toList();
    }

    static Check check(Run run) {
        if (closed(run).isEmpty()) {
            return Check.notMeasured("No window stalled", "no closed-model window was measured");
        }
        List<String> named = of(run).stream().map(s -> run.name(s.window()) + ": " + String.join(", ",
                s.stalls().stream().map(StalledWindows::describe).toList())).toList();
        return Check.of("No window stalled", named.isEmpty(), named.isEmpty()
                ? "no closed-model window had " + STALLED + " (" + closed(run).size() + " windows)"
                : named.size() + " windows had " + STALLED + ": " + String.join("; ", named));
    }

    private static String describe(Stalls.Stall s) {
        return String.format(Locale.ROOT, "%d s from second %d at %,.0f req/s (steady %,.0f)", s.seconds(),
                s.firstSecond() + 1, s.meanRate(), s.steadyRate());
    }

    /** Per variant: how many of its closed-model windows stalled, and for how many seconds in all. */
    static String perVariant(Run run) {
        List<Stalled> stalled = of(run);
        List<String> parts = new ArrayList<>();
        for (String variant : run.variants()) {
            long windows = closed(run).stream().filter(w -> w.variant().equals(variant)).count();
            if (windows == 0) {
                continue;
            }
            List<Stalled> own = stalled.stream().filter(s -> s.window().variant().equals(variant)).toList();
            parts.add(own.isEmpty() ? variant + " none of " + windows : String.format(Locale.ROOT,
                    "%s %d of %d (%d s stalled)", variant, own.size(), windows,
                    own.stream().mapToInt(Stalled::seconds).sum()));
        }
        return "Windows with a stall (" + STALLED + "): " + String.join("; ", parts) + ".";
    }
}
