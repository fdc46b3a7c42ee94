package io.threadlab.experiment.plan;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What one run measures, in order. Each variant runs in one JVM for the whole run, warmed up once until steady
 * (under 0.5 CPU that takes about a minute and a half: a fresh JVM per repetition would spend most of the run warming
 * up). Repetitions rotate the variant order (A B C, B C A, C A B) so slow drift of the machine is spread across
 * variants instead of landing on whichever runs last.
 *
 * <p>Headline windows run without the detailed JFR settings, which cost up to half the throughput of the busiest
 * variant (measured). In repetition 1 each closed-model level gets a twin window with the detailed recording, for the
 * thread analysis and for the overhead ratio.
 */
public record ExperimentPlan(List<Variant> variants, List<Integer> levels, int windowSeconds, int settleSeconds,
                             int repetitions, WarmUpPolicy warmUp, List<Integer> openRates, int openStepSeconds,
                             boolean jfrWindows, Knobs knobs) {

    public ExperimentPlan {
        if (variants.isEmpty()) {
            throw new IllegalArgumentException("at least one variant");
        }
        if (levels.isEmpty() || levels.stream().anyMatch(l -> l < 1 || l > 10_000)) {
            throw new IllegalArgumentException("--levels must be user counts from 1 to 10000, was " + levels);
        }
        if (windowSeconds < 1 || repetitions < 1 || settleSeconds < 0 || openStepSeconds < 1) {
            throw new IllegalArgumentException("--window, --open-step and --repetitions must be at least 1,"
                    + " --settle at least 0");
        }
        if (openRates.stream().anyMatch(r -> r < 1)) {
            throw new IllegalArgumentException("--open-rates must be positive, was " + openRates);
        }
        variants = List.copyOf(variants);
        levels = List.copyOf(levels);
        openRates = List.copyOf(openRates);
    }

    /** One variant's turn in one repetition: the windows measured on its (already warm) JVM. */
    public record Session(Variant variant, int repetition, List<Window> windows) {
    }

    public List<Session> sessions() {
        List<Session> sessions = new ArrayList<>();
        for (int rep = 1; rep <= repetitions; rep++) {
            List<Variant> order = new ArrayList<>(variants);
            Collections.rotate(order, -(rep - 1));
            for (Variant variant : order) {
                sessions.add(new Session(variant, rep, windows(variant, rep)));
            }
        }
        return sessions;
    }

    private List<Window> windows(Variant variant, int rep) {
        List<Window> windows = new ArrayList<>();
        for (int vus : levels) {
            windows.add(new Window(variant, rep, new Window.Closed(vus, settleSeconds, windowSeconds), false));
            if (rep == 1 && jfrWindows) {
                // Right after its plain twin, so that the two differ in the recording only.
                windows.add(new Window(variant, rep, new Window.Closed(vus, settleSeconds, windowSeconds), true));
            }
        }
        if (rep == 1 && !openRates.isEmpty()) {
            windows.add(new Window(variant, rep, new Window.OpenSteps(openRates, openStepSeconds), false));
        }
        return windows;
    }

    /** Rough length of the run, for the progress line: each window also costs about 3 s of k6 start and scrapes. */
    public int estimatedSeconds(int startSeconds) {
        return startSeconds + variants.size() * warmUp.typicalSeconds()
                + sessions().stream().flatMap(s -> s.windows().stream()).mapToInt(w -> w.load().seconds() + 3).sum();
    }
}
