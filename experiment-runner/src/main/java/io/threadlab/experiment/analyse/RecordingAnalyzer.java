package io.threadlab.experiment.analyse;

import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.Downstream;
import io.threadlab.experiment.plan.WindowId;
import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Streams one recording's events (never the whole file in memory) into per-thread-group statistics, the sites where
 * threads waited (monitors, parks) and the CPU by layer. Socket I/O is split by remote port: the delay service's and
 * the database's are the lab's two downstreams, each counted on its own, anything else is the service's own clients;
 * the window's downstream, the one its verdicts are about, is one of the two ({@link WindowDownstream}). Socket events
 * carry no stack traces (threads.jfc records none), and only the reads and writes above the recording's threshold are
 * there: 1 ms in threads.jfc. Waits inside a JDBC pool are the database pool's, told from any other pool's.
 */
public final class RecordingAnalyzer {

    /**
     * Events without which the analysis would say nothing; a recording that did not enable them was not made with
     * threads.jfc. Enabled, not present: a correct recording may hold none of them (an idle window has no execution
     * sample, a reactive one no socket read of 1 ms or more).
     */
    static final List<String> REQUIRED = List.of("jdk.ExecutionSample", "jdk.SocketRead");

    private static final int TOP_SITES = 5;

    /** No database port: every port but the delay service's is a client's (recordings of HTTP windows only). */
    static final int NO_PORT = -1;

    private final int delayPort;
    private final int databasePort;

    /** @param databasePort the database's port where a run does not say its own (LabDatabase.PORT for the CLI) */
    public RecordingAnalyzer(int delayPort, int databasePort) {
        this.delayPort = delayPort;
        this.databasePort = databasePort;
    }

    public RecordingAnalyzer(int delayPort) {
        this(delayPort, NO_PORT);
    }

    public RecordingAnalysis analyse(Path file) throws UnusableRecording {
        return analyse(file, databasePort, null);
    }

