package io.threadlab.experiment.report;

/**
 * A ratio as a table shows it: the text, and whether it is noise (its interval contains 1, or one repetition gave
 * it none), which the html sets apart.
 */
record RatioCell(String text, boolean noise) {

    static RatioCell of(Stats.Ratio r) {
        return new RatioCell(Numbers.ratio(r), r.withinNoise());
    }
}
