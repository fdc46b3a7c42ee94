package io.threadlab.experiment.analyse;

import io.threadlab.experiment.plan.Variant;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The expected signatures of a database window (GET /api/articles: one page query through a connection pool), and
 * what the recording says of them, in sentences built from its own numbers:
 * <ul>
 * <li>on workers (imperative: JDBC through Agroal), the executor threads block in the driver's socket reads from
 * PostgreSQL, and park inside Agroal when every connection is in use;</li>
 * <li>on virtual threads, the same JDBC code: the virtual threads read from PostgreSQL themselves, and none pins its
 * carrier (JDK 24+), which only a recording with jdk.VirtualThreadPinned enabled can say;</li>
 * <li>on the event loop (reactive: Vert.x's PostgreSQL client), no worker or virtual thread reads from PostgreSQL and
 * no thread parks in a JDBC pool: a query waits for a connection in the client's queue.</li>
 * </ul>
 * An explanation is said only where the recording shows it; where the recording contradicts the window's expectation,
 * the contradiction is said instead, as unexpected. Blocking JDBC reads on the event loop are a mistake of their own
 * ({@link EventLoopMistakes}: jdbc-on-event-loop), recognised whatever the window.
 */
final class DatabaseVerdicts {

    private DatabaseVerdicts() {
    }

    static void judge(RecordingAnalysis a, Variant v, List<String> findings, List<String> unexpected) {
        switch (v.threads()) {
            case WORKER -> workers(a, v, findings, unexpected);
            case VIRTUAL -> virtualThreads(a, v, findings, unexpected);
            case EVENT_LOOP -> eventLoops(a, v, findings, unexpected);
        }
        PoolGauges edges = a.databasePool().edges();
        if (edges != null) {
            findings.add(f("the pool's own numbers at the window's edges (%s: %s): %.0f, then %.0f waiting for a"
                            + " connection, %s in use; between the edges %,.0f acquisitions waited %.1f s for a connection in"
                            + " total, %.1f ms each", edges.pool(), edges.metric(), edges.waitingBefore(),
                    edges.waitingAfter(), inUse(edges), orNaN(edges.acquisitions()), orNaN(edges.waitedMs()) / 1000,
                    edges.waitedMsPerAcquisition()));
        }
    }

    /** JDBC on executor threads: each blocks in its socket read, and waits in the pool for a connection first. */
    private static void workers(RecordingAnalysis a, Variant v, List<String> findings, List<String> unexpected) {
        GroupStats workers = a.group(ThreadKind.WORKER);
        SocketIo reads = workers.database();
        if (reads.reads.count() > 0) {
            findings.add(f("database waits happen on %d executor threads: %,d socket reads from PostgreSQL (port %d)"
                            + " %s, p50 %.1f ms, p99 %.1f ms (%.1f thread-seconds of waiting in %.1f s); %s",
                    reads.readers.size(), reads.reads.count(), a.downstream().port(), a.recordedReads(),
                    reads.reads.percentile(50), reads.reads.percentile(99), reads.reads.totalMs() / 1000, a.seconds(),
                    inFlight(a)));
        } else {
            unexpected.add(f("no executor thread read from PostgreSQL (port %d, %s): the %s variant should block its"
                    + " worker threads in the JDBC driver's socket reads", a.downstream().port(),
                    a.downstream().from(), v.label()));
        }
        findings.add(poolWaits(a, ThreadKind.WORKER, "executor threads")
                .orElse(f("no executor thread parked in a JDBC pool (parks %s): a connection was free for every"
                        + " query", a.databasePool().recordedParks())));
        long elsewhere = a.group(ThreadKind.EVENT_LOOP).database().reads.count()
                + a.group(ThreadKind.VIRTUAL).database().reads.count();
        if (elsewhere > 0) {
            unexpected.add(f("%,d socket reads from PostgreSQL on event-loop threads and %,d on virtual threads: the %s"
                            + " variant's JDBC calls run on its workers",
                    a.group(ThreadKind.EVENT_LOOP).database().reads.count(),
                    a.group(ThreadKind.VIRTUAL).database().reads.count(), v.label()));
        }
        GroupStats loops = a.group(ThreadKind.EVENT_LOOP);
        GroupStats virtuals = a.group(ThreadKind.VIRTUAL);
        if (virtuals.requestSamples > 0 || loops.requestSamples > workers.requestSamples) {
            unexpected.add(f("request code ran on %d event-loop and %d virtual-thread samples against %d on"
                    + " workers", loops.requestSamples, virtuals.requestSamples, workers.requestSamples));
        }
    }

    /** The same JDBC code on virtual threads: each reads from PostgreSQL itself, unmounted while it waits. */
    private static void virtualThreads(RecordingAnalysis a, Variant v, List<String> findings,
                                       List<String> unexpected) {
        GroupStats virtuals = a.group(ThreadKind.VIRTUAL);
        SocketIo reads = virtuals.database();
        findings.add(f("%,d virtual threads started; each lived p50 %.1f ms, p99 %.1f ms (%,d ended), its request's"
                        + " query and its wait for a connection included; carriers idle at least %.0f %% of the"
                        + " window", a.virtualThreads().started(), virtuals.lifetimes.percentile(50),
                virtuals.lifetimes.percentile(99), virtuals.lifetimes.count(), a.carrierIdleShare() * 100));
        if (reads.reads.count() > 0) {
            findings.add(f("virtual threads read from PostgreSQL themselves: %,d socket reads (port %d) %s on %,d"
                            + " virtual threads, p50 %.1f ms, p99 %.1f ms; %s", reads.reads.count(),
                    a.downstream().port(), a.recordedReads(), reads.readers.size(), reads.reads.percentile(50),
                    reads.reads.percentile(99), inFlight(a)));
        } else {
            unexpected.add(f("no virtual thread read from PostgreSQL (port %d, %s): the %s variant runs its JDBC"
                    + " calls on its virtual threads", a.downstream().port(), a.downstream().from(), v.label()));
        }
        pinning(a, findings, unexpected);
        findings.add(poolWaits(a, ThreadKind.VIRTUAL, "virtual threads").orElseGet(() -> unrecordedPoolWaits(a)));
        if (a.virtualThreads().submitFailed() > 0) {
            unexpected.add(f("%d virtual threads could not be scheduled (VirtualThreadSubmitFailed)",
                    a.virtualThreads().submitFailed()));
        }
        GroupStats workers = a.group(ThreadKind.WORKER);
        if (workers.database().reads.count() > 0 || workers.requestSamples > 0) {
            unexpected.add(f("worker threads did the virtual threads' work: %,d socket reads from PostgreSQL and %d"
                    + " request-code samples on workers", workers.database().reads.count(), workers.requestSamples));
        }
        if (virtuals.requestSamples == 0 && a.virtualThreads().started() == 0) {
            unexpected.add("no virtual thread was seen: was the recording made with jfr/threads.jfc?");
        }
    }

    /** What jdk.VirtualThreadPinned says, where the recording enabled it; a pin is unexpected. */
    private static void pinning(RecordingAnalysis a, List<String> findings, List<String> unexpected) {
        String threshold = a.databasePool().pinnedThreshold();
        if (a.virtualThreads().pinned().count() > 0) {
            unexpected.add(a.virtualThreads().pinnedCarriers());
        } else if ("off".equals(threshold)) {
            findings.add("jdk.VirtualThreadPinned was not enabled in this recording: whether JDBC pinned the"
                    + " carriers cannot be said from it");
        } else {
            findings.add(f("0 jdk.VirtualThreadPinned %s: no virtual thread pinned its carrier in the driver's reads"
                    + " or in the pool's waits", threshold == null ? "(the recording does not say whether it was"
                    + " enabled)" : "recorded (from " + threshold + ")"));
        }
    }

    /**
     * A virtual thread's wait for a connection, where no park of one was recorded: where no virtual thread parked at
     * all in the recording, the wait is the part of their lives spent neither in a socket read nor, for the most
     * part, on a CPU.
     */
    private static String unrecordedPoolWaits(RecordingAnalysis a) {
        GroupStats virtuals = a.group(ThreadKind.VIRTUAL);
        if (virtuals.parks.count() > 0 || virtuals.lifetimes.count() == 0) {
            return f("no virtual thread parked in a JDBC pool (parks %s; %,d parks of virtual threads elsewhere)",
                    a.databasePool().recordedParks(), virtuals.parks.count());
        }
        double alive = virtuals.lifetimes.totalMs();
        double reading = virtuals.database().reads.totalMs();
        return f("virtual threads' waits for a pooled connection leave no event: 0 jdk.ThreadPark on virtual threads"
                        + " (a virtual thread parks by unmounting, which the JVM's park event does not record); they"
                        + " lived %.1f thread-seconds (%,d ended), %.1f of them in socket reads from PostgreSQL: the"
                        + " rest, %.1f ms a virtual thread, is its wait for a connection and its CPU", alive / 1000,
                virtuals.lifetimes.count(), reading / 1000, Math.max(0, alive - reading) / virtuals.lifetimes.count());
    }

    /** The Vert.x client on the event loop: no thread waits for the database, or for a connection. */
    private static void eventLoops(RecordingAnalysis a, Variant v, List<String> findings, List<String> unexpected) {
        GroupStats workers = a.group(ThreadKind.WORKER);
        GroupStats loops = a.group(ThreadKind.EVENT_LOOP);
        GroupStats virtuals = a.group(ThreadKind.VIRTUAL);
        SocketIo loopReads = loops.database();
        if (workers.database().reads.count() + virtuals.database().reads.count() == 0) {
            findings.add(f("no worker or virtual thread read from PostgreSQL (port %d): the event loops did the"
                    + " database I/O, %s", a.downstream().port(), a.everySocketEvent()
                    ? f("%,d reads on %d event-loop threads, p50 %.2f ms, p99 %.2f ms", loopReads.reads.count(),
                    loopReads.readers.size(), loopReads.reads.percentile(50), loopReads.reads.percentile(99))
                    : f("%,d of their reads %s (the Vert.x client reads only bytes already there, in microseconds)",
                    loopReads.reads.count(), a.recordedReads())));
        } else {
            unexpected.add(f("%,d socket reads from PostgreSQL on worker threads and %,d on virtual threads: the %s"
                            + " variant's Vert.x client reads on the event loops", workers.database().reads.count(),
                    virtuals.database().reads.count(), v.label()));
        }
        long jdbcWaits = a.groups().values().stream().mapToLong(g -> g.poolWaits.count()).sum();
        if (jdbcWaits == 0) {
            findings.add(f("its pool's waits are no thread waits: a query that finds every connection in use waits in"
                    + " the client's queue, and no thread parks for it (0 parks in a JDBC pool %s)",
                    a.databasePool().recordedParks()));
        } else {
            WaitSites.Site top = a.databasePool().sites().getFirst();
            unexpected.add(f("threads parked %,d times in a JDBC pool, most at %s (%s): the %s variant's client has"
                    + " no JDBC pool", jdbcWaits, top.site(), top.groupLabel(), v.label()));
        }
        if (workers.requestSamples > 0) {
            unexpected.add(f("request code ran on worker threads (%d samples) in the %s variant",
                    workers.requestSamples, v.label()));
        }
        if (!virtuals.threads.isEmpty()) {
            unexpected.add(f("%d virtual threads ran in the %s variant", virtuals.threads.size(), v.label()));
        }
    }

    /** A group's parks in the JDBC pool, in a sentence; empty where it parked in none. */
    private static Optional<String> poolWaits(RecordingAnalysis a, ThreadKind kind, String who) {
        GroupStats g = a.group(kind);
        if (g.poolWaits.count() == 0) {
            return Optional.empty();
        }
        String groupKey = kind.name().toLowerCase(Locale.ROOT);
        WaitSites.Site top = a.databasePool().sites().stream().filter(s -> s.group().equals(groupKey)).findFirst()
                .orElseThrow();
        long reads = g.database().reads.count();
        return Optional.of(f("%s waited for a pooled connection %,d times (parks %s, mostly on %s at %s): %.1f"
                        + " thread-seconds in %.1f s, p50 %.1f ms, p99 %.1f ms, on %d threads; %s", who,
                g.poolWaits.count(), a.databasePool().recordedParks(), top.on(), top.site(),
                g.poolWaits.totalMs() / 1000, a.seconds(), g.poolWaits.percentile(50), g.poolWaits.percentile(99),
                g.threadsWaitingForPool.size(), reads == 0 ? "none of them read from PostgreSQL"
                        : f("%.2f waits per socket read from PostgreSQL", (double) g.poolWaits.count() / reads)));
    }

    /** "at most 20 of them in flight at once": the connections in use, as the reads show them. */
    private static String inFlight(RecordingAnalysis a) {
        InFlight.Summary open = a.databasePool().readsInFlight();
        return f("at most %d reads from PostgreSQL were in flight at once, %.1f on average", open.max(), open.mean());
    }

    private static String inUse(PoolGauges edges) {
        return edges.activeBefore() == null || edges.activeAfter() == null ? "? connections"
                : f("%.0f, then %.0f connections", edges.activeBefore(), edges.activeAfter());
    }

    private static double orNaN(Double d) {
        return d == null ? Double.NaN : d;
    }

    private static String f(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
