package io.threadlab.experiment.plan;

import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A window's name, written and read in this one place: its files (jfr/, metrics/, k6/), results.csv's rows and the
 * analysis' recordings are named by it. {@code <variant><JVM axes>-<window axes>-<scenario>[-jfr]-<number>}, e.g.
 * {@code imperative-300ms-closed-3000-1}, {@code imperative-w512-10ms-closed-500-jfr-2},
 * {@code reactive-10ms-open-1}, {@code virtual-thread-10ms-closed-1000-cal2} (a calibration window of JVM start 2).
 * Runners up to d6f4758 wrote {@code <variant>-<scenario>-<rep>}, without the delay; such names still read.
 *
 * @param variant  the variant's label
 * @param at       the JVM axes that differ from the run's own knobs, and the window axes (users: closed model only)
 * @param recorded a twin recorded with the detailed JFR settings
 * @param number   the repetition, or for a calibration window the JVM start
 */
public record WindowId(String variant, Point at, boolean recorded, Role role, int number) {

    /** What a window is for. */
    public enum Role {
        /** Measured after its prediction was made: a headline or map point. */
        MEASURED,
        /** Measured to calibrate the capacity model of its JVM, before any of that JVM's predictions. */
        CALIBRATION
    }

    /** The pattern of names, made again when the axes change (an axis registered by a test). */
    private static volatile Named named = new Named(List.of(), null);

    private record Named(List<Axis<?>> axes, Pattern pattern) {
    }

    /** The open model: neither the closed model's users nor a burst's requests. */
    public boolean open() {
        return !at.has(Axis.USERS) && !at.has(Axis.REQUESTS);
    }

    /** A burst of the point's requests. */
    public boolean burst() {
        return at.has(Axis.REQUESTS);
    }

    /** The variant and the JVM axes it was started with: {@code imperative-w512}. */
    public String label() {
        StringBuilder s = new StringBuilder(variant);
        at.only(Axis.Scope.JVM).axes().forEach(a -> s.append(part(a)));
        return s.toString();
    }

    /**
     * The scenario as results.csv names it: {@code closed-500}, {@code closed-500-jfr}, {@code open},
     * {@code burst-10000}.
     */
    public String scenario() {
        return (open() ? "open" : burst() ? Axis.REQUESTS.idPart(at.get(Axis.REQUESTS))
                : Axis.USERS.idPart(at.get(Axis.USERS))) + (recorded ? "-jfr" : "");
    }

    public String format() {
        StringBuilder s = new StringBuilder(label());
        for (Axis<?> axis : at.only(Axis.Scope.WINDOW).axes()) {
            if (!axis.scenario() && !quiet(axis)) {
                s.append(part(axis));
            }
        }
        s.append('-').append(scenario()).append(role == Role.CALIBRATION ? "-cal" : "-").append(number);
        return s.toString();
    }

    @Override
    public String toString() {
        return format();
    }

    /** The parts of a name the runner made, or empty for any other name. */
    public static Optional<WindowId> parse(String name) {
        List<Axis<?>> axes = Axis.dimensions();
        Named current = named;
        if (!current.axes().equals(axes)) {
            current = new Named(axes, pattern(axes));
            named = current;
        }
        Matcher m = current.pattern().matcher(name);
        if (!m.matches()) {
            return Optional.empty();
        }
        Point at = Point.NONE;
        for (int i = 0; i < axes.size(); i++) {
            String value = m.group("a" + i);
            if (value != null) {
                at = with(at, axes.get(i), value);
            }
        }
        return Optional.of(new WindowId(m.group("variant"), at, m.group("jfr") != null,
                m.group("cal") != null ? Role.CALIBRATION : Role.MEASURED,
                Integer.parseInt(m.group("cal") != null ? m.group("cal") : m.group("rep"))));
    }

    private static <T extends Comparable<T>> Point with(Point at, Axis<T> axis, String text) {
        return at.with(axis, axis.read(text));
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private String part(Axis axis) {
        return axis.idPart(at.get(axis));
    }

    private boolean quiet(Axis<?> axis) {
        return axis.quiet(at.get(axis));
    }

    /**
     * The variant is lazy, so that {@code -w512} or {@code -300ms} is read as an axis and not as part of it; the users
     * and the requests are the scenario's, the open model has neither.
     */
    private static Pattern pattern(List<Axis<?>> axes) {
        StringBuilder p = new StringBuilder("^(?<variant>.+?)");
        for (int i = 0; i < axes.size(); i++) {
            Axis.Naming<?> naming = axes.get(i).naming();
            if (!axes.get(i).scenario()) {
                p.append("(?:").append(Pattern.quote(naming.prefix())).append("(?<a").append(i).append('>')
                        .append(naming.digits()).append(')').append(Pattern.quote(naming.suffix())).append(")?");
            }
        }
        int users = axes.indexOf(Axis.USERS);
        int requests = axes.indexOf(Axis.REQUESTS);
        p.append("-(?:").append(Pattern.quote(Axis.USERS.naming().prefix())).append("(?<a").append(users).append(">\\d+)|")
                .append(Pattern.quote(Axis.REQUESTS.naming().prefix())).append("(?<a").append(requests).append(">\\d+)|open)")
                .append("(?<jfr>-jfr)?(?:-(?<rep>\\d+)|-cal(?<cal>\\d+))$");
        return Pattern.compile(p.toString());
    }
}
