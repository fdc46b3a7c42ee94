package io.threadlab.experiment.record;

import jdk.jfr.consumer.EventStream;
import jdk.jfr.consumer.RecordedEvent;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * The JIT compiler's own state in a running JVM, followed live from the JFR repository of the recording every
 * variant starts with ({@code jfr/compiler.jfc}): queue length per compiler, compilations, compiled code size,
 * deoptimisations. Completed-compilation time alone cannot tell a finished compiler from a starved one (a C2
 * compilation starved at 0.5 CPU takes seconds of wall time and reports nothing until it ends); the queue can.
 */
public final class CompilerActivity implements AutoCloseable {

    /** Cumulative counters at one moment; queues are the latest periodic reading. */
    public record Snapshot(Instant at, long c1Queue, long c2Queue, long peakQueue, long compilations,
                           long compiledBytes, long codeBytes, long deoptimizations, long failedCompilations) {

        public long queued() {
            return c1Queue + c2Queue;
        }
    }

    private final EventStream stream;
    private volatile long c1Queue;
    private volatile long c2Queue;
    private volatile long peakQueue;
    private volatile long compilations;
    private volatile long compiledBytes;
    private volatile long codeBytes;
    private volatile long deoptimizations;
    private volatile long failed;
    private volatile Instant lastEvent = Instant.EPOCH;

    private CompilerActivity(EventStream stream) {
        this.stream = stream;
        stream.onEvent("jdk.CompilerQueueUtilization", this::queue);
        stream.onEvent("jdk.CompilerStatistics", e -> {
            compilations = e.getInt("compileCount");
            compiledBytes = e.getLong("osrBytesCompiled") + e.getLong("standardBytesCompiled");
            codeBytes = e.getLong("nmethodCodeSize");
            seen(e);
        });
        stream.onEvent("jdk.Deoptimization", e -> deoptimizations++);
        stream.onEvent("jdk.Compilation", e -> {
            if (!e.getBoolean("succeded")) {
                failed++;
            }
        });
    }

    /**
     * Follows the recording in {@code repository} (the JVM's {@code -XX:FlightRecorderOptions:repository=}); the
     * JVM puts its chunks in a subdirectory of it, which may appear only once the JVM has started.
     */
    public static CompilerActivity follow(Path repository) {
        Path chunks = chunkDirectory(repository);
        try {
            EventStream stream = EventStream.openRepository(chunks);
            stream.setStartTime(Instant.EPOCH); // from the JVM's start, not from now
            CompilerActivity activity = new CompilerActivity(stream);
            stream.startAsync();
            return activity;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot follow the JFR repository " + chunks, e);
        }
    }

    private static Path chunkDirectory(Path repository) {
        try (Stream<Path> dirs = Files.list(repository)) {
            return dirs.filter(Files::isDirectory).max(Comparator.comparing(p -> p.getFileName().toString()))
                    .orElseThrow(() -> new IllegalStateException("no JFR repository under " + repository
                            + ": did the JVM start with the compiler recording?"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void queue(RecordedEvent e) {
        long size = e.getLong("queueSize");
        if ("c1".equalsIgnoreCase(e.getString("compiler"))) {
            c1Queue = size;
        } else {
            c2Queue = size;
        }
        peakQueue = Math.max(peakQueue, e.getLong("peakQueueSize"));
        seen(e);
    }

    private void seen(RecordedEvent e) {
        if (e.getEndTime().isAfter(lastEvent)) {
            lastEvent = e.getEndTime();
        }
    }

    public Snapshot snapshot() {
        return new Snapshot(lastEvent, c1Queue, c2Queue, peakQueue, compilations, compiledBytes, codeBytes,
                deoptimizations, failed);
    }

    @Override
    public void close() {
        stream.close();
    }
}
