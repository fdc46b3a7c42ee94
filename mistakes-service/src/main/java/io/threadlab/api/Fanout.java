package io.threadlab.api;

import java.util.Locale;

/**
 * One request of {@code GET /api/fanout}: how many calls to the delay service, and whether they run at once or one
 * after another. Each variant makes them the way its threading model's users would.
 */
public record Fanout(int calls, Mode mode) {

    public enum Mode {
        /** All calls at once: the slowest one sets the response time. */
        PARALLEL,
        /** One call after another: the response time is the sum of theirs. */
        SEQUENTIAL;

        /** How the query parameter and the reply spell it. */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public boolean parallel() {
        return mode == Mode.PARALLEL;
    }
}
