package io.threadlab.experiment.findings;

import io.threadlab.experiment.report.Stats;

/** A ratio as the page writes it: the point estimate and its interval in one link, and whether it is noise. */
final class Ratios {

    private Ratios() {
    }

    /** "[1.94× (1.20–3.12)](file)", "within noise" where the interval includes 1; "–" where nothing was measured. */
    static String cited(Stats.Ratio r, String file) {
        if (Double.isNaN(r.ratio())) {
            return "–";
        }
        String text = Double.isNaN(r.low()) ? Cite.times(r.ratio())
                : Cite.times(r.ratio()) + " (" + Cite.format(r.low(), 2) + "–" + Cite.format(r.high(), 2) + ")";
        return Cite.link(text, file) + (Double.isNaN(r.low()) ? " (no interval)" : r.withinNoise()
                ? " within noise" : "");
    }
}
