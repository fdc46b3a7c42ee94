package io.threadlab.experiment.load;

import io.threadlab.experiment.process.StepInterrupted;

/**
 * Sleeping on the runner's main thread: an interrupt (Ctrl-C, a step past its ceiling) ends the step at once, as a
 * {@link StepInterrupted}.
 */
final class Pause {

    private Pause() {
    }

    static void millis(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            // the exception carries the interrupt: what cleans up on the way out (a recording to stop) may still wait
            throw new StepInterrupted();
        }
    }

    static void until(long nanos) {
        long ms = (nanos - System.nanoTime()) / 1_000_000;
        if (ms > 0) {
            millis(ms);
        }
    }
}
