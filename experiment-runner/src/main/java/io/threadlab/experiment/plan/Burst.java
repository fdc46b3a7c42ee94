package io.threadlab.experiment.plan;

import java.util.Locale;

/**
 * Seed 004's shape: {@code requests} fired at once (k6/burst.js), each on a keep-alive connection of its own opened
 * before the common start, from a few k6 users each sending its share in one {@code http.batch}; measured is the time
 * from the common start to the last answer, the failures by cause, and the queue each model built meanwhile.
 *
 * A window's load: its point has the requests ({@link Axis#REQUESTS}) and no users.
 *
 * @param requests       fired at once
 * @param senders        k6's users that fire, each its share
 * @param timeoutSeconds k6's patience with one request of the burst (its timeout counts as a failure)
 */
public record Burst(int requests, int senders, int timeoutSeconds) implements Window.Load {

    /** Seed 004's burst: 10,000 requests at once. */
    public static final int SEED_REQUESTS = 10_000;
    /**
     * The most requests one burst may hold: each is a connection of its own in k6 and in the variant at once, and a
     * source port of the loopback's ephemeral range (28,232 here). A burst is checked against this machine's own
     * limits too ({@link BurstLimits}).
     */
    public static final int MOST_REQUESTS = 50_000;
    /** Four senders, as k6/burst.js by hand: each fires 2,500 of seed 004's 10,000 in one batch. */
    public static final int SENDERS = 4;
    /**
     * k6's patience with a burst's request. Seed 004's slowest answer (WebFlux at 1 s) came after 20 s; the workers'
     * ceiling at 1 s is 10,000 ÷ 200 × 1 s = 50 s. Longer than k6's 60 s of the other scripts, so that the workers'
     * last answers are measured rather than cut off: a burst that fails here is the variant's.
     */
    public static final int TIMEOUT_SECONDS = 120;
    /**
     * How often the delay service's calls in progress are read during a burst. A worker variant's calls go out in
     * waves, with its CPU work between them: read every 200 ms, a burst of 2,000 at 50 ms showed 0, 59 and 0 calls by
     * turns, and its peak depended on the phase; 100 ms halves that chance of missing a wave, at about ten scrapes of
     * the unconfined delay service a second.
     */
    public static final int SAMPLE_MILLIS = 100;

    public Burst {
        if (requests < 1 || senders < 1 || timeoutSeconds < 1) {
            throw new IllegalArgumentException("a burst needs requests, a sender and a timeout, was " + requests
                    + ", " + senders + " and " + timeoutSeconds + " s");
        }
    }

    /** Seed 004's senders and k6's patience, at {@code requests}. */
    public static Burst of(int requests) {
        return new Burst(requests, Math.min(SENDERS, requests), TIMEOUT_SECONDS);
    }

    /**
     * From k6's start to the common start: time enough for every connection to open first. k6 here opens about
     * 2,500 a second from four senders on a loaded machine, and takes a second or two to start.
     */
    public int leadMillis() {
        return 3000 + requests;
    }

    /** The plan's guess: the lead and a few seconds; the report has what it took. */
    public int seconds() {
        return leadMillis() / 1000 + 5;
    }

    /** The longest a burst window may take: the lead, k6's patience with its last request, and k6's end. */
    public int ceilingSeconds() {
        return (leadMillis() + 999) / 1000 + timeoutSeconds + 30;
    }

    /** The shapes of load a run can have: the closed model's users (with the open model's steps), or a burst. */
    public enum Shape {
        CLOSED, BURST;

        public static Shape parse(String text) {
            for (Shape s : values()) {
                if (s.name().equalsIgnoreCase(text.trim())) {
                    return s;
                }
            }
            throw new IllegalArgumentException("--shape must be closed or burst, was '" + text + "'");
        }

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }
}
