package io.threadlab.experiment.record;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The machine's own speed while the lab measures: one fixed piece of work (arithmetic over 32 KB, then scattered reads
 * and writes over 16 MB), done five times a second on a thread of the runner and timed by that thread's CPU clock.
 * That clock leaves out the time the thread waited for a CPU, and on a virtual machine the time the host took
 * (steal), so the work's CPU time moves only when the same instructions run slower: a neighbour on the host's core or
 * its caches, a lower clock. On this lab's 2-core virtual machine it took about 1,100 µs on a quiet machine, and 1.2-1.8
 * times that for minutes at a time, under the lab's load as on a quiet machine (docs/method.md).
 * Read at a window's two edges it gives the window's mean, which the report holds against the run's fastest.
 * It costs about 0.6 % of one CPU, outside every variant's group.
 */
public final class Yardstick implements AutoCloseable {

    /** Between two pieces of work; a 4-second window gets about 20. */
    static final long PERIOD_MILLIS = 200;
    /** Done at once before the first counted piece, so that every counted one runs compiled code. */
    static final int WARM_UP_PIECES = 400;
    /**
     * The machine kept its speed in a window when its pieces took at most this share more CPU than in the run's
     * fastest window (or a calibration's). Pieces in one state of the machine agree within a few per cent; the slower
     * states seen here took 1.2-1.8x, and up to 3.9x for two minutes of one map.
     */
    public static final double SLOWER_SHARE = 0.15;
    /** Fewer pieces than this between two readings give no mean. */
    static final long LEAST_SAMPLES = 3;

    private static final int SMALL_INTS = 8 * 1024;
    private static final int LARGE_INTS = 4 * 1024 * 1024;
    private static final int SCATTERED = 100_000;
    private static final int ROUNDS = 40;

    private final int[] small = new int[SMALL_INTS];
    private final int[] large = new int[LARGE_INTS];
    private final Thread thread;
    /** Written by the yardstick's thread only, read by any: one reading is always a consistent pair. */
    private volatile Reading total = Reading.NONE;
    /** Where each piece's result goes, so that the compiler cannot leave the work out. */
    private volatile long sink;

    /**
     * The pieces done and the CPU they took, since the yardstick started: a window's are the difference between its
     * two edges' readings.
     */
    public record Reading(long samples, long cpuNanos) {

        public static final Reading NONE = new Reading(0, 0);

        public Reading minus(Reading earlier) {
            return new Reading(samples - earlier.samples, cpuNanos - earlier.cpuNanos);
        }

        /** CPU-µs a piece took on average, or null with fewer than {@link #LEAST_SAMPLES} pieces to average. */
        public Double micros() {
            return samples < LEAST_SAMPLES ? null : Math.round(cpuNanos / 1e3 / samples * 10) / 10.0;
        }
    }

    private Yardstick() {
        this.thread = Thread.ofPlatform().daemon().name("lab-yardstick").unstarted(this::run);
    }

    /** What it does and where, for the manifest: it runs beside every window, so a reader of a run sees it. */
    public static Map<String, Object> facts() {
        Map<String, Object> facts = new LinkedHashMap<>();
        facts.put("where", "a thread of the runner, outside every variant's group");
        facts.put("work", String.format(Locale.ROOT, "%d passes of arithmetic over %d KB, then %,d scattered"
                + " reads and writes over %d MB", ROUNDS, SMALL_INTS * 4 / 1024, SCATTERED, LARGE_INTS * 4 / 1024 / 1024));
        facts.put("period_ms", PERIOD_MILLIS);
        facts.put("timed_by", "the thread's CPU clock");
        facts.put("slower_share", SLOWER_SHARE);
        return facts;
    }

    /** Starts timing the machine on a thread of its own, until {@link #close()}. */
    public static Yardstick start() {
        Yardstick yardstick = new Yardstick();
        yardstick.thread.start();
        return yardstick;
    }

    /** What it has timed so far; {@link Reading#NONE} before its first counted piece. */
    public Reading read() {
        return total;
    }

    private void run() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        for (int i = 0; i < WARM_UP_PIECES; i++) {
            sink += piece();
        }
        try {
            while (!Thread.currentThread().isInterrupted()) {
                long before = threads.getCurrentThreadCpuTime();
                sink += piece();
                long took = threads.getCurrentThreadCpuTime() - before;
                total = new Reading(total.samples + 1, total.cpuNanos + took);
                TimeUnit.MILLISECONDS.sleep(PERIOD_MILLIS);
            }
        } catch (InterruptedException e) {
            // closed
        }
    }

    /** The fixed piece of work: the core alone first (32 KB stays in its cache), then its caches and memory. */
    private long piece() {
        long s = 0;
        for (int round = 0; round < ROUNDS; round++) {
            for (int i = 0; i < small.length; i++) {
                s += small[i] * 31L + i;
                small[i] = (int) s;
            }
        }
        for (int i = 0, j = 0; i < SCATTERED; i++) {
            j = (j + 4099 * 16) & (large.length - 1);
            s += large[j];
            large[j] = (int) s;
        }
        return s;
    }

    @Override
    public void close() {
        thread.interrupt();
        try {
            thread.join(TimeUnit.SECONDS.toMillis(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
