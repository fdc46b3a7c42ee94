package io.threadlab.api;

import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingStream;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Records {@code jdk.VirtualThreadPinned} in this JVM while a piece of work runs, threshold 0, and names the top
 * application frame of each. It is what Quarkus' {@code @ShouldNotPin} does, which this build cannot fetch.
 */
final class PinningRecorder {

    private PinningRecorder() {
    }

    interface Work {
        void run() throws Exception;
    }

    static List<String> pinnedDuring(Work work) throws Exception {
        List<String> pinned = new CopyOnWriteArrayList<>();
        try (RecordingStream stream = new RecordingStream()) {
            stream.enable("jdk.VirtualThreadPinned").withThreshold(Duration.ZERO).withStackTrace();
            stream.onEvent("jdk.VirtualThreadPinned", event -> pinned.add(
                    event.getStackTrace() == null ? "?" : event.getStackTrace().getFrames().stream()
                            .map(RecordedFrame::getMethod)
                            .map(m -> m.getType().getName() + "." + m.getName())
                            .filter(name -> name.startsWith("io.threadlab"))
                            .findFirst().orElse("?")));
            stream.startAsync();
            work.run();
            stream.stop(); // flushes: every event of the work has been delivered when this returns
        }
        return pinned;
    }
}
