package io.threadlab.api;

import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The CPU-heavy part of a request costs CPU: it is not optimised away, and it is of the order of a millisecond. */
class CpuWorkTest {

    @Test
    void oneRequestsWorkCostsAboutAMillisecondOfCpuOnceWarm() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        for (int i = 0; i < 300; i++) {
            CpuWork.hash(); // warm-up: the SHA-256 intrinsic is used once the loop is compiled
        }
        int runs = 200;
        long start = threads.getCurrentThreadCpuTime();
        for (int i = 0; i < runs; i++) {
            assertEquals(32, CpuWork.hash().length);
        }
        double msPerRequest = (threads.getCurrentThreadCpuTime() - start) / 1e6 / runs;
        // On the lab's machine ~1 ms; the floor catches work the JIT would have removed, the ceiling a CPU
        // without SHA extensions more than a few times slower.
        assertTrue(msPerRequest >= 0.3 && msPerRequest <= 10, "CPU ms per request: " + msPerRequest);
    }
}
