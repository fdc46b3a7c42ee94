package io.threadlab.api;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.time.Duration;

/**
 * A native call that blocks its thread: libc's {@code usleep}, called through the FFM API, standing for a JNI or FFM
 * library that waits inside native code (a driver, a device, a native SDK). A virtual thread cannot unmount while a
 * native frame is on its stack, and the JDK does not compensate for a blocked downcall with an extra carrier (it does
 * for file I/O, {@code InetAddress} lookups and {@code Process} waits; {@code Object.wait} unmounts on JDK 25): the
 * carrier is held for the whole call.
 */
final class NativeWait {

    private static final MethodHandle USLEEP = Linker.nativeLinker().downcallHandle(
            Linker.nativeLinker().defaultLookup().find("usleep")
                    .orElseThrow(() -> new IllegalStateException("no usleep in the C library")),
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));

    private NativeWait() {
    }

    /** Blocks the calling thread in native code for {@code time}. */
    static void block(Duration time) {
        long deadline = System.nanoTime() + time.toNanos();
        // usleep returns early when a signal interrupts it (EINTR): the rest is slept again, so the whole time is held.
        for (long left = time.toNanos(); left > 0; left = deadline - System.nanoTime()) {
            try {
                int ignored = (int) USLEEP.invokeExact((int) Math.max(1, left / 1000));
            } catch (Throwable e) {
                throw new IllegalStateException("usleep failed", e);
            }
        }
    }
}
