package io.threadlab.experiment.plan;

import java.util.List;

/**
 * What each JVM measures right after its warm-up, before any of its predictions: short closed-model windows at a few
 * numbers of users, at one delay, from the most users down (the warm-up ends at the most). The capacity model of that
 * JVM is fitted to them, and every later window of the JVM is predicted from it before it is measured.
 *
 * @param levels the users of each calibration window; none: no calibration (and no predictions)
 */
public record Calibration(List<Integer> levels, int delayMs, int windowSeconds) {

    public static final Calibration NONE = new Calibration(List.of(), 0, 1);

    public Calibration {
        levels = levels.stream().sorted(java.util.Comparator.reverseOrder()).distinct().toList();
        if (levels.stream().anyMatch(l -> l < 1 || l > 10_000)) {
            throw new IllegalArgumentException("--calibration-levels must be user counts from 1 to 10000, was "
                    + levels);
        }
        if (!levels.isEmpty() && levels.size() < 2) {
            throw new IllegalArgumentException("--calibration-levels needs at least two numbers of users: the CPU per"
                    + " request is fitted as a function of them, was " + levels);
        }
        if (windowSeconds < 1 || delayMs < 0) {
            throw new IllegalArgumentException("a calibration window lasts at least 1 s, at a delay of at least 0 ms");
        }
    }

    public boolean any() {
        return !levels.isEmpty();
    }

    public int topLevel() {
        return levels.isEmpty() ? 0 : levels.getFirst();
    }
}
