package io.threadlab.experiment.analyse;

import java.util.List;

/**
 * One execution sample as the stall analysis reads it: the sampled thread's group and its frames, leaf first, each
 * as {@code Class.method:line}.
 */
record StackSample(ThreadKind group, List<String> frames) {

    StackSample {
        frames = List.copyOf(frames);
    }

    /** The frame the CPU was in. */
    String leaf() {
        return frames.isEmpty() ? "(no stack trace)" : frames.getFirst();
    }

    /** The first frame outside the JDK: the code that called into the JDK, or the leaf itself. */
    String site() {
        for (String frame : frames) {
            String method = frame.contains(":") ? frame.substring(0, frame.lastIndexOf(':')) : frame;
            String className = method.contains(".") ? method.substring(0, method.lastIndexOf('.')) : method;
            if (!CodeLayers.of(className).equals(CodeLayers.Kind.JDK)) {
                return frame;
            }
        }
        return "(JDK frames only)";
    }
}
