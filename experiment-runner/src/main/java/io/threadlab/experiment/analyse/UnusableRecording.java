package io.threadlab.experiment.analyse;

import java.nio.file.Path;

/** A recording that cannot be analysed: unreadable, truncated, or without the events the analysis needs. */
public final class UnusableRecording extends Exception {
    UnusableRecording(Path file, String why, Throwable cause) {
        super(file + ": " + why, cause);
    }
}
