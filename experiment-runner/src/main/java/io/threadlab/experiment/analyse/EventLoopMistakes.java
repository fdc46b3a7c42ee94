package io.threadlab.experiment.analyse;

import io.threadlab.experiment.analyse.Mistakes.Mistake;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import static io.threadlab.experiment.analyse.Mistakes.numbers;
import static io.threadlab.experiment.analyse.Mistakes.top;

/**
 * Mistakes that make an event loop wait, which it must never do: socket reads that block it (from the delay service,
 * or JDBC's from the database), and a join on a future whose reply only an event loop can deliver.
 */
final class EventLoopMistakes {

    // ---- Blocking call on the event loop.
    /** A non-blocking event loop reads only bytes already there: microseconds (p50 0.002 ms measured in the reactive
     *  variant at 100 and 500 users). A median of a millisecond or more means the reads waited for the peer. Where
     *  socket events are recorded from 1 ms only, every read there passes, and the share of time below decides: the
     *  few reads that a CPU quota's freeze stretches past 1 ms take well under a tenth of an event loop's time. */
    static final double BLOCKING_READ_P50_MS = 1.0;
    /** ... and the waiting took a tenth of the event loops' time or more: a habit of the code, not a stray read. */
    static final double EVENT_LOOP_BLOCKED_SHARE = 0.10;
    static final int MIN_BLOCKING_READS = 20;
    // The same three for JDBC on the event loop, in reads from the database's port: the reactive variant's event loops,
    // whose Vert.x client reads PostgreSQL's replies without blocking, recorded 8 and 6 reads of 1 ms or more in 13 and
    // 6 s at 50 and 200 users (the quota's freezes), 0.2 % of their time or less.

    // ---- A blocking join on the event loop.
    /** An event loop never waits: one park on a future of 1 ms or more (threads.jfc's threshold) is already wrong,
     *  and the mistake parks every request it serves, as long as the client's timeouts (6 s in the lab). Three keep
     *  a stray one (a shutdown, a library's one-off) from naming it; the reactive variant's loops park on none. */
    static final int MIN_EVENT_LOOP_JOINS = 3;

    // ---- A blocking call that Quarkus refuses on the event loop.
    /** Quarkus throws where request code on the event loop makes a call it knows blocks (a @Transactional method,
     *  Hibernate ORM's session): a correct program never does, and the reactive variant's loops were sampled in the
     *  refusal 0 times. The gallery's Hibernate ORM on the event loop: 28 and 29 samples of ~130 in 5 s windows, every
     *  request answered 500 at once. Three keep one stray refusal from naming it. */
    static final int MIN_REFUSAL_SAMPLES = 3;

    private EventLoopMistakes() {
    }

    /**
     * The request code that blocked the event loops: the native method samples catch a thread blocked in a socket
     * read (it is in native code), with the request code that called it below; socket events carry no stack. Without
     * such samples, the request code the event loops were sampled in.
     */
    private static String eventLoopRequestSite(GroupStats loops) {
        return top(loops.nativeSites.isEmpty() ? loops.requestSites : loops.nativeSites);
    }

    static Optional<Mistake> blockingEventLoop(RecordingAnalysis a) {
        GroupStats loops = a.group(ThreadKind.EVENT_LOOP);
        return blockedEventLoops(a, loops.delayService()).map(b -> new Mistake("blocking-event-loop", true,
                "event_loop", "jdk.SocketRead", b.site(), f("event loops blocked in socket reads from the delay"
                        + " service: %s (a non-blocking event loop only reads bytes already there, in microseconds)",
                b.sentence()), b.numbers()));
    }

    /**
     * A blocking join on the event loop: event loops parked on a future (CompletableFuture.get or join, a timed wait
     * included), from the code that waits for its calls' replies. Nothing else makes a loop park that long; and where
     * the client delivers the replies on the waiting loop, they never come (a deadlock that only a timeout ends).
     */
    static Optional<Mistake> blockingJoinOnEventLoop(RecordingAnalysis a) {
        WaitSites.Site joins = a.signals().eventLoopJoins();
        if (joins.count() < MIN_EVENT_LOOP_JOINS) {
            return Optional.empty();
        }
        double meanMs = joins.totalMs() / joins.count();
        return Optional.of(new Mistake("blocking-join-event-loop", true, "event_loop", "jdk.ThreadPark",
                joins.site(), f("event loops parked waiting on a future %,d times at %s (on %s), %.1f ms each on"
                                + " average, longest %.0f ms, %.1f s in total: an event loop must never wait, and the"
                                + " replies it waits for are delivered by event loops, this one among them",
                        joins.count(), joins.site(), joins.on(), meanMs, joins.maxMs(), joins.totalMs() / 1000),
                numbers("parks", joins.count(), "park_ms", joins.totalMs(), "mean_park_ms", Durations.round(meanMs),
                        "max_park_ms", joins.maxMs())));
    }

