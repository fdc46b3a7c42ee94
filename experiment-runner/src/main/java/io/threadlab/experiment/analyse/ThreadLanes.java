package io.threadlab.experiment.analyse;

import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A JMC-style timeline of a short slice of a recording: one lane per thread, what it was doing when. Collected in a
 * second streaming pass that keeps only the slice. A thread of the lesson's groups that was alive but neither blocked
 * long enough to be recorded nor was sampled on CPU in the slice gets an empty lane: from 1 ms, that is what an event
 * loop serving non-blocking I/O looks like.
 */
public final class ThreadLanes {

    /**
     * What a stretch of a lane shows. A socket read from the database's port is a database read, a park or monitor
     * enter inside a JDBC pool a wait for a pooled connection: the two waits of a database window, told apart from
     * the rest by the port and by the stack, as the analysis tells them.
     */
    public enum Activity {
        SOCKET_READ("socket read", "#1f77b4"),
        DATABASE_READ("socket read from the database", "#2ca02c"),
        SOCKET_WRITE("socket write", "#17becf"),
        PARK("parked", "#b0b0b0"),
        POOL_WAIT("waiting for a pooled connection", "#8c564b"),
        MONITOR("monitor enter/wait", "#d62728"),
        ALIVE("virtual thread alive", "#c5b0d5"),
        SAMPLE("on CPU (execution sample)", "#ff7f0e");

        final String label;
        final String color;

        Activity(String label, String color) {
            this.label = label;
            this.color = color;
        }
    }

    /** A stretch of a lane; a monitor block carries its site ("Object @ Selector.select"), others no label. */
    public record Segment(Activity activity, double fromMs, double toMs, String label) {

        Segment(Activity activity, double fromMs, double toMs) {
            this(activity, fromMs, toMs, null);
        }
    }

    public record Lane(String thread, ThreadKind kind, List<Segment> segments) {
    }

    /** Groups shown, in order; the others (GC, JIT, JFR, other) are not the lesson. */
    static final List<ThreadKind> SHOWN = List.of(ThreadKind.WORKER, ThreadKind.EVENT_LOOP, ThreadKind.VIRTUAL,
            ThreadKind.CARRIER, ThreadKind.INTERNAL_BLOCKING);

    private final List<Lane> lanes;
    private final Map<ThreadKind, Integer> hidden;
    private final double sliceMs;
    private final String title;
    private final String downstream;

    /** @param downstream what the requests waited on, with its port: "PostgreSQL (port 5432)" */
    ThreadLanes(List<Lane> lanes, Map<ThreadKind, Integer> hidden, double sliceMs, String title, String downstream) {
        this.lanes = lanes;
        this.hidden = hidden;
        this.sliceMs = sliceMs;
        this.title = title;
        this.downstream = downstream;
    }

    public List<Lane> lanes() {
        return lanes;
    }

    public Map<ThreadKind, Integer> hidden() {
        return hidden;
    }

    public double sliceMs() {
        return sliceMs;
    }

    public String title() {
        return title;
    }

    public String downstream() {
        return downstream;
    }

    /**
     * Reads the slice of {@code sliceMs} centred in the recording, keeping at most {@code perGroup} lanes a group,
     * the busiest first.
     */
    public static ThreadLanes read(RecordingAnalysis analysis, Duration slice, int perGroup) throws IOException {
        Instant middle = analysis.start().plus(Duration.between(analysis.start(), analysis.end()).dividedBy(2));
        return read(analysis, middle.minus(slice.dividedBy(2)), slice, perGroup);
    }

