package io.threadlab.experiment.analyse;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * Virtual threads' lifetimes, from jdk.VirtualThreadStart to jdk.VirtualThreadEnd: a parked virtual thread emits no
 * event of its own, but a thread per request that lives 10 ms while using microseconds of CPU waited that long. A
 * start and its end may be read in either order (each carrier writes its own buffer); only the unmatched are kept, as
 * many as were alive at once.
 */
final class Lifetimes {

    private final Map<Long, Instant> starts = new HashMap<>();
    private final Map<Long, Instant> ends = new HashMap<>();
    private final Durations lifetimes;

    Lifetimes(Durations lifetimes) {
        this.lifetimes = lifetimes;
    }

    void start(long thread, Instant at) {
        Instant end = ends.remove(thread);
        if (end == null) {
            starts.put(thread, at);
        } else {
            add(at, end);
        }
    }

    void end(long thread, Instant at) {
        Instant start = starts.remove(thread);
        if (start == null) {
            ends.put(thread, at);
        } else {
            add(start, at);
        }
    }

    private void add(Instant start, Instant end) {
        lifetimes.add(Duration.between(start, end).toNanos() / 1e6);
    }
}