    /**
     * JDBC on the event loop: the blocking call's signature, in socket reads from the database's port (pgjdbc's,
     * below the request code that the native samples catch), and with the pool's parks when it was spent.
     */
    static Optional<Mistake> jdbcOnEventLoop(RecordingAnalysis a) {
        GroupStats loops = a.group(ThreadKind.EVENT_LOOP);
        return blockedEventLoops(a, loops.database()).map(b -> {
            Map<String, Object> numbers = new LinkedHashMap<>(b.numbers());
            numbers.put("pool_waits", loops.poolWaits.count());
            numbers.put("pool_wait_ms", Durations.round(loops.poolWaits.totalMs()));
            String pool = loops.poolWaits.count() == 0 ? "" : f("; they parked %,d times more waiting for a pooled"
                    + " connection (%.1f s in total)", loops.poolWaits.count(), loops.poolWaits.totalMs() / 1000);
            return new Mistake("jdbc-on-event-loop", true, "event_loop", "jdk.SocketRead", b.site(),
                    f("event loops blocked in JDBC's socket reads from PostgreSQL: %s%s (a JDBC driver reads its"
                            + " reply blocking; the reactive client leaves the event loop free)", b.sentence(), pool),
                    numbers);
        });
    }

    /**
     * A blocking call refused on the event loop: the loops sampled inside Quarkus' refusal (it throws
     * BlockingOperationNotAllowedException, and RESTEasy Reactive logs it), so that each such request fails at once
     * instead of blocking; the request code the loops ran is where the call was made from.
     */
    static Optional<Mistake> blockingRefusedOnEventLoop(RecordingAnalysis a) {
        GroupStats loops = a.group(ThreadKind.EVENT_LOOP);
        if (loops.refusalSamples < MIN_REFUSAL_SAMPLES) {
            return Optional.empty();
        }
        String site = top(loops.requestSites);
        return Optional.of(new Mistake("blocking-refused-on-event-loop", true, "event_loop", "jdk.ExecutionSample",
                site, f("Quarkus refused a blocking call on the event loops: %,d of their %,d execution samples were"
                                + " in the refusal (BlockingOperationNotAllowedException, logged by RESTEasy Reactive),"
                                + " from request code at %s; every such request fails at once instead of waiting, so"
                                + " the variant seems fast and serves errors", loops.refusalSamples,
                        loops.executionSamples, site),
                numbers("samples", loops.refusalSamples, "group_samples", loops.executionSamples)));
    }

    /** Event loops that blocked in socket reads from one downstream, in a sentence with its numbers and site. */
    private record Blocked(String sentence, String site, Map<String, Object> numbers) {
    }

    private static Optional<Blocked> blockedEventLoops(RecordingAnalysis a, SocketIo io) {
        Durations reads = io.reads;
        int readers = io.readers.size();
        if (reads.count() < MIN_BLOCKING_READS || readers == 0 || a.seconds() <= 0) {
            return Optional.empty();
        }
        double p50 = reads.percentile(50);
        double blockedShare = reads.totalMs() / (readers * a.seconds() * 1000);
        if (p50 < BLOCKING_READ_P50_MS || blockedShare < EVENT_LOOP_BLOCKED_SHARE) {
            return Optional.empty();
        }
        String site = eventLoopRequestSite(a.group(ThreadKind.EVENT_LOOP));
        return Optional.of(new Blocked(f("%,d reads on %d event-loop threads, p50 %.1f ms, p99 %.1f ms, %.0f %% of"
                        + " those threads' time, called from %s", reads.count(), readers, p50, reads.percentile(99),
                Math.min(1, blockedShare) * 100, site), site,
                numbers("reads", reads.count(), "threads", readers, "p50_ms", Durations.round(p50),
                        "p99_ms", Durations.round(reads.percentile(99)), "blocked_share",
                        Durations.round(Math.min(1, blockedShare)))));
    }

    private static String f(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
