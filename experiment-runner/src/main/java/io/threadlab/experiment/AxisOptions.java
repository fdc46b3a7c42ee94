package io.threadlab.experiment;

import io.threadlab.experiment.plan.Axis;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The options {@code run}, {@code map} and {@code predict} make from the axes' declarations ({@link Axis#all()}),
 * through picocli's programmatic API, so that an axis is declared once and every command has its flag; and the values
 * a command line gave them, read and checked by the axis.
 *
 * <p>{@code run} and {@code map} take a list on every dimension of the grid ({@code --delay-ms 10,100}), one value on
 * each of the run's knobs ({@code --heap}); {@code run} refuses several values of a JVM axis, which only the map
 * starts a JVM for each of. {@code predict} asks about one point: one value of each dimension, by the axis' point
 * flag ({@code --users}), its default the calibration's own.
 */
final class AxisOptions {

    /** The command whose options these are. */
    enum Command {
        RUN, MAP, PREDICT;

        boolean point() {
            return this == PREDICT;
        }
    }

    private final Command command;
    private final Map<Axis<?>, List<String>> given;

    private AxisOptions(Command command, Map<Axis<?>, List<String>> given) {
        this.command = command;
        this.given = given;
    }

    /**
     * Adds an option per axis to {@code spec}, each with its help and where its default comes from: {@code defaults}
     * names a command's own default of an axis in words ("100,500; quick: 100,500"); else .env's value, the axis'
     * fallback, or (predict) the calibration's.
     */
    static void addTo(CommandSpec spec, Command command, Map<Axis<?>, String> defaults) {
        Map<String, String> env = LabSettings.read();
        for (Axis<?> axis : Axis.all()) {
            if (command.point() && axis.scope() == Axis.Scope.RUN) {
                continue;
            }
            boolean list = !command.point() && axis.scope() != Axis.Scope.RUN;
            OptionSpec.Builder option = OptionSpec.builder(command.point() ? axis.flag().pointName()
                            : axis.flag().name()).paramLabel(axis.flag().label())
                    .description(help(axis, command, defaults.get(axis), env));
            if (list) {
                option.type(List.class).auxiliaryTypes(String.class).splitRegex(",");
            } else {
                option.type(String.class);
            }
            spec.addOption(option.build());
        }
    }

    private static String help(Axis<?> axis, Command command, String commandDefault, Map<String, String> env) {
        String what = axis.flag().help();
        StringBuilder help = new StringBuilder(what.endsWith(".") ? what.substring(0, what.length() - 1) : what);
        String fromEnv = axis.envKey() == null ? null : env.get(axis.envKey());
        if (command.point()) {
            help.append(" (default: ").append(commandDefault != null ? commandDefault : "the calibration's")
                    .append(axis.flag().predictNote() == null ? ")." : "); " + axis.flag().predictNote() + ".");
            return help.toString();
        }
        String source = commandDefault != null ? commandDefault
                : fromEnv != null ? "from .env, " + fromEnv
                : axis.fallback() != null ? fallbackText(axis) : null;
        if (source != null) {
            help.append(" (default: ").append(source).append(")");
        } else if (axis.envKey() != null) {
            help.append(" (default from .env, ").append(axis.envKey()).append(": none found; give it)");
        }
        if (axis.scope() == Axis.Scope.JVM) {
            help.append(command == Command.MAP ? "; several values, each a JVM of its own" : "; ./experiment map"
                    + " takes several, each a JVM of its own");
        } else if (axis.scope() == Axis.Scope.WINDOW) {
            help.append("; several values, each measured on the same warm JVMs");
        }
        return help.append('.').toString();
    }

    private static <T extends Comparable<T>> String fallbackText(Axis<T> axis) {
        return axis.text(axis.fallback());
    }

    /** What the command line gave each axis' option, as text: absent where it gave nothing. */
    static AxisOptions given(CommandSpec spec, Command command) {
        Map<Axis<?>, List<String>> given = new LinkedHashMap<>();
        for (Axis<?> axis : Axis.all()) {
            OptionSpec option = spec.findOption(command.point() ? axis.flag().pointName() : axis.flag().name());
            if (option == null || option.getValue() == null) {
                continue;
            }
            Object value = option.getValue();
            List<String> texts = new ArrayList<>();
            if (value instanceof List<?> values) {
                values.forEach(v -> texts.addAll(Arrays.asList(String.valueOf(v).split(","))));
            } else {
                texts.add(String.valueOf(value));
            }
            given.put(axis, List.copyOf(texts));
        }
        return new AxisOptions(command, given);
    }

    /** The values given for {@code axis}, read and checked; null where the command line gave none. */
    <T extends Comparable<T>> List<T> values(Axis<T> axis) {
        List<String> texts = given.get(axis);
        if (texts == null) {
            return null;
        }
        String flag = command.point() ? axis.flag().pointName() : axis.flag().name();
        if (texts.isEmpty() || texts.stream().anyMatch(String::isBlank)) {
            throw new IllegalArgumentException(flag + " takes at least one value");
        }
        return axis.check(texts.stream().map(t -> axis.read(t, flag)).toList(), flag);
    }

    /** The one value given for {@code axis}, or null; several are refused, naming the flag. */
    <T extends Comparable<T>> T value(Axis<T> axis) {
        List<T> values = values(axis);
        if (values == null) {
            return null;
        }
        if (values.size() > 1) {
            throw new IllegalArgumentException((command.point() ? axis.flag().pointName() : axis.flag().name())
                    + " takes one value here, was " + values);
        }
        return values.getFirst();
    }

    /**
     * The values given for {@code axis}, else its default: .env's value, or the axis' fallback; null where it has
     * neither.
     */
    <T extends Comparable<T>> List<T> valuesOrDefault(Axis<T> axis) {
        List<T> values = values(axis);
        if (values != null) {
            return values;
        }
        String fromEnv = axis.envKey() == null ? null : LabSettings.read().get(axis.envKey());
        if (fromEnv != null) {
            return axis.check(List.of(axis.read(fromEnv)), axis.flag().name() + " (from .env, " + axis.envKey()
                    + ")");
        }
        return axis.fallback() == null ? null : List.of(axis.fallback());
    }

    /** Whether the command line gave {@code axis} a value. */
    boolean has(Axis<?> axis) {
        return given.containsKey(axis);
    }

    /** The axes the command line gave values. */
    List<Axis<?>> givenAxes() {
        return List.copyOf(given.keySet());
    }
}
