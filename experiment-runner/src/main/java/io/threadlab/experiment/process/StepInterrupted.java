package io.threadlab.experiment.process;

/**
 * The runner's thread was interrupted while it waited: Ctrl-C, or the step's watchdog because the step passed its
 * ceiling. Whatever was waiting gives up at once; the step loop says which of the two it was.
 */
public final class StepInterrupted extends RuntimeException {

    public StepInterrupted() {
        super("interrupted");
    }

    public StepInterrupted(String waitingFor) {
        super("interrupted while waiting for " + waitingFor);
    }
}
