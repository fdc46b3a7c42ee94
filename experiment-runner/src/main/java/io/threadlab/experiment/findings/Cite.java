package io.threadlab.experiment.findings;

import java.util.Locale;

/**
 * A number on the findings page, written as a link to the file it came from: a reader can check every number, and a
 * test holds the page to it (no digit outside a link but the points' own coordinates).
 */
final class Cite {

    private Cite() {
    }

    static String link(String text, String file) {
        return "[" + text + "](" + file + ")";
    }

    /** Grouped thousands, {@code digits} decimals; "–" for what was not measured (no link: no number). */
    static String number(double value, int digits, String file) {
        return Double.isNaN(value) ? "–" : link(format(value, digits), file);
    }

    static String format(double value, int digits) {
        return String.format(Locale.ROOT, "%,." + digits + "f", value);
    }

    /** A ratio: "1.85×". */
    static String times(double ratio) {
        return String.format(Locale.ROOT, "%.2f×", ratio);
    }

    static String percent(double share) {
        return String.format(Locale.ROOT, "%.0f %%", share * 100);
    }

    /**
     * A share the page sets beside a target: whole percents, but never rounded up to the target it falls short of
     * (395 of 440 is "89.7 %" beside a target of 90 %, not a "90 %" the text then calls below it), nor to all where
     * one was missed (263 of 264 is "99.6 %"), cut to a tenth.
     */
    static String percent(double share, double target) {
        boolean shortOfTarget = share < target && Math.round(share * 100) >= Math.round(target * 100);
        boolean shortOfAll = share < 1 && Math.round(share * 100) >= 100;
        return shortOfTarget || shortOfAll ? String.format(Locale.ROOT, "%.1f %%", Math.floor(share * 1000) / 10)
                : percent(share);
    }

    /** Where the runner keeps its code, as the page links a threshold or a published claim to it. */
    static final String SOURCE = "../experiment-runner/src/main/java/io/threadlab/experiment/";

    /** A threshold the runner enforces, linked to the class whose constant it is ("predict/Forecast.java"). */
    static String threshold(double share, String source) {
        return link(percent(share), SOURCE + source);
    }
}
