package io.threadlab.experiment.analyse;

import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
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

/**
 * Streams one recording's events (never the whole file in memory) into per-thread-group statistics. Socket I/O is
 * split by remote port: the delay service's port is "downstream", anything else is the service's own clients.
 */
public final class RecordingAnalyzer {

    /** Events without which the analysis would say nothing; a recording lacking them was not made with threads.jfc. */
    static final List<String> REQUIRED = List.of("jdk.ExecutionSample", "jdk.SocketRead");

    private static final String REQUEST_CODE = "io.threadlab.api.";

    private final int delayPort;

    public RecordingAnalyzer(int delayPort) {
        this.delayPort = delayPort;
    }

    /** A recording that cannot be analysed: unreadable, truncated, or without the events the analysis needs. */
    public static final class UnusableRecording extends Exception {
        UnusableRecording(Path file, String why, Throwable cause) {
            super(file + ": " + why, cause);
        }
    }

    public RecordingAnalysis analyse(Path file) throws UnusableRecording {
        if (!Files.isRegularFile(file)) {
            throw new UnusableRecording(file, "no such recording", null);
        }
        Map<ThreadKind, GroupStats> groups = new EnumMap<>(ThreadKind.class);
        for (ThreadKind kind : ThreadKind.values()) {
            groups.put(kind, new GroupStats());
        }
        Map<String, Long> eventCounts = new HashMap<>();
        Map<String, Integer> pinnedFrames = new HashMap<>();
        Durations pinned = new Durations();
        long virtualStarted = 0;
        long virtualEnded = 0;
        long submitFailed = 0;
        double gcPauseMs = 0;
        long totalSamples = 0;
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
                        boolean downstream = event.getInt("port") == delayPort;
                        double ms = millis(event);
                        if (type.equals("jdk.SocketRead")) {
                            (downstream ? g.downstreamReads : g.clientReads).add(ms);
                            if (downstream) {
                                g.threadsReadingDownstream.add(id(event.getThread()));
                            }
                        } else {
                            (downstream ? g.downstreamWrites : g.clientWrites).add(ms);
                        }
                    }
                    case "jdk.ThreadPark" -> {
                        GroupStats g = group(groups, event.getThread());
                        g.parks.add(millis(event));
                        RecordedClass parkedClass = event.getClass("parkedClass");
                        g.parkedOn(parkedClass == null ? "(no blocker)" : parkedClass.getName());
                    }
                    case "jdk.JavaMonitorEnter" -> group(groups, event.getThread()).monitorEnters.add(millis(event));
                    case "jdk.JavaMonitorWait" -> group(groups, event.getThread()).monitorWaits.add(millis(event));
                    case "jdk.ExecutionSample" -> {
                        RecordedThread sampled = event.getThread("sampledThread");
                        GroupStats g = group(groups, sampled);
                        g.executionSamples++;
                        totalSamples++;
                        if (inRequestCode(event.getStackTrace())) {
                            g.requestSamples++;
                        }
                    }
                    case "jdk.ThreadCPULoad" -> {
                        GroupStats g = group(groups, event.getThread());
                        g.cpuLoadSum += event.getFloat("user") + event.getFloat("system");
                        g.cpuLoadSeconds.add(start.getEpochSecond());
                    }
                    case "jdk.VirtualThreadStart" -> {
                        virtualStarted++;
                        group(groups, event.getThread());
                    }
                    case "jdk.VirtualThreadEnd" -> virtualEnded++;
                    case "jdk.VirtualThreadPinned" -> {
                        pinned.add(millis(event));
                        pinnedFrames.merge(topApplicationFrame(event.getStackTrace()), 1, Integer::sum);
                    }
                    case "jdk.VirtualThreadSubmitFailed" -> submitFailed++;
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
        } catch (NoSuchFileException e) {
            throw new UnusableRecording(file, "no such recording", e);
        } catch (IOException | RuntimeException e) {
            throw new UnusableRecording(file, "not a readable JFR recording (truncated or corrupt?): " + e.getMessage(), e);
        }
        List<String> missing = REQUIRED.stream().filter(t -> !eventCounts.containsKey(t)).toList();
        if (missing.isEmpty() && first == null) {
            missing = REQUIRED;
        }
        if (!missing.isEmpty()) {
            throw new UnusableRecording(file, "has no " + String.join(" or ", missing) + " events; record it with"
                    + " jfr/threads.jfc (jcmd <pid> JFR.start settings=jfr/threads.jfc ...)", null);
        }
        RecordingAnalysis.Throttling throttled = throttling == null ? null : new RecordingAnalysis.Throttling(
                throttling[3] - throttling[0], throttling[4] - throttling[1], (throttling[5] - throttling[2]) / 1e6);
        return new RecordingAnalysis(file, first, last, groups, totalSamples, virtualStarted, virtualEnded,
                pinned.summary(), GroupStats.topEntries(pinnedFrames, 5), submitFailed, Durations.round(gcPauseMs),
                throttled, eventCounts);
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

    private static boolean inRequestCode(RecordedStackTrace stack) {
        if (stack == null) {
            return false;
        }
        for (RecordedFrame frame : stack.getFrames()) {
            if (frame.getMethod() != null && frame.getMethod().getType().getName().startsWith(REQUEST_CODE)) {
                return true;
            }
        }
        return false;
    }

    static String topApplicationFrame(RecordedStackTrace stack) {
        if (stack == null) {
            return "(no stack trace)";
        }
        for (RecordedFrame frame : stack.getFrames()) {
            if (frame.getMethod() == null) {
                continue;
            }
            String type = frame.getMethod().getType().getName();
            if (!type.startsWith("java.") && !type.startsWith("jdk.") && !type.startsWith("sun.")) {
                return type + "." + frame.getMethod().getName() + ":" + frame.getLineNumber();
            }
        }
        return "(JDK frames only)";
    }
}
