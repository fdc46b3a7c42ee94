package io.threadlab.experiment.analyse;

import io.threadlab.experiment.plan.Variant;
import io.threadlab.experiment.plan.WindowId;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The numbers of one recording, per thread group, and what they say about the variant that was recorded.
 *
 * @param virtualThreads  what the virtual threads did beyond their group's numbers: started, ended, pinned
 * @param waitedAt        where threads waited: the top sites of monitors and parks, the workers' parks on a future
 * @param cpu             the process's CPU by layer
 * @param signals         what the mistakes are recognised by, beyond the groups' own numbers
 * @param socketThreshold the jdk.SocketRead threshold in force ("1 ms", "0 ms"), or null when the recording does
 *                        not say (made without jdk.ActiveSetting): shorter reads are not in the recording
 * @param downstream      what the window's requests waited on, its port, and how the analysis knows
 * @param databasePool    where requests waited for a pooled database connection, beyond the groups' own numbers
 * @param measured        what the runner measured of the recorded window, beside the recording
 */
public record RecordingAnalysis(Path file, Instant start, Instant end, Map<ThreadKind, GroupStats> groups,
                                VirtualThreadStats virtualThreads, double gcPauseMs, Throttling throttling,
                                Map<String, Long> eventCounts, WaitedAt waitedAt, LayerCpu cpu, MistakeSignals signals,
                                String socketThreshold, WindowDownstream downstream, DatabasePool databasePool,
                                MeasuredWindow measured) {

    /** CPU throttling of the JVM's container, as the JVM itself saw it during the recording. */
    public record Throttling(long periods, long throttledPeriods, double throttledMs) {
    }

    /** The execution samples of every group: each sample is its thread's group's. */
    public long totalSamples() {
        return groups.values().stream().mapToLong(g -> g.executionSamples).sum();
    }

    /** Every socket read and write is in the recording, the event loops' microsecond reads too. */
    public boolean everySocketEvent() {
        return SocketThreshold.everyEvent(socketThreshold);
    }

    /** "socket events from 1 ms", for readers who would otherwise miss the reads that are not there. */
    public String socketEvents() {
        return SocketThreshold.events(socketThreshold);
    }

    /** "of 1 ms or more": the socket reads the recording holds. */
    String recordedReads() {
        return SocketThreshold.recorded(socketThreshold);
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
        return WindowId.parse(window()).map(WindowId::label)
                .or(() -> named().map(Variant::label)) // a recording of a JVM, not a window: its lost warm-up
                .orElse(variant());
    }

    /** The variant the runner's file name begins with (longest label first: imperative-rest-... also starts with
     *  imperative), if any. */
    private Optional<Variant> named() {
        return Variant.all().stream().sorted(Comparator.comparingInt((Variant v) -> v.label().length()).reversed())
                .filter(v -> window().startsWith(v.label() + "-")).findFirst();
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
        Optional<Variant> named = named();
        if (named.isPresent()) {
            Variant v = named.get();
            return Optional.of(v.answersTheQuestion() ? v : onThreadsAndStack(v.threads(), v.stack()));
        }
        ThreadKind busiest = groups.entrySet().stream()
                .max((a, b) -> Long.compare(a.getValue().requestSamples, b.getValue().requestSamples))
                .filter(e -> e.getValue().requestSamples > 0).map(Map.Entry::getKey).orElse(ThreadKind.OTHER);
        return switch (busiest) {
            case WORKER -> Optional.of(onThreadsAndStack(Variant.Threads.WORKER,
                    downstreamIo(ThreadKind.WORKER).reads.count() == 0 && waitedAt.workerFutureParks().count() > 0
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
        return withMeasured(msPerRequest, measured.delayMs(), measured.stalls());
    }

    /** The same analysis, with what the runner measured of the recorded window. */
    public RecordingAnalysis withMeasured(Double msPerRequest, Integer delay, List<RecordedStall> stalled) {
        return with(new MeasuredWindow(msPerRequest, delay, stalled, measured.jdk(), measured.fanOut(),
                measured.heldCalls()));
    }

    /** The same analysis, with the Java version its run says the recorded JVM ran (null: unknown). */
    public RecordingAnalysis withJdk(String version) {
        return with(new MeasuredWindow(measured.cpuMsPerRequest(), measured.delayMs(), measured.stalls(), version,
                measured.fanOut(), measured.heldCalls()));
    }

    /** The same analysis, knowing the recorded window's calls per request. */
    public RecordingAnalysis withFanOut(WindowFanOut calls) {
        return with(new MeasuredWindow(measured.cpuMsPerRequest(), measured.delayMs(), measured.stalls(),
                measured.jdk(), calls, measured.heldCalls()));
    }

    /** The same analysis, knowing the calls the delay service held at once beside the client's pool (null: not). */
    public RecordingAnalysis withHeldCalls(HeldCalls held) {
        return with(new MeasuredWindow(measured.cpuMsPerRequest(), measured.delayMs(), measured.stalls(),
                measured.jdk(), measured.fanOut(), held));
    }

    /** The same analysis, with the database pool's gauges at the recorded window's edges (null: none scraped). */
    public RecordingAnalysis withPoolEdges(PoolGauges edges) {
        return with(databasePool.withEdges(edges));
    }

    /** The same analysis, with PostgreSQL's refusals of new connections that the JVM's log holds for the window. */
    public RecordingAnalysis withRefusedConnections(Long refused) {
        return with(databasePool.withRefusedConnections(refused));
    }

    private RecordingAnalysis with(MeasuredWindow window) {
        return new RecordingAnalysis(file, start, end, groups, virtualThreads, gcPauseMs, throttling, eventCounts,
                waitedAt, cpu, signals, socketThreshold, downstream, databasePool, window);
    }

    private RecordingAnalysis with(DatabasePool pool) {
        return new RecordingAnalysis(file, start, end, groups, virtualThreads, gcPauseMs, throttling, eventCounts,
                waitedAt, cpu, signals, socketThreshold, downstream, pool, measured);
    }
}
