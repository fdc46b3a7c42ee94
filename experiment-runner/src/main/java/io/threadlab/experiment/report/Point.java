package io.threadlab.experiment.report;

import java.util.Locale;

/**
 * A closed-model regime: the downstream delay and the users. A run with one delay names its points by users alone,
 * as the report always did; a run with several names the delay too.
 */
record Point(int delayMs, int users) {

    /** "50 users", or "300 ms, 3,000 users". */
    String label(boolean withDelay) {
        String users = String.format(Locale.ROOT, "%,d users", this.users);
        return withDelay ? delayMs + " ms, " + users : users;
    }

    /** For a cell's name in a check: "50", or "300ms/3000". */
    String tag(boolean withDelay) {
        return withDelay ? delayMs + "ms/" + users : String.valueOf(users);
    }

    /** For a file name: "50", or "300ms-3000". */
    String slug(boolean withDelay) {
        return withDelay ? delayMs + "ms-" + users : String.valueOf(users);
    }
}
