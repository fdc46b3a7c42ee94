package io.threadlab.experiment.plan;

import java.util.Locale;

/**
 * What a variant's requests wait on: the delay service over HTTP (its REST client, the design card's 10 ms), or the
 * lab's PostgreSQL through a connection pool (JDBC through Agroal on workers and virtual threads, the reactive client
 * on the event loop). The window's delay is the downstream's wait either way: the delay service's sleep, or the
 * query's server-side {@code pg_sleep} ({@code lab_wait}; 0: the query alone).
 */
public enum Downstream {
    HTTP, DB;

    public static Downstream parse(String text) {
        for (Downstream d : values()) {
            if (d.name().equalsIgnoreCase(text.trim())) {
                return d;
            }
        }
        throw new IllegalArgumentException("--downstream takes http or db, was '" + text + "'");
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
