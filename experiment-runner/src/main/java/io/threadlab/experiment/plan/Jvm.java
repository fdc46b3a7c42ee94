package io.threadlab.experiment.plan;

/**
 * One JVM start of a variant. A run starts every variant more than once, because a JVM start is a source of variance
 * of its own (what the JIT compiled, and how, differs from start to start) that repetitions inside one JVM cannot see.
 * JVMs that run side by side listen on ports of their own.
 */
public record Jvm(Variant variant, int start, int port) {

    /** As files and results name it: {@code reactive-jvm2}. */
    public String id() {
        return variant.label() + "-jvm" + start;
    }

    @Override
    public String toString() {
        return variant.label() + " (JVM " + start + ")";
    }
}
