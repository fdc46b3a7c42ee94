package io.threadlab.api;

import jdk.jfr.consumer.RecordingStream;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Records {@code jdk.VirtualThreadPinned} in this JVM while a piece of work runs, threshold 0, and gives the JVM's
 * reason for each (JDK 24+, e.g. "VM call to io.threadlab.api.BlockingClassInit/0x...  .&lt;clinit&gt; on stack").
 */
final class PinningRecorder {

    private PinningRecorder() {
    }

    interface Work {
        void run() throws Exception;
    }

    static List<String> pinnedDuring(Work work) throws Exception {
        List<String> reasons = new CopyOnWriteArrayList<>();
        try (RecordingStream stream = new RecordingStream()) {
            stream.enable("jdk.VirtualThreadPinned").withThreshold(Duration.ZERO).withStackTrace();
            stream.onEvent("jdk.VirtualThreadPinned", event -> reasons.add(
                    event.hasField("pinnedReason") ? String.valueOf(event.getString("pinnedReason")) : "?"));
            stream.startAsync();
            work.run();
            stream.stop(); // flushes: every event of the work has been delivered when this returns
        }
        return reasons;
    }
}
