package io.threadlab.experiment.analyse;

import java.util.List;
import java.util.OptionalInt;

/**
 * What the runner measured of a recorded window, beside its recording: from its results.json row and its run. A
 * recording analysed by itself knows none of it ({@link #UNKNOWN}).
 *
 * @param cpuMsPerRequest the window's CPU per request, or null when unknown
 * @param delayMs         the downstream delay the window was measured at, or null when unknown
 * @param stalls          the stalls in the window's throughput, with what the recording shows of them
 * @param jdk             the Java version the recorded JVM ran, as its run recorded it, or null when unknown (the
 *                        recording itself does not say): what the JDK-dependent verdicts are judged with
 * @param fanOut          the window's calls to the delay service per request and their mode, from its results.json
 *                        row or its name (one call where neither says more)
 * @param heldCalls       the calls the delay service held at once beside the client's pool, or null when unknown
 */
public record MeasuredWindow(Double cpuMsPerRequest, Integer delayMs, List<RecordedStall> stalls, String jdk,
                             WindowFanOut fanOut, HeldCalls heldCalls) {

    static final MeasuredWindow UNKNOWN = new MeasuredWindow(null, null, List.of(), null, WindowFanOut.ONE, null);

    public MeasuredWindow {
        stalls = List.copyOf(stalls);
    }

    /** The JDK's feature release (25 for "25.0.3"), empty where the JDK is not known or its version unreadable. */
    public OptionalInt jdkFeature() {
        if (jdk == null) {
            return OptionalInt.empty();
        }
        try {
            return OptionalInt.of(Runtime.Version.parse(jdk).feature());
        } catch (IllegalArgumentException e) {
            return OptionalInt.empty();
        }
    }

    /** "JDK 25.0.3", or "this recording's JDK (its run does not say which)". */
    public String jdkName() {
        return jdk != null ? "JDK " + jdk : "this recording's JDK (its run does not say which)";
    }

    /** "the 300 ms", or "the downstream delay" where the window's delay is not known. */
    public String theDelay() {
        return delayMs == null ? "the downstream delay" : "the " + delayMs + " ms";
    }
}
