package io.threadlab.api;

import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Workloads whose waiting and CPU are known by construction, for recording at test time: threads named like the
 * worker pool contending for a monitor and a lock of a distinctively named class, and a thread spending equal
 * slices of time in lab code and in Jackson.
 */
public final class KnownCostWorkloads {

    private KnownCostWorkloads() {
    }

    /** What the threads contend for: its monitor (synchronized) and its lock (parks). */
    public static final class ContendedLedger {
        private final ReentrantLock settlement = new ReentrantLock();
        private long entries;

        /** Holds the ledger's monitor for {@code holdMs}: any other thread that wants it meanwhile waits to enter. */
        synchronized void appendEntry(long holdMs) throws InterruptedException {
            entries++;
            Thread.sleep(holdMs);
        }

        /** Holds the settlement lock for {@code holdMs}: any other thread that wants it meanwhile parks. */
        void settle(long holdMs) throws InterruptedException {
            settlement.lock();
            try {
                Thread.sleep(holdMs);
            } finally {
                settlement.unlock();
            }
        }

        synchronized long entries() {
            return entries;
        }
    }

    /**
     * {@code threads} threads named executor-thread-N, each {@code rounds} times appending to one ledger, then as
     * many settling it, each holding the ledger for {@code holdMs}. Apart, so that each queue is as long as the other.
     * Returns the entries made, which is threads x rounds.
     */
    public static long contend(int threads, int rounds, long holdMs) throws InterruptedException {
        ContendedLedger ledger = new ContendedLedger();
        onWorkers(threads, () -> {
            for (int r = 0; r < rounds; r++) {
                ledger.appendEntry(holdMs);
            }
        });
        onWorkers(threads, () -> {
            for (int r = 0; r < rounds; r++) {
                ledger.settle(holdMs);
            }
        });
        return ledger.entries();
    }

    private interface Work {
        void run() throws InterruptedException;
    }

    private static void onWorkers(int threads, Work work) throws InterruptedException {
        List<Thread> workers = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            workers.add(Thread.ofPlatform().name("executor-thread-" + (i + 1)).start(() -> {
                try {
                    work.run();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
        }
        for (Thread worker : workers) {
            worker.join();
        }
    }

    /**
     * On one thread, alternately {@code sliceMs} in a busy loop of lab code and {@code sliceMs} serialising a
     * sizeable object with Jackson, for {@code duration}: half the thread's CPU in each layer.
     */
    public static void labCodeAndJson(Duration duration, long sliceMs) throws InterruptedException {
        Thread worker = Thread.ofPlatform().name("executor-thread-1").start(() -> {
            ObjectMapper mapper = new ObjectMapper();
            Map<String, Object> document = sizeableDocument();
            long end = System.nanoTime() + duration.toNanos();
            long slice = Duration.ofMillis(sliceMs).toNanos();
            while (System.nanoTime() < end) {
                spin(slice);
                serialise(mapper, document, slice);
            }
        });
        worker.join();
    }

    private static long sink;

    private static void spin(long nanos) {
        long until = System.nanoTime() + nanos;
        long x = 0;
        while (System.nanoTime() < until) {
            for (int i = 0; i < 1_000; i++) {
                x += Long.rotateLeft(x ^ i, 7);
            }
        }
        sink += x;
    }

    private static void serialise(ObjectMapper mapper, Object document, long nanos) {
        long until = System.nanoTime() + nanos;
        try {
            while (System.nanoTime() < until) {
                sink += mapper.writeValueAsBytes(document).length;
            }
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Map<String, Object> sizeableDocument() {
        Map<String, Object> document = new LinkedHashMap<>();
        for (int i = 0; i < 200; i++) {
            document.put("entry-" + i, Map.of("id", i, "name", "entry number " + i, "amount", i * 1.25,
                    "tags", List.of("alpha", "beta", "gamma")));
        }
        return document;
    }
}
