package io.threadlab.api;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandles;
import java.util.function.Supplier;

/**
 * A blocking call inside a class initialiser, where a virtual thread still pins its carrier on JDK 25: the
 * initialiser runs under a VM call, a native frame the virtual thread cannot unmount across.
 * <p>
 * In a real application this trap is met once per class (a static block that fetches configuration over HTTP, a
 * driver that connects while it loads), and pins a carrier for that one call. Defining and initialising a fresh hidden
 * class for every request is an exaggeration that makes that real, once-per-class cost measurable under load. The
 * hidden classes are not kept: each becomes unreachable after its request, and the GC unloads it.
 */
final class ClassInitCall {

    private static final byte[] TEMPLATE = templateBytes();
    private static final ThreadLocal<Runnable> CURRENT = new ThreadLocal<>();

    private ClassInitCall() {
    }

    /** Runs {@code downstream} inside the static initialiser of a new hidden class, and returns its result. */
    static DelayReply call(Supplier<DelayReply> downstream) {
        DelayReply[] reply = new DelayReply[1];
        CURRENT.set(() -> reply[0] = downstream.get());
        try {
            MethodHandles.lookup().defineHiddenClass(TEMPLATE, true);
            return reply[0];
        } catch (ExceptionInInitializerError e) {
            // The downstream's failure (502, 504) reaches the caller as itself, not as a failed class.
            if (e.getCause() instanceof RuntimeException failure) {
                throw failure;
            }
            throw e;
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("the template is in this class's package", e);
        } finally {
            CURRENT.remove();
        }
    }

    /** Called by {@link BlockingClassInit}'s static initialiser, on the requesting thread. */
    static void runCurrent() {
        CURRENT.get().run();
    }

    private static byte[] templateBytes() {
        try (InputStream bytes = ClassInitCall.class.getResourceAsStream("BlockingClassInit.class")) {
            if (bytes == null) {
                throw new IllegalStateException("BlockingClassInit.class is not on the class path");
            }
            return bytes.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
