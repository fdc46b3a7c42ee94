package io.threadlab.experiment.analyse;

import io.threadlab.experiment.analyse.Mistakes.Mistake;

import java.util.Comparator;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

import static io.threadlab.experiment.analyse.Mistakes.numbers;

/**
 * Mistakes of a pool that, not the threads or the CPU, sets the pace: a worker pool starved by its own fan-out, a
 * capped pool of connections to the delay service, a database pool with callers queued at both edges of the window
 * and CPU to spare; and a database pool that asks PostgreSQL for more connections than it has.
 */
final class PoolMistakes {

    // ---- A worker pool starved by its own fan-out.
    /** Workers parked on a future in a fan-out window, often enough to be the requests' rule. */
    static final int MIN_STARVED_PARKS = 10;
    /** ... while the workers read fewer replies of the delay service per such park than half the calls a request
     *  makes: the calls did not get done. Where they run, each request's park (on all its calls) comes with N reads. */
    static final double STARVED_READS_PER_CALL = 0.5;
    /** ... and each park lasted, on average, at least this long and ten delays: a request whose calls ran waited
     *  about one delay (parallel) and its queueing; a starved one waits out the client's connect and read timeouts
     *  (6 s in the lab) and is answered 503. */
    static final double STARVED_PARK_MS = 1000;
    static final int STARVED_PARK_DELAYS = 10;

    // ---- Connection pool cap.
    /** Parks waiting for a pooled connection, often enough to be the rule: at least 50, and one per 20 calls. */
    static final int MIN_POOL_WAITS = 50;
    static final double POOL_WAITS_PER_READ = 0.05;
    /** The concurrency ceiling: at most 60 % of the threads that read from the delay service ever read at once. A
     *  closed-model load with as many threads as users keeps ~90-100 % of them reading; a pool of 50 under 200
     *  workers, 25 %. */
    static final double CAP_SHARE_OF_READERS = 0.6;
    /** Classes that hand out connections: Apache's AbstractConnPool, Vert.x's SimpleConnectionPool, a ConnPool... */
    private static final Pattern CONNECTION_POOL = Pattern.compile("(?i)conn(ection)?pool");

    // ---- A REST client's pool that caps the calls in flight, seen at the delay service.
    /** The calls the delay service held stayed at this share of the client's pool or more: the fan-out gallery's pool
     *  of 50 held 49.3-50.2 calls at 100 and 500 users (4 calls each, 100 ms), with the JVM at a fifth of its quota;
     *  the virtual-thread variant's pool of 1,000 held 380-710 of the 400 and 2,000 wanted. */
    static final double HELD_SHARE_OF_POOL = 0.9;
    /** ... while the users wanted this many times the pool's calls at once or more: a pool that fits every call the
     *  users make is full only when they all are, and then it is not what they wait for. */
    static final double WANTED_OVER_POOL = 1.1;

    // ---- A database pool that sets the pace.
    /** Callers waiting for a database connection at both edges of the window: a queue that stood, not a burst. */
    static final int MIN_DB_WAITING = 10;
    /** ... while the JVM was throttled in less than this share of its quota's periods: CPU was not what they waited
     *  for. The pool of 20 behind 500 users waits too (480 waiting), but throttled in 92-98 % of the periods, CPU-bound;
     *  the pool of 2 in 0-1 %. */
    static final double DB_POOL_THROTTLED_SHARE = 0.25;

    // ---- Connections refused by the database.
    /** PostgreSQL's refusals of new connections in the window: a few are a startup race, this many a pool too large. */
    static final long MIN_REFUSED_CONNECTIONS = 10;

    private PoolMistakes() {
    }

    /** A park site inside a connection pool: the first frame outside the JDK belongs to a class named like one. */
    static boolean isConnectionPool(String site) {
        int method = site.lastIndexOf('.', site.indexOf(':') < 0 ? site.length() : site.indexOf(':'));
        return method > 0 && CONNECTION_POOL.matcher(site.substring(0, method)).find();
    }

