package io.threadlab.experiment.plan;

import io.threadlab.experiment.plan.Axis.Scope;

import java.util.function.Function;

/** An axis' declaration, one property at a time ({@link Axis#named}); {@link #build} checks it is whole. */
public final class AxisBuilder<T extends Comparable<T>> {
    final String name;
    final Scope scope;
    final Class<T> type;
    final Function<String, T> reader;
    String flag;
    String pointFlag;
    String label;
    String help;
    String predictNote;
    Accepts<T> accepts;
    String idPrefix;
    String idSuffix = "";
    String idDigits;
    T quiet;
    String quarkusProperty;
    String query;
    String k6Environment;
    String envKey;
    T fallback;
    Function<T, String> words;
    boolean calibratedApart;

    AxisBuilder(String name, Scope scope, Class<T> type, Function<String, T> reader) {
        this.name = name;
        this.scope = scope;
        this.type = type;
        this.reader = reader;
    }

    public AxisBuilder<T> flag(String flag, String label, String help) {
        this.flag = flag;
        this.label = label;
        this.help = help;
        return this;
    }

    /** predict's flag, where it differs from run's. */
    public AxisBuilder<T> pointFlag(String pointFlag) {
        this.pointFlag = pointFlag;
        return this;
    }

    public AxisBuilder<T> predictNote(String note) {
        this.predictNote = note;
        return this;
    }

    public AxisBuilder<T> accepts(Accepts<T> accepts) {
        this.accepts = accepts;
        return this;
    }

    /** How a window's name writes a value: {@code prefix + value + suffix}, the value matching {@code digits}. */
    public AxisBuilder<T> id(String prefix, String suffix, String digits) {
        this.idPrefix = prefix;
        this.idSuffix = suffix;
        this.idDigits = digits;
        return this;
    }

    /** The value a window's name leaves out. */
    public AxisBuilder<T> quiet(T value) {
        this.quiet = value;
        return this;
    }

    public AxisBuilder<T> quarkus(String property) {
        this.quarkusProperty = property;
        return this;
    }

    /** A window axis the services read from each request's query, as {@code ?parameter=value}. */
    public AxisBuilder<T> query(String parameter) {
        this.query = parameter;
        return this;
    }

    /** A run's knob that k6 reads from its environment (its Go runtime's {@code GOGC}). */
    public AxisBuilder<T> k6Environment(String variable) {
        this.k6Environment = variable;
        return this;
    }

    public AxisBuilder<T> fromEnv(String key) {
        this.envKey = key;
        return this;
    }

    public AxisBuilder<T> fallback(T value) {
        this.fallback = value;
        return this;
    }

    public AxisBuilder<T> words(Function<T, String> words) {
        this.words = words;
        return this;
    }

    /**
     * Each value is work of its own kind (what the requests wait on, and how): the capacity model calibrates each
     * apart, and a window is predicted from its own kind's calibration.
     */
    public AxisBuilder<T> calibratedApart() {
        this.calibratedApart = true;
        return this;
    }

    public Axis<T> build() {
        if (flag == null || accepts == null) {
            throw new IllegalStateException("axis " + name + ": a flag and the values it accepts, at least");
        }
        if (scope != Scope.RUN && idPrefix == null) {
            throw new IllegalStateException("axis " + name + ": a dimension needs its part of a window's name");
        }
        return new Axis<>(this);
    }
}
