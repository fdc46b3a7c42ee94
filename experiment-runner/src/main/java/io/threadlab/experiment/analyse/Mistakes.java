package io.threadlab.experiment.analyse;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Pattern;

/**
 * Common threading mistakes, recognised in a recording by their own signature (never by the recording's name), each
 * with its evidence: the thread group, the event, the code site and the counts. Every rule asks for a symptom and
 * for enough of it to be a habit rather than an accident, so that the correct variants (imperative, reactive,
 * virtual-thread, imperative-rest) raise none. The thresholds were set on recordings of the mistakes-service's
 * endpoints and of the four variants, under load; each says why it sits where it does.
 */
public final class Mistakes {

    /**
     * One mistake seen in a recording, as analysis.json has it.
     *
     * @param name     what the mistake is called (the gallery's variant label where there is one)
     * @param harmful  false when the pattern is there but this JDK no longer makes it cost (blocking inside
     *                 synchronized on a virtual thread, JDK 24+)
     * @param group    the thread group it happened on (worker, event_loop, virtual, ...)
     * @param event    the JFR event type that shows it
     * @param site     the code site: the first frame of request code, or the waiting site
     * @param evidence the sentence the verdicts carry
     * @param numbers  the counts behind the sentence
     */
    public record Mistake(String name, boolean harmful, String group, String event, String site, String evidence,
                          Map<String, Object> numbers) {
    }

    /**
     * Request code's own CPU on one thread group: its share of the group's samples, its CPU per downstream call, and
     * where it was spent most.
     */
    record RequestCpu(long samples, double share, double msPerCall, String site) {
    }

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

    // ---- CPU-heavy request code on the event loop or on virtual threads.
    /** Request code's own work is at least half of the group's samples: the framework's share (HTTP, JSON, client)
     *  is the larger one in every correct variant, where request code's own CPU is near zero. */
    static final double LAB_SHARE = 0.5;
    /** ... and it costs at least 0.3 ms of CPU per downstream call: a millisecond of hashing is heavy, a JSON
     *  mapping or a few branches are microseconds. The two together separate heavy request code from light. */
    static final double LAB_MS_PER_CALL = 0.3;
    static final int MIN_CPU_SAMPLES = 20;

    // ---- Pinning.
    /** A one-off pin happens when a virtual thread initialises a class on its first use; a mistake repeats. */
    static final int MIN_PINS = 10;
    /** Samples under a synchronized method of request code, to say the monitor was held around the call. */
    static final int MIN_SYNCHRONIZED_SAMPLES = 5;

    // ---- Native call on a virtual thread.
    /** A correct virtual thread is never caught in native code (it unmounts to wait): 10 samples of request code in
     *  native code (threads.jfc samples native code every 20 ms), and a tenth of the virtual threads' samples. */
    static final int MIN_NATIVE_SAMPLES = 10;
    static final double NATIVE_SHARE = 0.10;

    private Mistakes() {
    }

    /** The mistakes this recording shows, the most telling first. */
    static List<Mistake> of(RecordingAnalysis a) {
        List<Mistake> found = new ArrayList<>();
        blockingEventLoop(a).ifPresent(found::add);
        blockingJoinOnEventLoop(a).ifPresent(found::add);
        jdbcOnEventLoop(a).ifPresent(found::add);
        workerStarvation(a).ifPresent(found::add);
        connectionPoolCap(a).ifPresent(found::add);
        databasePoolCap(a).ifPresent(found::add);
        refusedConnections(a).ifPresent(found::add);
        cpuOn(a, ThreadKind.EVENT_LOOP, "cpu-on-event-loop", "while it computes, the event loop serves none of its"
                + " other connections").ifPresent(found::add);
        cpuOn(a, ThreadKind.VIRTUAL, "cpu-on-virtual-thread", f("the scheduler does not time-slice virtual threads:"
                + " one that computes keeps its carrier until it blocks, and the others queue (carriers idle at least"
                + " %.0f %% of the window)", a.carrierIdleShare() * 100)).ifPresent(found::add);
        pinning(a).ifPresent(found::add);
        synchronizedWithoutPinning(a).ifPresent(found::add);
        nativeCallOnVirtualThread(a).ifPresent(found::add);
        return List.copyOf(found);
    }

