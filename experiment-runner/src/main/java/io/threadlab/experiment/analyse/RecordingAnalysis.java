package io.threadlab.experiment.analyse;

import io.threadlab.experiment.plan.WindowId;
import io.threadlab.experiment.plan.Variant;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Pattern;

/**
 * The numbers of one recording, per thread group, and what they say about the variant that was recorded.
 *
 * @param monitorEnterSites  the top sites of monitor contention (jdk.JavaMonitorEnter), by total wait
 * @param monitorWaitSites   the top sites of Object.wait (jdk.JavaMonitorWait), by total wait
 * @param parkSites          the top park sites (jdk.ThreadPark), by total wait
 * @param workerFutureParks  the worker threads' parks on a future: waiting for an asynchronous client's reply
 * @param cpu                the process's CPU by layer
 * @param cpuMsPerRequest    the recorded window's CPU per request from results.json, or null when unknown
 * @param delayMs            the downstream delay the recorded window was measured at, or null when unknown
 * @param stalls             the stalls in the recorded window's throughput, with what the recording shows of them
 * @param signals            what {@link Mistakes} recognises mistakes by, beyond the groups' own numbers
 * @param socketThreshold    the jdk.SocketRead threshold in force ("1 ms", "0 ms"), or null when the recording does
 *                           not say (made without jdk.ActiveSetting): shorter reads are not in the recording
 * @param jdk                the Java version the recorded JVM ran, as its run recorded it, or null when unknown (the
 *                           recording itself does not say): what the JDK-dependent verdicts are judged with
 * @param downstream         what the window's requests waited on, its port, and how the analysis knows
 * @param databasePool       where requests waited for a pooled database connection, beyond the groups' own numbers
 * @param fanOut             the recorded window's calls to the delay service per request and their mode, from its
 *                           results.json row or its name (one call where neither says more)
 */
