package io.threadlab.experiment.process;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * A running service that gave no whole answer to the runner in time: alive, but not answering. A service can do that
 * on purpose: a mistake that blocks its event loops (a blocking join there) serves nothing on them, its health and
 * metrics endpoints included, for as long as its load lasts. k6's API is read the same way, and k6 starved of CPU has
 * failed to answer it too. What the step was to measure is lost, not the run.
 */
public final class ServiceUnresponsive extends UncheckedIOException {

    public ServiceUnresponsive(String message, IOException cause) {
        super(message, cause);
    }
}
