package io.threadlab.experiment.report;

import java.util.Locale;

/**
 * A validity check of the report: what was judged, the verdict, and the numbers it was judged on. A check that had
 * nothing to judge says so: it is never "passed" where nothing was measured.
 */
record Check(String name, Verdict verdict, String detail) {

    enum Verdict {
        PASSED("passed", "✓", "pass"),
        FAILED("**FAILED**", "✗", "fail"),
        NOT_MEASURED("not measured", "–", "unmeasured");

        private final String words;
        private final String mark;
        private final String css;

        Verdict(String words, String mark, String css) {
            this.words = words;
            this.mark = mark;
            this.css = css;
        }

        public String words() {
            return words;
        }

        public String mark() {
            return mark;
        }

        public String css() {
            return css;
        }
    }

    /** Judged on something measured: passed or failed. */
    static Check of(String name, boolean passed, String detail) {
        return new Check(name, passed ? Verdict.PASSED : Verdict.FAILED, detail);
    }

    /** Nothing to judge it on, and why. */
    static Check notMeasured(String name, String why) {
        return new Check(name, Verdict.NOT_MEASURED, why);
    }

    boolean passed() {
        return verdict == Verdict.PASSED;
    }

    boolean failed() {
        return verdict == Verdict.FAILED;
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%s: %s (%s)", name, verdict, detail);
    }
}
