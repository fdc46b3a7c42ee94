package io.threadlab.experiment.analyse;

import io.threadlab.experiment.analyse.Mistakes.Mistake;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

import static io.threadlab.experiment.analyse.Mistakes.numbers;
import static io.threadlab.experiment.analyse.Mistakes.top;

/**
 * Mistakes that hold a virtual thread's carrier while it waits: pinning (blocking where the virtual thread cannot
 * unmount, in a class initialiser or, before JDK 24, under a monitor), and native calls. Blocking under a monitor on
 * JDK 24 and later is said too, as no mistake: the pattern is there, its cost is gone.
 */
final class VirtualThreadMistakes {

    // ---- Pinning.
    /** A one-off pin happens when a virtual thread initialises a class on its first use; a mistake repeats. */
    static final int MIN_PINS = 10;
    /** Samples under a synchronized method of request code, to say the monitor was held around the call. */
    static final int MIN_SYNCHRONIZED_SAMPLES = 5;

    // ---- Native call on a virtual thread.
    /** A correct virtual thread is never caught in native code (it unmounts to wait): 10 samples of request code in
     *  native code (threads.jfc samples native code every 20 ms), and a tenth of the virtual threads' samples. */
    static final int MIN_NATIVE_SAMPLES = 10;
    static final double NATIVE_SHARE = 0.10;

    private VirtualThreadMistakes() {
    }

    static Optional<Mistake> pinning(RecordingAnalysis a) {
        Durations.Summary pinned = a.virtualThreads().pinned();
        if (pinned.count() < MIN_PINS) {
            return Optional.empty();
        }
        Map<String, Integer> initialisers = a.signals().pinnedInitialisers();
        int inInitialisers = initialisers.values().stream().mapToInt(Integer::intValue).sum();
        boolean classInit = inInitialisers * 2 >= pinned.count();
        String reason = top(a.signals().pinnedReasons());
        String site = classInit ? top(initialisers) + ".<clinit>" : top(a.virtualThreads().pinnedAt());
        // What the recording shows, on the JDK the run says it ran: no claim about a JDK the run did not use.
        String why = classInit ? f("on %s, blocking inside a class initialiser pinned the carrier: %,d of these"
                + " pins had a class initialiser on the stack, which runs under a VM call, a frame the virtual thread"
                + " cannot unmount across", a.measured().jdkName(), inInitialisers)
                : f("on %s, the virtual thread could not unmount while it waited, so its carrier waited with it",
                a.measured().jdkName());
        return Optional.of(new Mistake(classInit ? "pinned-class-init" : "pinned-carrier", true, "virtual",
                "jdk.VirtualThreadPinned", site,
                f("%,d times a virtual thread pinned its carrier while it blocked (p50 %.1f ms, p99 %.1f ms, %.1f s"
                                + " of carrier time), most for \"%s\" (%,d), at %s: %s", pinned.count(), pinned.p50Ms(),
                        pinned.p99Ms(), pinned.totalMs() / 1000, reason, a.signals().pinnedReasons().get(reason), site,
                        why),
                numbers("pinned", pinned.count(), "pinned_ms", pinned.totalMs(), "p50_ms", pinned.p50Ms(),
                        "p99_ms", pinned.p99Ms(), "in_class_initialisers", inInitialisers)));
    }

    /** Blocking under a monitor on a virtual thread: harmless since JDK 24, and said so only when the recording shows
     *  both halves, request code sampled inside a synchronized method and not one pinned event. */
    static Optional<Mistake> synchronizedWithoutPinning(RecordingAnalysis a) {
        GroupStats virtuals = a.group(ThreadKind.VIRTUAL);
        if (virtuals.synchronizedSamples < MIN_SYNCHRONIZED_SAMPLES || a.virtualThreads().pinned().count() > 0) {
            return Optional.empty();
        }
        String site = top(virtuals.synchronizedSites);
        // Why none pinned depends on the JDK the recording ran on, as the run says it: JEP 491 explains it only from
        // JDK 24 on; before, a virtual thread blocking under a monitor pins, so none pinning means none blocked there.
        OptionalInt feature = a.measured().jdkFeature();
        String jdk = a.measured().jdkName();
        String why = feature.isEmpty() ? "from JDK 24 on (JEP 491) a virtual thread that blocks holding a monitor"
                + " unmounts, before JDK 24 it pins, and this recording's run does not say which JDK it ran"
                : feature.getAsInt() >= 24 ? jdk + " unmounts a virtual thread that blocks holding a monitor"
                + " (JEP 491, JDK 24 and later)"
                : jdk + " pins a virtual thread that blocks holding a monitor (before JEP 491, JDK 24): none"
                + " pinning means the code under the monitor did not block";
        return Optional.of(new Mistake("synchronized-virtual-thread", false, "virtual", "jdk.ExecutionSample", site,
                f("virtual threads ran request code inside synchronized %s (%,d execution samples, %,d of them in the"
                                + " REST client, the call made under the monitor) and none pinned its carrier (0"
                                + " jdk.VirtualThreadPinned): %s", site, virtuals.synchronizedSamples,
                        virtuals.synchronizedClientSamples, why),
                numbers("synchronized_samples", virtuals.synchronizedSamples, "in_rest_client",
                        virtuals.synchronizedClientSamples, "pinned", 0)));
    }

    static Optional<Mistake> nativeCallOnVirtualThread(RecordingAnalysis a) {
        GroupStats virtuals = a.group(ThreadKind.VIRTUAL);
        long all = virtuals.nativeSamples + virtuals.executionSamples;
        if (virtuals.nativeLabSamples < MIN_NATIVE_SAMPLES || virtuals.nativeLabSamples < NATIVE_SHARE * all) {
            return Optional.empty();
        }
        String site = top(virtuals.nativeSites);
        String entered = top(virtuals.nativeFrames);
        double share = (double) virtuals.nativeLabSamples / all;
        return Optional.of(new Mistake("native-call-on-virtual-thread", true, "virtual", "jdk.NativeMethodSample",
                site, f("virtual threads were caught inside native code %,d times (jdk.NativeMethodSample, %.0f %% of"
                                + " their samples), entered through %s from %s: a virtual thread cannot unmount inside a"
                                + " native call and the JDK adds no carrier for it, so each call held a carrier for its"
                                + " whole length (carriers idle at least %.0f %% of the window)",
                        virtuals.nativeLabSamples, share * 100, entered, site, a.carrierIdleShare() * 100),
                numbers("native_samples", virtuals.nativeLabSamples, "share_of_virtual_samples", Durations.round(share),
                        "carrier_idle_share", Durations.round(a.carrierIdleShare()))));
    }

    private static String f(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