    /** A park site inside a connection pool: the first frame outside the JDK belongs to a class named like one. */
    static boolean isConnectionPool(String site) {
        int method = site.lastIndexOf('.', site.indexOf(':') < 0 ? site.length() : site.indexOf(':'));
        return method > 0 && CONNECTION_POOL.matcher(site.substring(0, method)).find();
    }

    /**
     * Request code's own CPU on a group, when it is heavy (see {@link #LAB_SHARE} and {@link #LAB_MS_PER_CALL}). Its
     * CPU is the Java threads' CPU (jdk.ThreadCPULoad) shared out by execution samples, as the layers are; per call
     * of the delay service, which the lab makes once a request (N times in a fan-out window).
     */
    static Optional<RequestCpu> heavyRequestCpu(RecordingAnalysis a, ThreadKind kind) {
        GroupStats g = a.group(kind);
        if (g.executionSamples < MIN_CPU_SAMPLES || g.labShare() < LAB_SHARE || a.totalSamples() == 0
                || a.cpu().javaCpuSeconds() <= 0) {
            return Optional.empty();
        }
        double javaCpuShare = (double) g.labSamples / a.totalSamples(); // of the Java threads' CPU
        double msPerCall;
        if (a.measured().cpuMsPerRequest() != null) {
            // The runner measured the window's CPU per request: no count of calls needed, and none may be recorded
            // (an event loop's calls leave no event of 1 ms or more).
            msPerCall = javaCpuShare * a.cpu().javaCpuSeconds() / a.cpu().processCpuSeconds() * a.measured().cpuMsPerRequest()
                    / a.measured().fanOut().calls(); // a fan-out request makes N calls: its CPU is N calls'

        } else if (a.signals().downstreamCalls() > 0) {
            msPerCall = javaCpuShare * a.cpu().javaCpuSeconds() * 1000 / a.signals().downstreamCalls();
        } else {
            return Optional.empty();
        }
        if (msPerCall < LAB_MS_PER_CALL) {
            return Optional.empty();
        }
        return Optional.of(new RequestCpu(g.labSamples, g.labShare(), msPerCall, top(g.labSites)));
    }

    /**
     * The request code that blocked the event loops: the native method samples catch a thread blocked in a socket
     * read (it is in native code), with the request code that called it below; socket events carry no stack. Without
     * such samples, the request code the event loops were sampled in.
     */
    private static String eventLoopRequestSite(GroupStats loops) {
        return top(loops.nativeSites.isEmpty() ? loops.requestSites : loops.nativeSites);
    }

