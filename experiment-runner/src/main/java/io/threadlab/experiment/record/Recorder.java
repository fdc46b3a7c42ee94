package io.threadlab.experiment.record;

import io.threadlab.experiment.start.ServiceProcess;

import java.nio.file.Path;

/** Starts and stops one window's JFR recording of a running service, so the window's file holds that window only. */
public interface Recorder {

    void start(ServiceProcess service, Path file);

    /** Stops the recording and leaves it at {@code file}. */
    void stop(ServiceProcess service, Path file);
}