    /** Reads the slice of {@code sliceMs} that begins at {@code from}, as {@link #read(RecordingAnalysis, Duration, int)}. */
    static ThreadLanes read(RecordingAnalysis analysis, Instant from, Duration slice, int perGroup) throws IOException {
        Instant to = from.plus(slice);
        Map<Long, List<Segment>> segments = new HashMap<>();
        Map<Long, RecordedThread> threads = new HashMap<>();
        Map<Long, Instant> virtualStarts = new HashMap<>();
        StackFacts stacks = new StackFacts();

        try (RecordingFile recording = new RecordingFile(analysis.file())) {
            while (recording.hasMoreEvents()) {
                RecordedEvent event = recording.readEvent();
                String type = event.getEventType().getName();
                if (type.equals("jdk.VirtualThreadStart") && event.getThread() != null) {
                    virtualStarts.put(event.getThread().getJavaThreadId(), event.getStartTime());
                    continue;
                }
                if (type.equals("jdk.ThreadCPULoad")) {
                    alive(event, from, to, threads, segments);
                    continue;
                }
                if (event.getEndTime().isBefore(from) || event.getStartTime().isAfter(to)) {
                    if (type.equals("jdk.VirtualThreadEnd") && event.getThread() != null) {
                        virtualStarts.remove(event.getThread().getJavaThreadId());
                    }
                    continue;
                }
                RecordedThread thread = type.equals("jdk.ExecutionSample") ? event.getThread("sampledThread")
                        : event.getThread();
                if (thread == null || !SHOWN.contains(ThreadKind.of(thread))) {
                    continue;
                }
                Activity activity = switch (type) {
                    case "jdk.SocketRead" -> event.getInt("port") == analysis.downstream().databasePort()
                            ? Activity.DATABASE_READ : Activity.SOCKET_READ;
                    case "jdk.SocketWrite" -> Activity.SOCKET_WRITE;
                    case "jdk.ThreadPark" -> inJdbcPool(event, stacks) ? Activity.POOL_WAIT : Activity.PARK;
                    case "jdk.JavaMonitorEnter" -> inJdbcPool(event, stacks) ? Activity.POOL_WAIT : Activity.MONITOR;
                    case "jdk.JavaMonitorWait" -> Activity.MONITOR;
                    case "jdk.ExecutionSample" -> Activity.SAMPLE;
                    case "jdk.VirtualThreadEnd" -> Activity.ALIVE;
                    default -> null;
                };
                if (activity == null) {
                    continue;
                }
                long id = thread.getJavaThreadId();
                threads.put(id, thread);
                Instant start = event.getStartTime();
                Instant end = event.getEndTime();
                if (activity == Activity.ALIVE) {
                    start = virtualStarts.getOrDefault(id, from);
                    virtualStarts.remove(id);
                } else if (activity == Activity.SAMPLE) {
                    end = start.plusNanos(500_000); // a sample is an instant: draw it half a millisecond wide
                }
                String label = activity == Activity.MONITOR ? monitorLabel(event, stacks) : null;
                segments.computeIfAbsent(id, k -> new ArrayList<>()).add(new Segment(activity,
                        clamp(ms(from, start), slice), clamp(ms(from, end), slice), label));
            }
        }
        // Virtual threads alive across the whole slice's end.
        virtualStarts.forEach((id, start) -> {
            if (segments.containsKey(id) && start.isBefore(to)) {
                segments.get(id).add(new Segment(Activity.ALIVE, clamp(ms(from, start), slice), slice.toNanos() / 1e6));
            }
        });

        List<Lane> lanes = new ArrayList<>();
        Map<ThreadKind, Integer> hidden = new LinkedHashMap<>();
        for (ThreadKind kind : SHOWN) {
            List<Long> ids = segments.keySet().stream().filter(id -> ThreadKind.of(threads.get(id)) == kind)
                    .sorted(Comparator.comparingDouble((Long id) -> busy(segments.get(id))).reversed()
                            .thenComparing(id -> name(threads.get(id))))
                    .toList();
            ids.stream().limit(perGroup).sorted(Comparator.comparing(id -> naturalKey(name(threads.get(id)))))
                    .forEach(id -> lanes.add(new Lane(name(threads.get(id)), kind, segments.get(id).stream()
                            .sorted(Comparator.comparing(s -> s.activity() == Activity.ALIVE ? 0 : 1)).toList())));
            if (ids.size() > perGroup) {
                hidden.put(kind, ids.size() - perGroup);
            }
        }
        Instant middle = analysis.start().plus(Duration.between(analysis.start(), analysis.end()).dividedBy(2));
        String where = from.plus(slice.dividedBy(2)).equals(middle) ? " ms from the middle of "
                : " ms from " + Duration.between(analysis.start(), from).toMillis() + " ms into ";
        String title = analysis.label() + ": thread lanes, " + slice.toMillis() + where + analysis.window()
                + " (" + analysis.socketEvents() + ")";
        return new ThreadLanes(lanes, hidden, slice.toNanos() / 1e6, title, analysis.downstream().peer() + " (port "
                + analysis.downstream().port() + ")");
    }

    /**
     * A lane, perhaps empty, for a thread of the lesson's groups that jdk.ThreadCPULoad reports for the second that
     * ends at its time, when that second overlaps the slice: the thread was alive around it.
     */
    private static void alive(RecordedEvent load, Instant from, Instant to, Map<Long, RecordedThread> threads,
                              Map<Long, List<Segment>> segments) {
        RecordedThread thread = load.getThread();
        Instant at = load.getStartTime();
        if (thread != null && SHOWN.contains(ThreadKind.of(thread)) && !at.isBefore(from)
                && !at.isAfter(to.plusSeconds(1))) {
            threads.put(thread.getJavaThreadId(), thread);
            segments.computeIfAbsent(thread.getJavaThreadId(), id -> new ArrayList<>());
        }
    }

    private static boolean inJdbcPool(RecordedEvent event, StackFacts stacks) {
        return DatabasePool.isJdbcPool(stacks.site(event.getStackTrace()));
    }

    /** "Object @ SelectedSelectionKeySetSelector.select": the monitor's class and the site that waited for it. */
    private static String monitorLabel(RecordedEvent event, StackFacts stacks) {
        RecordedClass monitor = event.getClass("monitorClass");
        return StackFacts.shortForm(monitor == null ? "?" : monitor.getName(), stacks.site(event.getStackTrace()));
    }

    private static double busy(List<Segment> segments) {
        return segments.stream().filter(s -> s.activity() != Activity.PARK && s.activity() != Activity.POOL_WAIT
                        && s.activity() != Activity.ALIVE)
                .mapToDouble(s -> s.toMs() - s.fromMs()).sum();
    }

    private static String name(RecordedThread thread) {
        return thread.getJavaName() != null ? thread.getJavaName() : String.valueOf(thread.getOSName());
    }

    /** executor-thread-9 before executor-thread-10. */
    private static String naturalKey(String name) {
        int i = name.length();
        while (i > 0 && Character.isDigit(name.charAt(i - 1))) {
            i--;
        }
        return i < name.length() ? name.substring(0, i) + "%08d".formatted(Long.parseLong(name.substring(i))) : name;
    }

    private static double ms(Instant from, Instant t) {
        return Duration.between(from, t).toNanos() / 1e6;
    }

    private static double clamp(double ms, Duration slice) {
        return Math.max(0, Math.min(slice.toNanos() / 1e6, ms));
    }
}
