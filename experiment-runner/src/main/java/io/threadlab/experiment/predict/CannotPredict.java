package io.threadlab.experiment.predict;

/**
 * Why {@code ./experiment predict} has nothing to say about what it was asked: the results directory cannot be read,
 * it has no calibration, a variant asked for was not calibrated, or the point lies where the model does not reach.
 * The message names what is missing and, where there is one, what to do about it.
 */
public final class CannotPredict extends Exception {

    public CannotPredict(String message) {
        super(message);
    }
}
