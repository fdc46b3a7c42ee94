package io.threadlab.experiment.analyse;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The known chains, recognised from frames as JFR resolves them (inlined frames included), leaf first. */
class KnownChainsTest {

    private static final String JCTOOLS = "io.netty.util.internal.shaded.org.jctools.queues.";

    /** The recycler's MPSC offer, as the stall's samples had it: the producer's retry loop at line 258. */
    static final List<String> RECYCLER_OFFER = List.of(
            JCTOOLS + "BaseMpscLinkedArrayQueue.offer:258",
            JCTOOLS + "MpscChunkedArrayQueue.relaxedOffer:120",
            "io.netty.util.Recycler$LocalPool.release:390",
            "io.netty.util.Recycler$DefaultHandle.unguardedRecycle:310",
            "io.netty.buffer.PoolThreadCache$MemoryRegionCache$Entry.unguardedRecycle:480",
            "io.netty.buffer.PoolThreadCache$MemoryRegionCache.allocate:420",
            "io.netty.buffer.PoolArena.tcacheAllocateSmall:160",
            "io.netty.buffer.PoolArena.allocate:130",
            "io.netty.buffer.PooledByteBufAllocator.newDirectBuffer:400",
            "org.jboss.resteasy.plugins.server.vertx.VertxOutputStream.write:100");

    /** The pinned-memory counter, from the same allocation. */
    static final List<String> PINNED_COUNTER = List.of(
            "java.util.concurrent.atomic.Striped64.longAccumulate:350",
            "java.util.concurrent.atomic.LongAdder.add:130",
            "io.netty.buffer.PoolChunk.incrementPinnedMemory:600",
            "io.netty.buffer.PooledByteBuf.init0:70",
            "io.netty.buffer.PooledByteBuf.init:55",
            "io.netty.buffer.PoolChunk.initBuf:550",
            "io.netty.buffer.PoolArena.tcacheAllocateSmall:170");

    @Test
    void workersSpinningInTheRecyclerOrItsCounterAreTheChain() {
        assertThat(KnownChains.of(new StackSample(ThreadKind.WORKER, RECYCLER_OFFER)))
                .contains(KnownChains.RECYCLER_SPIN);
        assertThat(KnownChains.of(new StackSample(ThreadKind.WORKER, PINNED_COUNTER)))
                .contains(KnownChains.RECYCLER_SPIN);
        List<String> throughUnsafe = new ArrayList<>(List.of("jdk.internal.misc.Unsafe.compareAndSetLong:-1",
                "io.netty.util.internal.shaded.org.jctools.util.UnsafeAccess.casLong:40"));
        throughUnsafe.addAll(RECYCLER_OFFER);
        assertThat(KnownChains.of(new StackSample(ThreadKind.WORKER, throughUnsafe))).isPresent();
    }

    @Test
    void theSameFramesElsewhereOrWithoutTheSpinAreNot() {
        // the name says worker threads: on the event loops it would be another story
        assertThat(KnownChains.of(new StackSample(ThreadKind.EVENT_LOOP, RECYCLER_OFFER))).isEmpty();
        // allocating is not spinning
        assertThat(KnownChains.of(new StackSample(ThreadKind.WORKER,
                RECYCLER_OFFER.subList(6, RECYCLER_OFFER.size())))).isEmpty();
        // an MPSC offer outside the allocator: the event loop's task queue
        assertThat(KnownChains.of(new StackSample(ThreadKind.WORKER, List.of(JCTOOLS + "BaseMpscLinkedArrayQueue.offer:258",
                "io.netty.util.concurrent.SingleThreadEventExecutor.execute:800")))).isEmpty();
        // request code above the allocator: its CPU, not the recycler's
        List<String> requestCode = new ArrayList<>(List.of("io.threadlab.api.Hash.digest:12"));
        requestCode.addAll(RECYCLER_OFFER);
        assertThat(KnownChains.of(new StackSample(ThreadKind.WORKER, requestCode))).isEmpty();
        assertThat(KnownChains.of(new StackSample(ThreadKind.WORKER, List.of()))).isEmpty();
    }

