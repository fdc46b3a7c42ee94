package io.threadlab.experiment.plan;

import java.util.function.Predicate;

/**
 * The values the axis accepts, whatever the command: {@code rule} says them in words, for the message that
 * refuses another ("--worker-max must be 1 or more, was 0").
 */
public record Accepts<T>(Predicate<T> test, String rule) {

    public static Accepts<Integer> atLeast(int least) {
        return new Accepts<>(v -> v >= least, least + " or more");
    }

    public static Accepts<Integer> between(int least, int most, String rule) {
        return new Accepts<>(v -> v >= least && v <= most, rule);
    }

    public static Accepts<Double> aboveZero(String example) {
        return new Accepts<>(v -> v > 0 && !v.isInfinite(), "a quota above 0 (e.g. " + example + ")");
    }

    public static <E> Accepts<E> any() {
        return new Accepts<>(v -> true, "");
    }
}
