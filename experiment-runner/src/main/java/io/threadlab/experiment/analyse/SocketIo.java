package io.threadlab.experiment.analyse;

import java.util.HashSet;
import java.util.Set;

/**
 * One thread group's socket I/O with one of the lab's downstreams (the delay service, or the database), told apart by
 * the remote port: socket events carry no stack trace in threads.jfc, so the port is all that says whom a thread was
 * waiting for.
 */
final class SocketIo {

    /** The threads that read from it at least once (by Java thread id). */
    final Set<Long> readers = new HashSet<>();
    final Durations reads = new Durations();
    final Durations writes = new Durations();
}