    /**
     * @param runsDatabasePort the database's port in the recording's run (its manifest's), else the analyzer's
     * @param told             the window's downstream from its results.json row, or null where it has none
     */
    RecordingAnalysis analyse(Path file, int runsDatabasePort, Downstream told) throws UnusableRecording {
        if (!Files.isRegularFile(file)) {
            throw new UnusableRecording(file, "no such recording", null);
        }
        Map<ThreadKind, GroupStats> groups = new EnumMap<>(ThreadKind.class);
        for (ThreadKind kind : ThreadKind.values()) {
            groups.put(kind, new GroupStats());
        }
        Map<String, Long> eventCounts = new HashMap<>();
        Map<String, Integer> pinnedFrames = new HashMap<>();
        StackFacts stacks = new StackFacts();
        WaitSites monitorEnters = new WaitSites();
        WaitSites monitorWaits = new WaitSites();
        WaitSites parks = new WaitSites();
        WaitSites poolWaits = new WaitSites();
        WaitSites databasePoolWaits = new WaitSites();
        Map<Downstream, InFlight> inFlight = new EnumMap<>(Map.of(Downstream.HTTP, new InFlight(), Downstream.DB,
                new InFlight()));
        ActiveSettings settings = new ActiveSettings();
        Lifetimes virtualLifetimes = new Lifetimes(groups.get(ThreadKind.VIRTUAL).lifetimes);
        Map<String, Integer> pinnedReasons = new HashMap<>();
        Map<String, Integer> pinnedInitialisers = new HashMap<>();
        LayerCpu.Tally cpu = new LayerCpu.Tally();
        Durations pinned = new Durations();
        long virtualStarted = 0;
        long virtualEnded = 0;
        long submitFailed = 0;
        double gcPauseMs = 0;
        long[] throttling = null; // first and last cumulative ContainerCPUThrottling readings
        Instant first = null;
        Instant last = null;

        try (RecordingFile recording = new RecordingFile(file)) {
            while (recording.hasMoreEvents()) {
                RecordedEvent event = recording.readEvent();
                String type = event.getEventType().getName();
                eventCounts.merge(type, 1L, Long::sum);
                Instant start = event.getStartTime();
                if (first == null || start.isBefore(first)) {
                    first = start;
                }
                if (last == null || event.getEndTime().isAfter(last)) {
                    last = event.getEndTime();
                }
                switch (type) {
                    case "jdk.SocketRead", "jdk.SocketWrite" -> {
                        GroupStats g = group(groups, event.getThread());
                        Downstream peer = peer(event.getInt("port"), runsDatabasePort);
                        double ms = millis(event);
                        if (peer == null) {
                            (type.equals("jdk.SocketRead") ? g.clientReads : g.clientWrites).add(ms);
                        } else if (type.equals("jdk.SocketRead")) {
                            g.io(peer).reads.add(ms);
                            g.io(peer).readers.add(id(event.getThread()));
                            inFlight.get(peer).add(nanos(start), nanos(event.getEndTime()));
                        } else {
                            g.io(peer).writes.add(ms);
                        }
                    }
                    case "jdk.ThreadPark" -> {
                        GroupStats g = group(groups, event.getThread());
                        double ms = millis(event);
                        g.parks.add(ms);
                        String parkedOn = className(event.getClass("parkedClass"), "(no blocker)");
                        g.parkedOn(parkedOn);
                        String site = stacks.site(event.getStackTrace());
                        parks.add(parkedOn, site, ThreadKind.of(event.getThread()), ms);
                        if (DatabasePool.isJdbcPool(site)) {
                            waitForDatabasePool(g, databasePoolWaits, parkedOn, site, event, ms);
                        } else if (PoolMistakes.isConnectionPool(site)) {
                            poolWaits.add(parkedOn, site, ThreadKind.of(event.getThread()), ms);
                        }
                    }
                    case "jdk.JavaMonitorEnter", "jdk.JavaMonitorWait" -> {
                        boolean enter = type.equals("jdk.JavaMonitorEnter");
                        double ms = millis(event);
                        GroupStats g = group(groups, event.getThread());
                        (enter ? g.monitorEnters : g.monitorWaits).add(ms);
                        String monitor = className(event.getClass("monitorClass"), "?");
                        String site = stacks.site(event.getStackTrace());
                        (enter ? monitorEnters : monitorWaits).add(monitor, site, ThreadKind.of(event.getThread()), ms);
                        if (enter && DatabasePool.isJdbcPool(site)) { // a pool guarded by a monitor: the same wait
                            waitForDatabasePool(g, databasePoolWaits, monitor, site, event, ms);
                        }
                    }
                    case "jdk.ExecutionSample" -> {
                        RecordedThread sampled = event.getThread("sampledThread");
                        StackFacts.Sample sample = stacks.sample(event.getStackTrace());
                        cpu.sample(sample.layer());
                        group(groups, sampled).executionSample(sample);
                    }
                    case "jdk.NativeMethodSample" -> {
                        GroupStats g = group(groups, event.getThread("sampledThread"));
                        g.nativeSamples++;
                        StackFacts.NativeCall call = stacks.nativeCall(event.getStackTrace());
                        // A platform thread in a socket call blocks there; a virtual thread's returns at once.
                        boolean carrierHeld = !(event.getThread("sampledThread").isVirtual()
                                && call.nonBlockingSocketIo());
                        if (call.labSite() != null && carrierHeld) {
                            g.nativeLabSamples++;
                            g.nativeSites.merge(call.labSite(), 1, Integer::sum);
                            g.nativeFrames.merge(call.nativeFrame(), 1, Integer::sum);
                        }
                    }
                    case "jdk.ThreadCPULoad" -> {
                        GroupStats g = group(groups, event.getThread());
                        double load = event.getFloat("user") + event.getFloat("system");
                        g.cpuLoadSum += load;
                        g.cpuLoadSeconds.add(start.getEpochSecond());
                        cpu.threadLoad(ThreadKind.of(event.getThread()), load);
                    }
                    case "jdk.GCCPUTime" -> cpu.gc((event.getDuration("userTime").toNanos()
                            + event.getDuration("systemTime").toNanos()) / 1e9);
                    case "jdk.IntFlag" -> {
                        if ("ActiveProcessorCount".equals(event.getString("name"))) {
                            cpu.activeProcessorCountFlag(longField(event, "value"));
                        }
                    }
                    case "jdk.ContainerConfiguration" -> cpu.containerCpus(longField(event, "effectiveCpuCount"));
                    case "jdk.CPUInformation" -> cpu.hardwareThreads(longField(event, "hwThreads"));
                    case "jdk.VirtualThreadStart" -> {
                        virtualStarted++;
                        group(groups, event.getThread());
                        virtualLifetimes.start(id(event.getThread()), start);
                    }
                    case "jdk.VirtualThreadEnd" -> {
                        virtualEnded++;
                        virtualLifetimes.end(id(event.getThread()), start);
                    }
                    case "jdk.VirtualThreadPinned" -> {
                        pinned.add(millis(event));
                        pinnedFrames.merge(stacks.site(event.getStackTrace()), 1, Integer::sum);
                        String initialiser = StackFacts.initialiserOnStack(event.getStackTrace());
                        if (initialiser != null) {
                            pinnedInitialisers.merge(initialiser, 1, Integer::sum);
                        }
                        pinnedReasons.merge(pinnedReason(event, initialiser), 1, Integer::sum);
                    }
                    case "jdk.VirtualThreadSubmitFailed" -> submitFailed++;
                    case "jdk.ActiveSetting" -> settings.add(event);
                    case "jdk.GarbageCollection" -> gcPauseMs += event.getDuration("sumOfPauses").toNanos() / 1e6;
                    case "jdk.ContainerCPUThrottling" -> {
                        long[] reading = {event.getLong("cpuElapsedSlices"), event.getLong("cpuThrottledSlices"),
                                event.getDuration("cpuThrottledTime").toNanos()};
                        throttling = throttling == null ? new long[] {reading[0], reading[1], reading[2], reading[0],
                                reading[1], reading[2]} : new long[] {throttling[0], throttling[1], throttling[2],
                                reading[0], reading[1], reading[2]};
                    }
                    default -> {
                    }
                }
            }
            settings.name(recording.readEventTypes());
        } catch (NoSuchFileException e) {
            throw new UnusableRecording(file, "no such recording", e);
        } catch (IOException | RuntimeException e) {
            throw new UnusableRecording(file, "not a readable JFR recording (truncated or corrupt?): " + e.getMessage(), e);
        }
        requireTheLabsEvents(file, settings, eventCounts, first == null);
        String socketThreshold = settings.known() ? settings.value("jdk.SocketRead", "threshold") : null;
        RecordingAnalysis.Throttling throttled = throttling == null ? null : new RecordingAnalysis.Throttling(
                throttling[3] - throttling[0], throttling[4] - throttling[1], (throttling[5] - throttling[2]) / 1e6);
        WaitSites.Site workerFutureParks = parks.sum(ThreadKind.WORKER, RecordingAnalyzer::isFuture);
        WindowDownstream downstream = downstream(file, told, runsDatabasePort, groups);
        MistakeSignals signals = new MistakeSignals(inFlight.get(Downstream.HTTP).summary(), poolWaits.all(),
                downstreamCalls(groups, downstream.downstream(), SocketThreshold.everyEvent(socketThreshold),
                        workerFutureParks, virtualStarted), GroupStats.topEntries(pinnedReasons, 5),
                GroupStats.topEntries(pinnedInitialisers, 5),
                parks.sum(ThreadKind.EVENT_LOOP, RecordingAnalyzer::isFuture));
        DatabasePool databasePool = new DatabasePool(databasePoolWaits.top(3), threshold(settings, "jdk.ThreadPark"),
                threshold(settings, "jdk.VirtualThreadPinned"), inFlight.get(Downstream.DB).summary(), null, null);
        return new RecordingAnalysis(file, first, last, groups, new VirtualThreadStats(virtualStarted, virtualEnded,
                pinned.summary(), GroupStats.topEntries(pinnedFrames, 5), submitFailed), Durations.round(gcPauseMs),
                throttled, eventCounts, new WaitedAt(monitorEnters.top(TOP_SITES), monitorWaits.top(TOP_SITES),
                parks.top(TOP_SITES), workerFutureParks), cpu.result(), signals, socketThreshold, downstream,
                databasePool, MeasuredWindow.UNKNOWN);
    }

