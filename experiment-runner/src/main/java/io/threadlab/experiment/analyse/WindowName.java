package io.threadlab.experiment.analyse;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A recording's name as the runner makes it (plan.Window#id): {@code <variant>[-<setup>]-<delay>ms-<scenario>-<rep>},
 * e.g. {@code imperative-300ms-closed-3000-jfr-1} or {@code imperative-w512-10ms-closed-500-1}; runners up to
 * d6f4758 wrote {@code <variant>-<scenario>-<rep>}, without the delay. The scenario is {@code closed-<users>} or
 * {@code open}, with {@code -jfr} for a recorded twin.
 *
 * @param label   the variant and its setup, as the runner names the JVM: {@code imperative-w512}
 * @param delayMs the downstream delay, or null in an older runner's name
 * @param users   the closed model's users, or null for the open model
 */
public record WindowName(String label, Integer delayMs, Integer users, boolean recorded, int repetition) {

    // The label is lazy, so that "-300ms" is the delay and not part of the label; the setup stays in the label.
    private static final Pattern NAME = Pattern.compile(
            "^(?<label>.+?)(?:-(?<delay>\\d+)ms)?-(?:closed-(?<users>\\d+)|open)(?<jfr>-jfr)?-(?<rep>\\d+)$");

    /** The parts of {@code window} (a file name without .jfr), or empty for a name the runner did not make. */
    public static Optional<WindowName> parse(String window) {
        Matcher m = NAME.matcher(window);
        if (!m.matches()) {
            return Optional.empty();
        }
        return Optional.of(new WindowName(m.group("label"), integer(m.group("delay")), integer(m.group("users")),
                m.group("jfr") != null, Integer.parseInt(m.group("rep"))));
    }

    private static Integer integer(String digits) {
        return digits == null ? null : Integer.valueOf(digits);
    }
}
