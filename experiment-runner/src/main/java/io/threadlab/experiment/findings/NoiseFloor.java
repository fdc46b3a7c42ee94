package io.threadlab.experiment.findings;

import io.threadlab.experiment.predict.Forecast;
import io.threadlab.experiment.predict.StartsEvidence;

import java.util.List;

/**
 * How close a forecast can land on the machine the published runs were measured on: each window read off another JVM
 * start's window at the same point ({@link StartsEvidence}), beside the target of held-out points within the tolerance.
 */
final class NoiseFloor {

    /**
     * "54 of 60" readings within the tolerance, their share and the runs, linked to the published runs.
     *
     * @param belowTarget whether fewer than the target's share of readings lie within the tolerance
     */
    record Floor(String within, String readings, String share, String runs, boolean belowTarget) {
    }

    private NoiseFloor() {
    }

    /** The floor, from every published run; null where no point was measured by two JVM starts. */
    static Floor of(List<PublishedRun> runs) {
        StartsEvidence evidence = StartsEvidence.of(ConstantsEvidence.windows(runs));
        if (evidence.readings() == 0) {
            return null;
        }
        return new Floor(Cite.number(evidence.within(), 0, PublishedRun.FROM_DOCS),
                Cite.number(evidence.readings(), 0, PublishedRun.FROM_DOCS),
                Cite.link(Cite.percent(evidence.share(), Forecast.WITHIN_TARGET), PublishedRun.FROM_DOCS),
                Cite.number(evidence.runs(), 0, PublishedRun.FROM_DOCS),
                evidence.share() < Forecast.WITHIN_TARGET);
    }
}
