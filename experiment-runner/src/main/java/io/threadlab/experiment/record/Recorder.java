package io.threadlab.experiment.record;

import io.threadlab.experiment.process.ServiceProcess;

import java.nio.file.Path;

/** Starts and stops one window's JFR recording of a running service, so the window's file holds that window only. */
public interface Recorder {

    void start(ServiceProcess service, Path file);

    /** Stops the recording and leaves it at {@code file}. */
    void stop(ServiceProcess service, Path file);

    /**
     * Writes what the recording named {@code name}, which the JVM started with, holds so far to {@code file}; false
     * where the engine starts JVMs without one.
     */
    default boolean dumpStartupRecording(ServiceProcess service, String name, Path file) {
        return false;
    }
}
