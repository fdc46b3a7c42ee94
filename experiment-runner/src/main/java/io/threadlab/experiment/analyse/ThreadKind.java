package io.threadlab.experiment.analyse;

import jdk.jfr.consumer.RecordedThread;

/** The thread groups the lesson is about, recognised by name (and, for virtual threads, by the JVM's own flag). */
public enum ThreadKind {
    WORKER("worker pool", "executor-thread-*"),
    EVENT_LOOP("event loops", "vert.x-eventloop-thread-*"),
    VIRTUAL("virtual threads", "quarkus-virtual-thread-*"),
    CARRIER("carriers", "ForkJoinPool-*-worker-*"),
    INTERNAL_BLOCKING("Vert.x internal blocking", "vert.x-internal-blocking-*"),
    JVM("GC, JIT and JFR", "GC/compiler/JFR threads"),
    OTHER("other", "everything else");

    private final String label;
    private final String pattern;

    ThreadKind(String label, String pattern) {
        this.label = label;
        this.pattern = pattern;
    }

    public String label() {
        return label;
    }

    public String pattern() {
        return pattern;
    }

    public static ThreadKind of(RecordedThread thread) {
        if (thread == null) {
            return JVM; // GC and other VM-internal work has no Java thread
        }
        String name = thread.getJavaName() != null ? thread.getJavaName() : thread.getOSName();
        return of(name == null ? "" : name, thread.isVirtual());
    }

    static ThreadKind of(String name, boolean isVirtual) {
        if (isVirtual || name.startsWith("quarkus-virtual-thread-")) {
            return VIRTUAL;
        }
        if (name.startsWith("executor-thread-")) {
            return WORKER;
        }
        if (name.startsWith("vert.x-eventloop-thread-")) {
            return EVENT_LOOP;
        }
        if (name.startsWith("ForkJoinPool-") && name.contains("-worker-")) {
            return CARRIER;
        }
        if (name.startsWith("vert.x-internal-blocking-")) {
            return INTERNAL_BLOCKING;
        }
        if (name.startsWith("GC ") || name.startsWith("G1 ") || name.contains("CompilerThread")
                || name.startsWith("JFR ") || name.equals("VM Thread") || name.startsWith("VM Periodic")
                || name.equals("Sweeper thread") || name.startsWith("ZGC") || name.startsWith("Java2D")) {
            return JVM;
        }
        return OTHER;
    }
}
