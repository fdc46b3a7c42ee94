package io.threadlab.experiment.plan;

/**
 * One JVM start of a variant, with its setup: the JVM axes on which it differs from the run's own knobs (none, in a
 * run). A run starts every variant more than once, because a JVM start is a source of variance of its own (what the
 * JIT compiled, and how, differs from start to start) that repetitions inside one JVM cannot see. JVMs that run side
 * by side listen on ports of their own.
 */
public record Jvm(Variant variant, int start, int port, Point setup) {

    public Jvm {
        if (!setup.only(Axis.Scope.WINDOW).isEmpty()) {
            throw new IllegalArgumentException("a JVM's setup has JVM axes only, was " + setup);
        }
    }

    public Jvm(Variant variant, int start, int port) {
        this(variant, start, port, Point.NONE);
    }

    /** The variant and its setup, as windows are named: {@code imperative}, {@code imperative-w512}. */
    public String label() {
        return new WindowId(variant.label(), setup, false, WindowId.Role.MEASURED, start).label();
    }

    /** As files and results name it: {@code reactive-jvm2}, {@code imperative-w512-jvm1}. */
    public String id() {
        return label() + "-jvm" + start;
    }

    @Override
    public String toString() {
        return label() + " (JVM " + start + ")";
    }
}
