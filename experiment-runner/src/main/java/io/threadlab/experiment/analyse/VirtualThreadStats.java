package io.threadlab.experiment.analyse;

import java.util.Locale;
import java.util.Map;

/**
 * What a recording's virtual threads did, beyond their group's numbers ({@link GroupStats}).
 *
 * @param started      jdk.VirtualThreadStart events
 * @param ended        jdk.VirtualThreadEnd events
 * @param pinned       how long virtual threads pinned their carriers (jdk.VirtualThreadPinned)
 * @param pinnedAt     the top sites of those pins, by count
 * @param submitFailed virtual threads that could not be scheduled (jdk.VirtualThreadSubmitFailed)
 */
public record VirtualThreadStats(long started, long ended, Durations.Summary pinned, Map<String, Integer> pinnedAt,
                                 long submitFailed) {

    /** "3 virtual threads pinned their carrier (p99 12.0 ms), at [...]": unexpected of every variant. */
    String pinnedCarriers() {
        return String.format(Locale.ROOT, "%d virtual threads pinned their carrier (p99 %.1f ms), at %s",
                pinned.count(), pinned.p99Ms(), pinnedAt.keySet());
    }
}
