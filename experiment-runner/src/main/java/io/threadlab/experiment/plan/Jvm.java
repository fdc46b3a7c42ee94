package io.threadlab.experiment.plan;

/**
 * One JVM start of a variant, with its setup. A run starts every variant more than once, because a JVM start is a
 * source of variance of its own (what the JIT compiled, and how, differs from start to start) that repetitions inside
 * one JVM cannot see. JVMs that run side by side listen on ports of their own.
 */
public record Jvm(Variant variant, int start, int port, Setup setup) {

    public Jvm(Variant variant, int start, int port) {
        this(variant, start, port, Setup.NONE);
    }

    /** The variant and its setup, as windows are named: {@code imperative}, {@code imperative-w512}. */
    public String label() {
        return variant.label() + setup.suffix();
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
