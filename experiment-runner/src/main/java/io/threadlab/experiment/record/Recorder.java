package io.threadlab.experiment.record;

import io.threadlab.experiment.process.ServiceProcess;

import java.nio.file.Path;

/**
 * Starts and stops one window's JFR recording of a running service, so the window's file holds that window only; and
 * runs the one other diagnostic command the lab sends a JVM, a full collection at the end of its warm-up.
 */
public interface Recorder {

    void start(ServiceProcess service, Path file);

    /** Stops the recording and leaves it at {@code file}. */
    void stop(ServiceProcess service, Path file);

    /** One full collection in the service ({@code jcmd GC.run}); returns once it is done. */
    void collectGarbage(ServiceProcess service);

    /**
     * Writes what the recording named {@code name}, which the JVM started with, holds so far to {@code file}; false
     * where the engine starts JVMs without one.
     */
    default boolean dumpStartupRecording(ServiceProcess service, String name, Path file) {
        return false;
    }
}
