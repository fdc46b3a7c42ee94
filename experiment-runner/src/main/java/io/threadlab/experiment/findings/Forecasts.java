package io.threadlab.experiment.findings;

import io.threadlab.experiment.report.landscape.Outcome;

import java.util.List;
import java.util.function.Predicate;

/**
 * How a run's predictions fared: of its held-out points where one ceiling binds, measured soundly and within the
 * calibrated users, how many were measured within the model's tolerance of the prediction made before them, as the
 * report's checks count them.
 */
record Forecasts(int within, int judged) {

    /** Predicted from their own JVM's calibration: the model's test. */
    static Forecasts ownCalibration(List<Outcome> outcomes) {
        return of(outcomes, Outcome::ownCalibration);
    }

    /** Later JVM starts predicted from the first one's calibration: the model's error and the JVM start's. */
    static Forecasts otherJvmStarts(List<Outcome> outcomes) {
        return of(outcomes, o -> !o.ownCalibration());
    }

    /**
     * Of the held-out points measured soundly whose interval bounds them from below ({@link Outcome#bounded}), those
     * inside the interval stated before them.
     */
    static Forecasts covered(List<Outcome> outcomes) {
        List<Outcome> judged = outcomes.stream().filter(o -> o.heldOut() && o.measuredSoundly() && o.bounded())
                .toList();
        return new Forecasts((int) judged.stream().filter(Outcome::covered).count(), judged.size());
    }

    /** Of the held-out points measured soundly whose binding the measurement names, those the prediction named. */
    static Forecasts named(List<Outcome> outcomes) {
        List<Outcome> judged = outcomes.stream().filter(o -> o.heldOut() && o.measuredSoundly()
                && o.measuredBinding().isPresent()).toList();
        return new Forecasts((int) judged.stream().filter(o -> o.measuredBinding().equals(o.binding())).count(),
                judged.size());
    }

    /** Of the points judged (one ceiling binds, measured soundly), "5 of 6" within the tolerance, linked. */
    static String within(List<Outcome> outcomes, String file) {
        return judgedWithin(outcomes).cited(file);
    }

    /** Of the points judged (one ceiling binds, measured soundly), those within the tolerance. */
    static Forecasts judgedWithin(List<Outcome> outcomes) {
        List<Outcome> judged = outcomes.stream().filter(Outcome::judged).toList();
        return new Forecasts((int) judged.stream().filter(Outcome::withinTolerance).count(), judged.size());
    }

    private static Forecasts of(List<Outcome> outcomes, Predicate<Outcome> which) {
        List<Outcome> judged = outcomes.stream().filter(Outcome::judged).filter(which)
                .filter(o -> !o.prediction().orElseThrow().extrapolated()).toList();
        return new Forecasts((int) judged.stream().filter(Outcome::withinTolerance).count(), judged.size());
    }

    /** "6 of 6", each number a link to the file the points are in; "none judged" where none was. */
    String cited(String file) {
        return judged == 0 ? "none judged" : Cite.link(String.valueOf(within), file) + " of "
                + Cite.link(String.valueOf(judged), file);
    }
}
