package io.threadlab.api;

import jdk.management.VirtualThreadSchedulerMXBean;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The native call keeps its virtual thread mounted on a carrier for the whole wait, where a blocking JDK call
 * unmounts it. The scheduler's own count of mounted virtual threads tells them apart.
 */
class NativeWaitTest {

    private static final Duration WAIT = Duration.ofMillis(400);

    private final VirtualThreadSchedulerMXBean scheduler =
            ManagementFactory.getPlatformMXBean(VirtualThreadSchedulerMXBean.class);

    interface Wait {
        void run() throws InterruptedException;
    }

    @Test
    void aVirtualThreadInTheNativeCallHoldsItsCarrierForTheWholeWait() throws Exception {
        long[] tookNanos = new long[1];
        int fewestMounted = fewestMountedWhile(() -> {
            long start = System.nanoTime();
            NativeWait.block(WAIT);
            tookNanos[0] = System.nanoTime() - start;
        });
        assertTrue(fewestMounted > 0, "virtual threads mounted, at the fewest, during the native call: " + fewestMounted);
        assertTrue(tookNanos[0] >= WAIT.toNanos(), "the native call took " + tookNanos[0] / 1e6 + " ms");
    }

    @Test
    void aVirtualThreadInABlockingJdkCallLetsItsCarrierGo() throws Exception {
        // The control: Thread.sleep unmounts, so the same measurement does see zero.
        assertEquals(0, fewestMountedWhile(() -> Thread.sleep(WAIT)));
    }

    /** The fewest mounted virtual threads seen in the middle of the wait, sampled every 10 ms. */
    private int fewestMountedWhile(Wait wait) throws InterruptedException {
        Thread waiting = Thread.ofVirtual().start(() -> {
            try {
                wait.run();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        Thread.sleep(WAIT.toMillis() / 4);
        int fewest = Integer.MAX_VALUE;
        long until = System.nanoTime() + WAIT.toNanos() / 2;
        while (System.nanoTime() < until) {
            fewest = Math.min(fewest, scheduler.getMountedVirtualThreadCount());
            Thread.sleep(10);
        }
        waiting.join();
        return fewest;
    }
}
