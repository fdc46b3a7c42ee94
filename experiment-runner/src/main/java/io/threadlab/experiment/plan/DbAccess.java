package io.threadlab.experiment.plan;

import java.util.Locale;

/**
 * How a variant reads the database's page: through its plain client (JDBC through Agroal on workers and virtual
 * threads; the reactive PG client on the event loop) or through Hibernate (ORM with Panache on workers and virtual
 * threads; Hibernate Reactive with Panache on the event loop). The same rows and the same JSON either way; what differs
 * is the code between the request and the pool, which each variant runs on its own threads.
 */
public enum DbAccess {
    JDBC("reactive-client"), ORM("hibernate-reactive");

    /** What the event loop's variant calls the same kind: its own name for it, accepted as this one. */
    private final String onTheEventLoop;

    DbAccess(String onTheEventLoop) {
        this.onTheEventLoop = onTheEventLoop;
    }

    public static DbAccess parse(String text) {
        String name = text.trim().toLowerCase(Locale.ROOT);
        for (DbAccess d : values()) {
            if (d.label().equals(name) || d.onTheEventLoop.equals(name)) {
                return d;
            }
        }
        throw new IllegalArgumentException("--db-access takes jdbc or orm (on the event loop also called"
                + " reactive-client and hibernate-reactive), was '" + text + "'");
    }

    /** As the services' query and the lab's files write it. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