    /** The lab's downstream whose port this is, or null for a client's. */
    private Downstream peer(int port, int runsDatabasePort) {
        return port == delayPort ? Downstream.HTTP : port == runsDatabasePort ? Downstream.DB : null;
    }

    /** A wait for a pooled database connection: counted for its group and its site. */
    private static void waitForDatabasePool(GroupStats g, WaitSites sites, String on, String site, RecordedEvent event,
                                            double ms) {
        g.poolWaits.add(ms);
        g.threadsWaitingForPool.add(id(event.getThread()));
        sites.add(on, site, ThreadKind.of(event.getThread()), ms);
    }

    /**
     * The window's downstream: results.json's, else the runner's name's, else what the recording did: socket I/O
     * with the database (or waits in its pool) and none with the delay service makes a database window.
     */
    private WindowDownstream downstream(Path file, Downstream told, int runsDatabasePort,
                                        Map<ThreadKind, GroupStats> groups) {
        if (told != null) {
            return new WindowDownstream(told, WindowDownstream.FROM_RESULTS, delayPort, runsDatabasePort);
        }
        String window = file.getFileName().toString().replaceFirst("\\.jfr$", "");
        Optional<WindowId> named = WindowId.parse(window);
        if (named.isPresent()) {
            Downstream d = named.get().at().get(Axis.DOWNSTREAM);
            return new WindowDownstream(d == null ? Downstream.HTTP : d, WindowDownstream.FROM_NAME, delayPort,
                    runsDatabasePort);
        }
        long delay = 0;
        long database = 0;
        for (GroupStats g : groups.values()) {
            delay += g.delayService().reads.count() + g.delayService().writes.count();
            database += g.database().reads.count() + g.database().writes.count() + g.poolWaits.count();
        }
        Downstream seen = database > 0 && delay == 0 ? Downstream.DB : Downstream.HTTP;
        return new WindowDownstream(seen, database + delay > 0 ? WindowDownstream.FROM_RECORDING
                : WindowDownstream.FROM_DEFAULT, delayPort, runsDatabasePort);
    }