    /**
     * A worker pool starved by its own fan-out: in a window of more than one call per request, workers parked on a
     * future (a request waiting for its calls) long and often, while the workers read few of those calls' replies
     * from the delay service: the calls waited, queued in the pool behind the requests that wait for them. The
     * correct imperative fan-out parks its request's worker too, for about one delay, with its N replies read.
     */
    static Optional<Mistake> workerStarvation(RecordingAnalysis a) {
        int calls = a.measured().fanOut().calls();
        WaitSites.Site parks = a.waitedAt().workerFutureParks();
        if (calls < 2 || parks.count() < MIN_STARVED_PARKS) {
            return Optional.empty();
        }
        long reads = a.group(ThreadKind.WORKER).delayService().reads.count();
        double readsPerPark = (double) reads / parks.count();
        double meanMs = parks.totalMs() / parks.count();
        Integer delayMs = a.measured().delayMs();
        double longMs = Math.max(STARVED_PARK_MS, delayMs == null ? 0 : STARVED_PARK_DELAYS * delayMs);
        if (readsPerPark >= STARVED_READS_PER_CALL * calls || meanMs < longMs) {
            return Optional.empty();
        }
        return Optional.of(new Mistake("fanout-worker-starvation", true, "worker", "jdk.ThreadPark", parks.site(),
                f("workers parked waiting on their fan-out's futures %,d times at %s, %.0f ms each on average (%.1f s"
                                + " in total), while the workers read %,d replies from the delay service: %.2f per"
                                + " park, for %d calls per request; the calls queued in the worker pool behind the"
                                + " requests that waited for them", parks.count(), parks.site(), meanMs,
                        parks.totalMs() / 1000, reads, readsPerPark, calls),
                numbers("parks", parks.count(), "mean_park_ms", Durations.round(meanMs), "delay_reads", reads,
                        "reads_per_park", Durations.round(readsPerPark), "calls_per_request", calls)));
    }

    static Optional<Mistake> connectionPoolCap(RecordingAnalysis a) {
        WaitSites.Site waits = a.signals().poolWaits();
        InFlight.Summary inFlight = a.signals().downstreamInFlight();
        int readers = 0;
        long reads = 0;
        for (GroupStats g : a.groups().values()) {
            readers += g.delayService().readers.size();
            reads += g.delayService().reads.count();
        }
        if (waits.count() < MIN_POOL_WAITS || waits.count() < POOL_WAITS_PER_READ * reads
                || inFlight.max() > CAP_SHARE_OF_READERS * readers) {
            return Optional.empty();
        }
        return Optional.of(new Mistake("connection-pool-cap", true, waits.group(), "jdk.ThreadPark", waits.site(),
                f("callers waited for a pooled connection to the delay service: %,d parks on %s at %s (%s), %.1f s"
                                + " in total; at most %d socket reads from the delay service were in flight at once"
                                + " (%d or more for %.0f %% of the time) while %d threads read from it: the pool, not the"
                                + " threads, set the concurrency", waits.count(), waits.on(), waits.site(),
                        waits.groupLabel(), waits.totalMs() / 1000, inFlight.max(), (int) Math.ceil(0.9 * inFlight.max()),
                        inFlight.nearMaxShare() * 100, readers),
                numbers("pool_waits", waits.count(), "pool_wait_ms", waits.totalMs(), "max_in_flight", inFlight.max(),
                        "near_max_share", inFlight.nearMaxShare(), "threads_reading", readers, "reads", reads)));
    }

    /**
     * A REST client's pool that capped the calls in flight, from the window's figures where the recording has no
     * event for it (the Quarkus REST client's queue for a connection is callbacks): the delay service held as many
     * calls at once as the pool has connections, while the users wanted more. Where the recording shows the callers
     * waiting in the classic client's pool, {@link #connectionPoolCap} names it instead, with that evidence.
     */
    static Optional<Mistake> clientPoolCap(RecordingAnalysis a) {
        HeldCalls calls = a.measured().heldCalls();
        if (calls == null || calls.held() < HELD_SHARE_OF_POOL * calls.pool()
                || calls.wanted() < WANTED_OVER_POOL * calls.pool()) {
            return Optional.empty();
        }
        ThreadKind callers = a.groups().entrySet().stream()
                .max(Comparator.comparingLong(e -> e.getValue().requestSamples)).map(Map.Entry::getKey)
                .orElse(ThreadKind.OTHER);
        return Optional.of(new Mistake("client-pool-cap", true, callers.name().toLowerCase(Locale.ROOT),
                "delay_served_seconds", "quarkus.rest-client.delay.connection-pool-size", f("the REST client's pool"
                        + " of %,d connections capped the calls in flight: the delay service held %.1f calls at once"
                        + " on average (its calls per second × the time it held each, Little's law on its own timer)"
                        + " while the users wanted %,d at once; the calls beyond the pool waited for a connection in"
                        + " the client's queue, where no thread waits and the recording holds no event",
                        calls.pool(), calls.held(), calls.wanted()),
                numbers("held_calls", Durations.round(calls.held()), "pool", calls.pool(), "wanted_calls",
                        calls.wanted())));
    }

