package io.threadlab.experiment.plan;

import java.util.Locale;

/**
 * How a fan-out request makes its calls to the delay service ({@code GET /api/fanout?n=N&mode=...}): all at once,
 * the request answering when the slowest is back (about one delay), or one after another (about N delays).
 */
public enum FanOutMode {
    PARALLEL, SEQUENTIAL;

    public static FanOutMode parse(String text) {
        for (FanOutMode m : values()) {
            if (m.label().equals(text.trim().toLowerCase(Locale.ROOT))) {
                return m;
            }
        }
        throw new IllegalArgumentException("--fan-out-mode takes parallel or sequential, was '" + text + "'");
    }

    /** As the services' query and the lab's files write it. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