public record RecordingAnalysis(Path file, Instant start, Instant end, Map<ThreadKind, GroupStats> groups,
                                long totalSamples, long virtualThreadsStarted, long virtualThreadsEnded,
                                Durations.Summary pinned, Map<String, Integer> pinnedAt, long submitFailed,
                                double gcPauseMs, Throttling throttling, Map<String, Long> eventCounts,
                                List<WaitSites.Site> monitorEnterSites, List<WaitSites.Site> monitorWaitSites,
                                List<WaitSites.Site> parkSites, WaitSites.Site workerFutureParks, LayerCpu cpu,
                                Double cpuMsPerRequest, Integer delayMs, List<AnalysisFile.Stall> stalls,
                                MistakeSignals signals, String socketThreshold, String jdk,
                                WindowDownstream downstream, DatabasePool databasePool, WindowFanOut fanOut) {

    /** CPU throttling of the JVM's container, as the JVM itself saw it during the recording. */
    public record Throttling(long periods, long throttledPeriods, double throttledMs) {
    }

    private static final Pattern ZERO = Pattern.compile("0+\\s*[a-z]*");

    /** Whether a threshold ("0 ms", "0 ns") records every event; false for an unknown one. */
    static boolean everyEvent(String threshold) {
        return threshold != null && ZERO.matcher(threshold.trim()).matches();
    }

    /** Every socket read and write is in the recording, the event loops' microsecond reads too. */
    public boolean everySocketEvent() {
        return everyEvent(socketThreshold);
    }

    /** "socket events from 1 ms", for readers who would otherwise miss the reads that are not there. */
    public String socketEvents() {
        return socketThreshold == null ? "socket threshold not recorded"
                : everySocketEvent() ? "every socket event" : "socket events from " + socketThreshold;
    }

    public double seconds() {
        return Duration.between(start, end).toNanos() / 1e9;
    }

    public GroupStats group(ThreadKind kind) {
        return groups.get(kind);
    }

    /** A group's socket I/O with the window's downstream. */
    SocketIo downstreamIo(ThreadKind kind) {
        return group(kind).io(downstream.downstream());
    }

    /** The recording's name without .jfr: variant-scenario-rep for the runner's recordings. */
    public String window() {
        String name = file.getFileName().toString();
        return name.endsWith(".jfr") ? name.substring(0, name.length() - 4) : name;
    }

    /**
     * What was recorded, to name its pictures: the runner's name for the window's variant or mistake with its setup
     * ({@code imperative-w512}), else the variant. Two mistakes that spoil one variant share its variant, never their
     * pictures.
     */
    public String label() {
        return WindowId.parse(window()).map(WindowId::label).orElse(variant());
    }

    /** The label of the variant whose signature this recording is judged by, or "unknown". */
    public String variant() {
        return judgedAs().map(Variant::label).orElse("unknown");
    }

    /**
     * The variant whose signature this recording is judged by. From the runner's file name (longest label first:
     * imperative-rest-... also starts with imperative), where a mistake or a reference is judged as the model or
     * control on its threads and stack. Else from where the request code ran (the group with the most samples inside
     * io.threadlab.api) and, for worker threads, how they waited for the downstream replies: blocked in socket reads
     * (the classic stack), or parked on a future while no worker read the delay service (Quarkus REST: the event
     * loops read for them, in reads too short to be recorded from 1 ms). Empty when no request code was sampled.
     */
    public Optional<Variant> judgedAs() {
        Optional<Variant> named = Variant.all().stream()
                .sorted(Comparator.comparingInt((Variant v) -> v.label().length()).reversed())
                .filter(v -> window().startsWith(v.label() + "-")).findFirst();
        if (named.isPresent()) {
            Variant v = named.get();
            return Optional.of(v.answersTheQuestion() ? v : onThreadsAndStack(v.threads(), v.stack()));
        }
        ThreadKind busiest = groups.entrySet().stream()
                .max((a, b) -> Long.compare(a.getValue().requestSamples, b.getValue().requestSamples))
                .filter(e -> e.getValue().requestSamples > 0).map(Map.Entry::getKey).orElse(ThreadKind.OTHER);
        return switch (busiest) {
            case WORKER -> Optional.of(onThreadsAndStack(Variant.Threads.WORKER,
                    downstreamIo(ThreadKind.WORKER).reads.count() == 0 && workerFutureParks.count() > 0
                            ? Variant.Stack.QUARKUS_REST : Variant.Stack.CLASSIC));
            case EVENT_LOOP -> Optional.of(Variant.model(Variant.Threads.EVENT_LOOP));
            case VIRTUAL -> Optional.of(Variant.model(Variant.Threads.VIRTUAL));
            default -> Optional.empty();
        };
    }

    /** The model or the control whose request code runs on {@code threads} of {@code stack}. */
    private static Variant onThreadsAndStack(Variant.Threads threads, Variant.Stack stack) {
        return Variant.all().stream().filter(Variant::answersTheQuestion)
                .filter(v -> v.threads() == threads && v.stack() == stack).findFirst()
                .orElseGet(() -> Variant.model(threads));
    }

    /** Share of the carriers' time spent parked (idle), from ThreadPark events of 1 ms or more: a lower bound. */
    public double carrierIdleShare() {
        GroupStats carriers = group(ThreadKind.CARRIER);
        if (carriers.threads.isEmpty() || seconds() <= 0) {
            return Double.NaN;
        }
        return Math.min(1.0, carriers.parks.totalMs() / 1000.0 / (carriers.threads.size() * seconds()));
    }

    /** The same analysis, with the recorded window's CPU per request (from results.json). */
    public RecordingAnalysis withCpuMsPerRequest(Double msPerRequest) {
        return withMeasured(msPerRequest, delayMs, stalls);
    }

    /** The same analysis, with what the runner measured of the recorded window. */
    public RecordingAnalysis withMeasured(Double msPerRequest, Integer delay, List<AnalysisFile.Stall> stalled) {
        return new RecordingAnalysis(file, start, end, groups, totalSamples, virtualThreadsStarted, virtualThreadsEnded,
                pinned, pinnedAt, submitFailed, gcPauseMs, throttling, eventCounts, monitorEnterSites, monitorWaitSites,
                parkSites, workerFutureParks, cpu, msPerRequest, delay, List.copyOf(stalled), signals, socketThreshold,
                jdk, downstream, databasePool, fanOut);
    }

    /** The same analysis, with the Java version its run says the recorded JVM ran (null: unknown). */
    public RecordingAnalysis withJdk(String version) {
        return new RecordingAnalysis(file, start, end, groups, totalSamples, virtualThreadsStarted, virtualThreadsEnded,
                pinned, pinnedAt, submitFailed, gcPauseMs, throttling, eventCounts, monitorEnterSites, monitorWaitSites,
                parkSites, workerFutureParks, cpu, cpuMsPerRequest, delayMs, stalls, signals, socketThreshold, version,
                downstream, databasePool, fanOut);
    }

    /** The JDK's feature release (25 for "25.0.3"), empty where the JDK is not known or its version unreadable. */
    public OptionalInt jdkFeature() {
        if (jdk == null) {
            return OptionalInt.empty();
        }
        try {
            return OptionalInt.of(Runtime.Version.parse(jdk).feature());
        } catch (IllegalArgumentException e) {
            return OptionalInt.empty();
        }
    }

    /** "JDK 25.0.3", or "this recording's JDK (its run does not say which)". */
    public String jdkName() {
        return jdk != null ? "JDK " + jdk : "this recording's JDK (its run does not say which)";
    }

    /** The same analysis, with the database pool's gauges at the recorded window's edges (null: none scraped). */
    public RecordingAnalysis withPoolEdges(PoolGauges edges) {
        return new RecordingAnalysis(file, start, end, groups, totalSamples, virtualThreadsStarted, virtualThreadsEnded,
                pinned, pinnedAt, submitFailed, gcPauseMs, throttling, eventCounts, monitorEnterSites, monitorWaitSites,
                parkSites, workerFutureParks, cpu, cpuMsPerRequest, delayMs, stalls, signals, socketThreshold,
                jdk, downstream, databasePool.withEdges(edges), fanOut);
    }

    /** The same analysis, knowing the recorded window's calls per request. */
    public RecordingAnalysis withFanOut(WindowFanOut calls) {
        return new RecordingAnalysis(file, start, end, groups, totalSamples, virtualThreadsStarted, virtualThreadsEnded,
                pinned, pinnedAt, submitFailed, gcPauseMs, throttling, eventCounts, monitorEnterSites, monitorWaitSites,
                parkSites, workerFutureParks, cpu, cpuMsPerRequest, delayMs, stalls, signals, socketThreshold,
                jdk, downstream, databasePool, calls);
    }

    /** The same analysis, with PostgreSQL's refusals of new connections that the JVM's log holds for the window. */
    public RecordingAnalysis withRefusedConnections(Long refused) {
        return new RecordingAnalysis(file, start, end, groups, totalSamples, virtualThreadsStarted, virtualThreadsEnded,
                pinned, pinnedAt, submitFailed, gcPauseMs, throttling, eventCounts, monitorEnterSites, monitorWaitSites,
                parkSites, workerFutureParks, cpu, cpuMsPerRequest, delayMs, stalls, signals, socketThreshold,
                jdk, downstream, databasePool.withRefusedConnections(refused), fanOut);
    }

    /** "the 300 ms", or "the downstream delay" where the recorded window's delay is not known. */
    public String theDelay() {
        return delayMs == null ? "the downstream delay" : "the " + delayMs + " ms";
    }

    public AnalysisFile.Recording toRecord(Verdicts verdicts) {
        Map<String, AnalysisFile.Group> byGroup = new LinkedHashMap<>();
        groups.forEach((kind, stats) -> {
            if (!stats.threads.isEmpty() || stats.executionSamples > 0) {
                byGroup.put(kind.name().toLowerCase(), stats.toGroup(totalSamples, downstream.downstream()));
            }
        });
        return new AnalysisFile.Recording(file.toString(), window(), variant(), label(), delayMs, jdk,
                downstream.name(), downstream.peer(), downstream.port(), downstream.from(), Durations.round(seconds()),
                socketThreshold, socketEvents(), totalSamples, byGroup, virtualThreadsStarted, virtualThreadsEnded,
                pinned, pinnedAt, submitFailed, Durations.round(carrierIdleShare()), gcPauseMs, throttling,
                monitorEnterSites, monitorWaitSites, parkSites, cpu.toRecord(cpuMsPerRequest),
                signals.downstreamInFlight(), signals.poolWaits(), databasePool, signals.pinnedReasons(),
                verdicts.findings(),
                verdicts.unexpected(), verdicts.mistakes(), stalls);
    }
}
