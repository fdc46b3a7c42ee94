package io.threadlab.experiment.load;

import io.threadlab.experiment.process.ServiceProcess;

/**
 * The downstream delay of the next windows. The delay service decides the wait of every {@code GET /delay}, so the
 * same warm JVMs are measured at several delays without a restart, and what the variants send never changes.
 */
public final class DelayControl {

    private final ServiceProcess delayService;
    private int currentMs;

    public DelayControl(ServiceProcess delayService, int startedWithMs) {
        this.delayService = delayService;
        this.currentMs = startedWithMs;
    }

    /** Sets the wait for the requests from now on; true when it changed. */
    public boolean set(int ms) {
        if (ms == currentMs) {
            return false;
        }
        delayService.put("/delay/default?ms=" + ms);
        currentMs = ms;
        return true;
    }

    public int currentMs() {
        return currentMs;
    }
}
