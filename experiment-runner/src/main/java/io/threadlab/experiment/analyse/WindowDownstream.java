package io.threadlab.experiment.analyse;

import io.threadlab.experiment.plan.Downstream;

/**
 * What the recorded window's requests waited on, the port that marks its socket I/O, and how the analysis knows: the
 * window's results.json row ({@code at.downstream}), else the runner's name for it ({@code -db-} in
 * {@code imperative-db-10ms-closed-50-jfr-1}; a name without it is an HTTP window, the axis' quiet value), else, for a
 * recording the runner did not name, the recording itself: its socket I/O with the database's port and none with the
 * delay service's. Every expectation about "the downstream" is about this one.
 *
 * @param from where the downstream was learnt, said beside every verdict that rests on it
 */
public record WindowDownstream(Downstream downstream, String from, int delayPort, int databasePort) {

    static final String FROM_RESULTS = "results.json";
    static final String FROM_NAME = "the window's name";
    static final String FROM_RECORDING = "the recording's socket I/O";
    static final String FROM_DEFAULT = "no sign of either in the recording: the lab's default";

    /** The port of the window's downstream. */
    public int port() {
        return portOf(downstream);
    }

    /** "db" or "http", as results.json writes the axis. */
    public String name() {
        return downstream.label();
    }

    /** "PostgreSQL" or "the delay service": how the sentences name it. */
    public String peer() {
        return peer(downstream);
    }

    public boolean database() {
        return downstream == Downstream.DB;
    }

    int portOf(Downstream d) {
        return d == Downstream.DB ? databasePort : delayPort;
    }

    /** The lab's downstream behind a remote port, or null for any other port (the service's own clients). */
    Downstream at(int port) {
        return port == delayPort ? Downstream.HTTP : port == databasePort ? Downstream.DB : null;
    }

    static String peer(Downstream d) {
        return d == Downstream.DB ? "PostgreSQL" : "the delay service";
    }
}