    private static Optional<Mistake> blockingEventLoop(RecordingAnalysis a) {
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
    private static Optional<Mistake> blockingJoinOnEventLoop(RecordingAnalysis a) {
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
     * A worker pool starved by its own fan-out: in a window of more than one call per request, workers parked on a
     * future (a request waiting for its calls) long and often, while the workers read few of those calls' replies
     * from the delay service: the calls waited, queued in the pool behind the requests that wait for them. The
     * correct imperative fan-out parks its request's worker too, for about one delay, with its N replies read.
     */
    private static Optional<Mistake> workerStarvation(RecordingAnalysis a) {
        int calls = a.measured().fanOut().calls();
        WaitSites.Site parks = a.waitedAt().workerFutureParks();
        if (calls < 2 || parks.count() < MIN_STARVED_PARKS) {
            return Optional.empty();
        }
        long reads = a.group(ThreadKind.WORKER).delayService().reads.count();
        double readsPerPark = (double) reads / parks.count();
        double meanMs = parks.totalMs() / parks.count();
        double longMs = Math.max(STARVED_PARK_MS, a.measured().delayMs() == null ? 0 : STARVED_PARK_DELAYS * a.measured().delayMs());
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

    /**
     * JDBC on the event loop: the blocking call's signature, in socket reads from the database's port (pgjdbc's,
     * below the request code that the native samples catch), and with the pool's parks when it was spent.
     */
    private static Optional<Mistake> jdbcOnEventLoop(RecordingAnalysis a) {
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

    private static Optional<Mistake> connectionPoolCap(RecordingAnalysis a) {
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
     * A database pool that, not the CPU, set the pace: callers stood waiting for a connection at both edges of the
     * window, each waited longer than a query holds its connection, and the JVM had CPU to spare. The recording holds
     * no event for it where the callers are virtual threads (they unmount to wait) or the reactive client's queue: the
     * pool's own gauges, scraped at the window's edges, say it.
     */
    private static Optional<Mistake> databasePoolCap(RecordingAnalysis a) {
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
    private static Optional<Mistake> refusedConnections(RecordingAnalysis a) {
        Long refused = a.databasePool().refusedConnections();
        if (!a.downstream().database() || refused == null || refused < MIN_REFUSED_CONNECTIONS) {
            return Optional.empty();
        }
        PoolGauges edges = a.databasePool().edges();
        return Optional.of(new Mistake("database-refused-connections", true, databaseReaders(a).name()
                .toLowerCase(Locale.ROOT), "service log", "\"" + RefusedConnections.REFUSAL + "\"",
                f("PostgreSQL refused %,d new connections during the window (\"sorry, too many clients already\" in"
                                + " the JVM's log; a refusal leaves no JFR event)%s: the pool asked for more connections"
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

    private static Optional<Mistake> cpuOn(RecordingAnalysis a, ThreadKind kind, String name, String why) {
        return heavyRequestCpu(a, kind).map(cpu -> new Mistake(name, true, kind.name().toLowerCase(Locale.ROOT),
                "jdk.ExecutionSample", cpu.site(),
                f("request code's own CPU ran on the %s: %.0f %% of their execution samples (%,d), about %.2f ms per"
                                + " downstream call, most at %s; %s", kind.label(), cpu.share() * 100, cpu.samples(),
                        cpu.msPerCall(), cpu.site(), why),
                numbers("samples", cpu.samples(), "share_of_group_samples", Durations.round(cpu.share()),
                        "cpu_ms_per_call", Durations.round(cpu.msPerCall()), "carrier_idle_share",
                        Durations.round(a.carrierIdleShare()))));
    }

    private static Optional<Mistake> pinning(RecordingAnalysis a) {
        Durations.Summary pinned = a.virtualThreads().pinned();
        if (pinned.count() < MIN_PINS) {
            return Optional.empty();
        }
        Map<String, Integer> initialisers = a.signals().pinnedInitialisers();
        int inInitialisers = initialisers.values().stream().mapToInt(Integer::intValue).sum();
        boolean classInit = inInitialisers * 2 >= pinned.count();
        String reason = top(a.signals().pinnedReasons());
        String site = classInit ? top(initialisers) + ".<clinit>" : top(a.virtualThreads().pinnedAt());
        // What the recording shows, on the JDK the run says it ran: no claim about a JDK the run did not use.
        String why = classInit ? f("on %s, blocking inside a class initialiser pinned the carrier: %,d of these"
                + " pins had a class initialiser on the stack, which runs under a VM call, a frame the virtual thread"
                + " cannot unmount across", a.measured().jdkName(), inInitialisers)
                : f("on %s, the virtual thread could not unmount while it waited, so its carrier waited with it",
                a.measured().jdkName());
        return Optional.of(new Mistake(classInit ? "pinned-class-init" : "pinned-carrier", true, "virtual",
                "jdk.VirtualThreadPinned", site,
                f("%,d times a virtual thread pinned its carrier while it blocked (p50 %.1f ms, p99 %.1f ms, %.1f s"
                                + " of carrier time), most for \"%s\" (%,d), at %s: %s", pinned.count(), pinned.p50Ms(),
                        pinned.p99Ms(), pinned.totalMs() / 1000, reason, a.signals().pinnedReasons().get(reason), site,
                        why),
                numbers("pinned", pinned.count(), "pinned_ms", pinned.totalMs(), "p50_ms", pinned.p50Ms(),
                        "p99_ms", pinned.p99Ms(), "in_class_initialisers", inInitialisers)));
    }

    /** Blocking under a monitor on a virtual thread: harmless since JDK 24, and said so only when the recording shows
     *  both halves, request code sampled inside a synchronized method and not one pinned event. */
    private static Optional<Mistake> synchronizedWithoutPinning(RecordingAnalysis a) {
        GroupStats virtuals = a.group(ThreadKind.VIRTUAL);
        if (virtuals.synchronizedSamples < MIN_SYNCHRONIZED_SAMPLES || a.virtualThreads().pinned().count() > 0) {
            return Optional.empty();
        }
        String site = top(virtuals.synchronizedSites);
        // Why none pinned depends on the JDK the recording ran on, as the run says it: JEP 491 explains it only from
        // JDK 24 on; before, a virtual thread blocking under a monitor pins, so none pinning means none blocked there.
        OptionalInt feature = a.measured().jdkFeature();
        String why = feature.isEmpty() ? "from JDK 24 on (JEP 491) a virtual thread that blocks holding a monitor"
                + " unmounts, before JDK 24 it pins, and this recording's run does not say which JDK it ran"
                : feature.getAsInt() >= 24 ? a.measured().jdkName() + " unmounts a virtual thread that blocks holding a monitor"
                + " (JEP 491, JDK 24 and later)"
                : a.measured().jdkName() + " pins a virtual thread that blocks holding a monitor (before JEP 491, JDK 24): none"
                + " pinning means the code under the monitor did not block";
        return Optional.of(new Mistake("synchronized-virtual-thread", false, "virtual", "jdk.ExecutionSample", site,
                f("virtual threads ran request code inside synchronized %s (%,d execution samples, %,d of them in the"
                                + " REST client, the call made under the monitor) and none pinned its carrier (0"
                                + " jdk.VirtualThreadPinned): %s", site, virtuals.synchronizedSamples,
                        virtuals.synchronizedClientSamples, why),
                numbers("synchronized_samples", virtuals.synchronizedSamples, "in_rest_client",
                        virtuals.synchronizedClientSamples, "pinned", 0)));
    }

    private static Optional<Mistake> nativeCallOnVirtualThread(RecordingAnalysis a) {
        GroupStats virtuals = a.group(ThreadKind.VIRTUAL);
        long all = virtuals.nativeSamples + virtuals.executionSamples;
        if (virtuals.nativeLabSamples < MIN_NATIVE_SAMPLES || virtuals.nativeLabSamples < NATIVE_SHARE * all) {
            return Optional.empty();
        }
        String site = top(virtuals.nativeSites);
        String entered = top(virtuals.nativeFrames);
        double share = (double) virtuals.nativeLabSamples / all;
        return Optional.of(new Mistake("native-call-on-virtual-thread", true, "virtual", "jdk.NativeMethodSample",
                site, f("virtual threads were caught inside native code %,d times (jdk.NativeMethodSample, %.0f %% of"
                                + " their samples), entered through %s from %s: a virtual thread cannot unmount inside a"
                                + " native call and the JDK adds no carrier for it, so each call held a carrier for its"
                                + " whole length (carriers idle at least %.0f %% of the window)",
                        virtuals.nativeLabSamples, share * 100, entered, site, a.carrierIdleShare() * 100),
                numbers("native_samples", virtuals.nativeLabSamples, "share_of_virtual_samples", Durations.round(share),
                        "carrier_idle_share", Durations.round(a.carrierIdleShare()))));
    }

    private static String top(Map<String, Integer> counts) {
        return counts.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey).orElse("-");
    }

    private static Map<String, Object> numbers(Object... keysAndValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }

    private static String f(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