    /**
     * A database pool that, not the CPU, set the pace: callers stood waiting for a connection at both edges of the
     * window, each waited longer than a query holds its connection, and the JVM had CPU to spare. The recording holds
     * no event for it where the callers are virtual threads (they unmount to wait) or the reactive client's queue: the
     * pool's own gauges, scraped at the window's edges, say it.
     */
    static Optional<Mistake> databasePoolCap(RecordingAnalysis a) {
        PoolGauges edges = a.databasePool().edges();
        RecordingAnalysis.Throttling throttling = a.throttling();
        if (!a.downstream().database() || edges == null || throttling == null || throttling.periods() == 0) {
            return Optional.empty();
        }
        double throttled = (double) throttling.throttledPeriods() / throttling.periods();
        ThreadKind readers = databaseReaders(a);
        double holdMs = a.group(readers).database().reads.percentile(50);
        double waitMs = edges.waitedMsPerAcquisition();
        if (Math.min(edges.waitingBefore(), edges.waitingAfter()) < MIN_DB_WAITING || throttled >= DB_POOL_THROTTLED_SHARE
                || Double.isNaN(waitMs) || Double.isNaN(holdMs) || waitMs <= holdMs) {
            return Optional.empty();
        }
        return Optional.of(new Mistake("database-pool-cap", true, readers.name().toLowerCase(Locale.ROOT),
                edges.metric(), edges.pool(), f("the database pool, not the CPU, set the pace: %.0f, then %.0f"
                                + " callers waited for a connection at the window's edges (%s, %s) with %s connections"
                                + " in use, each acquisition waited %.1f ms against the %.1f ms a query held one (p50 of"
                                + " the socket reads from PostgreSQL), and the JVM was throttled in %.0f %% of its"
                                + " quota's periods", edges.waitingBefore(), edges.waitingAfter(), edges.pool(),
                        edges.metric(), inUse(edges), waitMs, holdMs, throttled * 100),
                numbers("waiting_before", edges.waitingBefore(), "waiting_after", edges.waitingAfter(),
                        "wait_ms_per_acquisition", Durations.round(waitMs), "query_read_p50_ms", Durations.round(holdMs),
                        "throttled_share", Durations.round(throttled))));
    }

    /** PostgreSQL refused new connections during the window: the pool asked for more than its free slots. */
    static Optional<Mistake> refusedConnections(RecordingAnalysis a) {
        Long refused = a.databasePool().refusedConnections();
        if (!a.downstream().database() || refused == null || refused < MIN_REFUSED_CONNECTIONS) {
            return Optional.empty();
        }
        PoolGauges edges = a.databasePool().edges();
        return Optional.of(new Mistake("database-refused-connections", true, databaseReaders(a).name()
                .toLowerCase(Locale.ROOT), "database log", "\"" + RefusedConnections.REFUSAL + "\"",
                f("PostgreSQL refused %,d new connections during the window (\"sorry, too many clients already\" in"
                                + " its log, or the JVM's where the run kept none; a refusal leaves no JFR event)%s:"
                                + " the pool asked for more connections"
                                + " than the database's free slots, and the callers waiting on them wait out the"
                                + " acquisition timeout", refused,
                        edges == null ? "" : f(", with %s connections in use at the window's edges", inUse(edges))),
                numbers("refused_connections", refused)));
    }

    /** The group that read from PostgreSQL most: the callers whose pool it is. */
    private static ThreadKind databaseReaders(RecordingAnalysis a) {
        return a.groups().entrySet().stream()
                .max(Comparator.comparingLong(e -> e.getValue().database().reads.count()))
                .map(Map.Entry::getKey).orElse(ThreadKind.OTHER);
    }

    private static String inUse(PoolGauges edges) {
        return edges.activeBefore() == null || edges.activeAfter() == null ? "an unknown number of"
                : f("%.0f, then %.0f", edges.activeBefore(), edges.activeAfter());
    }

    private static String f(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