    /** An event's threshold as recorded ("1 ms"), "off" where it was not enabled, null where the recording does not
     *  say. */
    private static String threshold(ActiveSettings settings, String eventType) {
        if (!settings.known()) {
            return null;
        }
        return settings.enabled(eventType) ? settings.value(eventType, "threshold") : "off";
    }

    /**
     * Refuses a recording not made with the lab's settings, by what it enabled (jdk.ActiveSetting), else, for a
     * recording that does not say, by the events it holds.
     */
    private static void requireTheLabsEvents(Path file, ActiveSettings settings, Map<String, Long> eventCounts,
                                             boolean empty) throws UnusableRecording {
        String why;
        List<String> missing;
        if (settings.known()) {
            missing = REQUIRED.stream().filter(t -> !settings.enabled(t)).toList();
            why = "was recorded without ";
        } else {
            missing = REQUIRED.stream().filter(t -> !eventCounts.containsKey(t)).toList();
            why = "has no ";
        }
        if (missing.isEmpty() && empty) {
            missing = REQUIRED;
        }
        if (!missing.isEmpty()) {
            throw new UnusableRecording(file, why + String.join(" or ", missing) + " events; record it with"
                    + " jfr/threads.jfc (jcmd <pid> JFR.start settings=jfr/threads.jfc ...)", null);
        }
    }

    /**
     * Calls to the window's downstream. Where every socket event was recorded: its socket writes (one request, one
     * write), else its reads. From a threshold on, writes and non-blocking reads are too short to be there, so each
     * call is counted by the wait it makes that is long enough: a blocking client's read, a worker's park on the
     * future of an asynchronous client's reply, a virtual thread (one per request). A variant makes one kind: the
     * largest.
     */
    private static long downstreamCalls(Map<ThreadKind, GroupStats> groups, Downstream downstream,
                                        boolean everySocketEvent, WaitSites.Site workerFutureParks,
                                        long virtualStarted) {
        long writes = groups.values().stream().mapToLong(g -> g.io(downstream).writes.count()).sum();
        long reads = groups.values().stream().mapToLong(g -> g.io(downstream).reads.count()).sum();
        if (everySocketEvent) {
            return writes > 0 ? writes : reads;
        }
        return Math.max(reads, Math.max(workerFutureParks.count(), virtualStarted));
    }

    /**
     * Why a virtual thread pinned: the JVM says so itself since JDK 24 ("VM call to X.&lt;clinit&gt; on stack",
     * "Native or VM frame on stack", ...); before, a class initialiser on the stack is the one cause the stack shows
     * for sure. Hidden classes' run-time suffixes are dropped, so that copies of one class count as one reason.
     */
    private static String pinnedReason(RecordedEvent event, String initialiser) {
        if (event.hasField("pinnedReason") && event.getString("pinnedReason") != null) {
            return StackFacts.withoutHiddenSuffix(event.getString("pinnedReason"));
        }
        return initialiser != null ? "class initialiser " + initialiser + ".<clinit> on stack" : "(no reason recorded)";
    }

    private static long nanos(Instant t) {
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }

    private static GroupStats group(Map<ThreadKind, GroupStats> groups, RecordedThread thread) {
        GroupStats g = groups.get(ThreadKind.of(thread));
        if (thread != null) {
            g.threads.add(id(thread));
        }
        return g;
    }

    private static long id(RecordedThread thread) {
        // Virtual threads have no OS thread id (JMC keys on it and mis-groups them); the Java id is unique.
        return thread == null ? -1 : thread.getJavaThreadId();
    }

    private static double millis(RecordedEvent event) {
        return event.getDuration().toNanos() / 1e6;
    }

    /** A field that older JDKs may lack: 0 then, rather than an exception that would condemn the recording. */
    private static long longField(RecordedEvent event, String name) {
        return event.hasField(name) ? event.getLong(name) : 0;
    }

    private static String className(RecordedClass c, String none) {
        return c == null ? none : c.getName();
    }

    /** What a thread parks on while it waits for an asynchronous result (CompletableFuture$Signaller, ...). */
    static boolean isFuture(String className) {
        return className.contains("Future");
    }
}