    @Test
    void aStallIsNamedByAChainThatMostOfItsSamplesShow() {
        StallChains.Tally named = tally(14, RECYCLER_OFFER, 6, List.of("io.vertx.core.net.impl.ConnectionBase.write:1"));
        assertThat(named.chain()).contains(KnownChains.RECYCLER_SPIN);

        StallChains.Tally few = tally(9, RECYCLER_OFFER, 0, List.of());
        assertThat(few.chain()).as("fewer than " + StallChains.MIN_SAMPLES + " samples").isEmpty();

        StallChains.Tally minority = tally(4, RECYCLER_OFFER, 16, List.of("io.threadlab.api.Work.spin:7",
                "java.lang.Thread.run:1"));
        assertThat(minority.chain()).isEmpty();
        RecordedStall stall = minority.result(new Stalls.Stall(3, 2, 12.5, 2000),
                StallChains.interval(java.time.Instant.parse("2026-11-23T14:00:00Z"), new Stalls.Stall(3, 2, 12.5, 2000)));
        assertThat(stall.chain()).isNull();
        assertThat(stall.samples()).isEqualTo(20);
        assertThat(stall.samplesByGroup()).containsExactly(java.util.Map.entry("worker", 20L));
        assertThat(stall.topFrames().getFirst()).isEqualTo(new RecordedStall.Frame("worker",
                "io.threadlab.api.Work.spin:7", "io.threadlab.api.Work.spin:7", 16));
        assertThat(stall.topFrames().get(1).leaf()).isEqualTo(JCTOOLS + "BaseMpscLinkedArrayQueue.offer:258");
        assertThat(stall.from()).isEqualTo("2026-11-23T14:00:03Z");
        assertThat(stall.to()).isEqualTo("2026-11-23T14:00:05Z");
    }

    /**
     * heldout-20's recorded stall kept 3 execution samples in its 3 seconds (JFR's sampler waits for the quota the
     * spinning workers use), both worker samples in the recycler's spin: too few to name it, and said so.
     */
    @Test
    void tooFewSamplesNameNoChainButSayWhichMostOfThemShow() {
        Stalls.Stall seconds = new Stalls.Stall(3, 3, 53.7, 1757);
        java.time.Instant measured = java.time.Instant.parse("2026-12-05T04:24:24Z");
        RecordedStall few = tally(2, RECYCLER_OFFER, 1, List.of("java.net.Inet4Address.numericToTextFormat:570"))
                .result(seconds, StallChains.interval(measured, seconds));
        assertThat(few.chain()).isNull();
        assertThat(few.fewSamplesChain()).isEqualTo(KnownChains.RECYCLER_SPIN.name());
        assertThat(few.chainSamples()).isEqualTo(2);
        assertThat(few.why()).startsWith("too few to name a chain (at least " + StallChains.MIN_SAMPLES + "), 2 of them"
                + " in " + KnownChains.RECYCLER_SPIN.name() + "; top frames " + JCTOOLS)
                .contains("numericToTextFormat");

        RecordedStall minority = tally(1, RECYCLER_OFFER, 2, List.of("java.net.Inet4Address.numericToTextFormat:570"))
                .result(seconds, StallChains.interval(measured, seconds));
        assertThat(minority.fewSamplesChain()).as("one of three is not most of them").isNull();
        assertThat(minority.chainSamples()).isZero();
        assertThat(minority.why()).startsWith("no known chain: top frames ");

        RecordedStall named = tally(14, RECYCLER_OFFER, 6, List.of("io.vertx.core.net.impl.ConnectionBase.write:1"))
                .result(seconds, StallChains.interval(measured, seconds));
        assertThat(named.chain()).isEqualTo(KnownChains.RECYCLER_SPIN.name());
        assertThat(named.fewSamplesChain()).as("named, so not also suggested").isNull();
        assertThat(named.chainSamples()).isEqualTo(14);
    }

    @Test
    void theFirstFrameOutsideTheJdkIsTheSite() {
        assertThat(new StackSample(ThreadKind.WORKER, PINNED_COUNTER).site())
                .isEqualTo("io.netty.buffer.PoolChunk.incrementPinnedMemory:600");
        assertThat(new StackSample(ThreadKind.WORKER, List.of("java.lang.Thread.sleep:1")).site())
                .isEqualTo("(JDK frames only)");
    }

    private static StallChains.Tally tally(int inChain, List<String> chain, int others, List<String> other) {
        StallChains.Tally tally = new StallChains.Tally();
        for (int i = 0; i < inChain; i++) {
            tally.add(new StackSample(ThreadKind.WORKER, chain));
        }
        for (int i = 0; i < others; i++) {
            tally.add(new StackSample(ThreadKind.WORKER, other));
        }
        return tally;
    }
}
