package io.threadlab.experiment.analyse;

import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Call chains the lab has found behind a stall, each recognised by the frames of an execution sample. What the
 * analysis knows, with the evidence it rests on, so that a stall in a recording is named by what it is, not only by
 * its top frames.
 */
final class KnownChains {

    /** A chain: its name (a reason a reader can act on), the thread group it runs on, and its frames. */
    record Chain(String name, ThreadKind group, Predicate<List<String>> frames) {

        boolean matches(StackSample sample) {
            return sample.group() == group && frames.test(sample.frames());
        }
    }

    /**
     * The imperative variant (classic RESTEasy on Vert.x, 200 worker threads, a 0.5 CPU quota) collapses for seconds
     * to tens of seconds (per second 2807, 45, 45, 20, 17, ..., 1, 41, 15, 4, 5, 2092) while using its whole quota.
     * perf: 93 % of the JVM's samples in the stall on executor threads, in compiled
     * {@code io.netty.buffer.PoolArena.tcacheAllocateSmall}; JFR resolves its inlined frames: JCTools'
     * {@code BaseMpscLinkedArrayQueue.offer} (line 258, the producer's retry loop) from
     * {@code MpscChunkedArrayQueue.relaxedOffer} from {@code Recycler$LocalPool.release}, from
     * {@code PoolThreadCache$MemoryRegionCache.allocate}; and {@code LongAdder.add} from
     * {@code PoolChunk.incrementPinnedMemory} from {@code PooledByteBuf.init0}. JCTools' MPSC producers spin without
     * parking: under a CPU quota, a producer descheduled while it resizes the chunked queue leaves 200 runnable
     * workers spinning, and the event loops get almost no CPU. With {@code -Dio.netty.recycler.blocking=true} (a
     * synchronized queue) it did not happen in 300 s.
     * <p>
     * A sample is in the chain when, from its leaf, it is spinning (JCTools' MPSC queue, or the JDK's striped
     * counters, with Unsafe below them) inside Netty's pooled-buffer allocator or recycler.
     */
    static final Chain RECYCLER_SPIN = new Chain("worker threads spinning in Netty's pooled-buffer recycler (JCTools"
            + " MPSC offer), starving the event loops under the CPU quota", ThreadKind.WORKER, KnownChains::spinsInTheAllocator);

    static final List<Chain> ALL = List.of(RECYCLER_SPIN);

    private static final List<String> SPIN = List.of("io.netty.util.internal.shaded.org.jctools.queues.",
            "java.util.concurrent.atomic.LongAdder.", "java.util.concurrent.atomic.Striped64.");
    /** What a spin calls: JCTools' Unsafe access, the JDK's Unsafe and VarHandles (inlined, but in the stack). */
    private static final List<String> UNDER_THE_SPIN = List.of("io.netty.util.internal.shaded.org.jctools.",
            "jdk.internal.misc.Unsafe.", "sun.misc.Unsafe.", "java.lang.invoke.");
    private static final List<String> ALLOCATOR = List.of("io.netty.buffer.Pool", "io.netty.util.Recycler");

    private KnownChains() {
    }

    /** The known chain a sample is in. */
    static Optional<Chain> of(StackSample sample) {
        return ALL.stream().filter(c -> c.matches(sample)).findFirst();
    }

    private static boolean spinsInTheAllocator(List<String> frames) {
        boolean spinning = false;
        for (String frame : frames) {
            if (startsWithAny(frame, SPIN)) {
                spinning = true;
            } else if (startsWithAny(frame, ALLOCATOR)) {
                return spinning;
            } else if (!startsWithAny(frame, UNDER_THE_SPIN)) {
                return false;
            }
        }
        return false;
    }

    private static boolean startsWithAny(String frame, List<String> prefixes) {
        return prefixes.stream().anyMatch(frame::startsWith);
    }
}
