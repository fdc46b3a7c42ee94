package org.hibernate.collection.spi;

/**
 * A stand-in for Hibernate ORM's lazy collection, so that a test can record the N+1 signature without Hibernate or a
 * database: on first read it initialises itself in {@code initialize(boolean)}, as Hibernate 7's does (there it runs
 * the collection's select), which is what the analysis recognises lazy fetching by; hence Hibernate's package.
 * Hibernate is not on the runner's class path.
 */
public class AbstractPersistentCollection {

    private final Runnable fetch;
    private boolean initialized;

    /** {@code fetch}: what fetching the collection costs (a statement's round trip and its rows' mapping). */
    public AbstractPersistentCollection(Runnable fetch) {
        this.fetch = fetch;
    }

    /** Touching the collection: fetched on first touch. */
    public void read() {
        if (!initialized) {
            initialize(false);
        }
    }

    protected final void initialize(boolean writing) {
        fetch.run();
        initialized = true;
    }
}
