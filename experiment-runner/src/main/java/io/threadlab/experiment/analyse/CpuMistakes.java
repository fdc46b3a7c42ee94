package io.threadlab.experiment.analyse;

import io.threadlab.experiment.analyse.Mistakes.Mistake;

import java.util.Locale;
import java.util.Optional;

import static io.threadlab.experiment.analyse.Mistakes.numbers;
import static io.threadlab.experiment.analyse.Mistakes.top;

/**
 * CPU-heavy request code where it costs other requests their turn: on an event loop, which serves none of its other
 * connections while it computes, or on a virtual thread, which keeps its carrier until it blocks. On worker threads,
 * time-sliced by the OS, the same code is the reference the verdicts compare with ({@link #heavyRequestCpu}).
 */
final class CpuMistakes {

    /** Request code's own work is at least half of the group's samples: the framework's share (HTTP, JSON, client)
     *  is the larger one in every correct variant, where request code's own CPU is near zero. */
    static final double LAB_SHARE = 0.5;
    /** ... and it costs at least 0.3 ms of CPU per downstream call: a millisecond of hashing is heavy, a JSON
     *  mapping or a few branches are microseconds. The two together separate heavy request code from light. */
    static final double LAB_MS_PER_CALL = 0.3;
    static final int MIN_CPU_SAMPLES = 20;

    private CpuMistakes() {
    }

    /**
     * Request code's own CPU on one thread group: its share of the group's samples, its CPU per downstream call, and
     * where it was spent most.
     */
    record RequestCpu(long samples, double share, double msPerCall, String site) {
    }

    /**
     * Request code's own CPU on a group, when it is heavy (see {@link #LAB_SHARE} and {@link #LAB_MS_PER_CALL}). Its
     * CPU is the Java threads' CPU (jdk.ThreadCPULoad) shared out by execution samples, as the layers are; per call
     * of the delay service, which the lab makes once a request (N times in a fan-out window).
     */
    static Optional<RequestCpu> heavyRequestCpu(RecordingAnalysis a, ThreadKind kind) {
        GroupStats g = a.group(kind);
        if (g.executionSamples < MIN_CPU_SAMPLES || g.labShare() < LAB_SHARE || a.totalSamples() == 0
                || a.cpu().javaCpuSeconds() <= 0) {
            return Optional.empty();
        }
        double javaCpuShare = (double) g.labSamples / a.totalSamples(); // of the Java threads' CPU
        double msPerCall;
        if (a.measured().cpuMsPerRequest() != null) {
            // The runner measured the window's CPU per request: no count of calls needed, and none may be recorded
            // (an event loop's calls leave no event of 1 ms or more). A fan-out request makes N calls: its CPU is N
            // calls'.
            msPerCall = javaCpuShare * a.cpu().javaCpuSeconds() / a.cpu().processCpuSeconds()
                    * a.measured().cpuMsPerRequest() / a.measured().fanOut().calls();

        } else if (a.signals().downstreamCalls() > 0) {
            msPerCall = javaCpuShare * a.cpu().javaCpuSeconds() * 1000 / a.signals().downstreamCalls();
        } else {
            return Optional.empty();
        }
        if (msPerCall < LAB_MS_PER_CALL) {
            return Optional.empty();
        }
        return Optional.of(new RequestCpu(g.labSamples, g.labShare(), msPerCall, top(g.labSites)));
    }

    static Optional<Mistake> onEventLoop(RecordingAnalysis a) {
        return cpuOn(a, ThreadKind.EVENT_LOOP, "cpu-on-event-loop", "while it computes, the event loop serves none of"
                + " its other connections");
    }

    static Optional<Mistake> onVirtualThreads(RecordingAnalysis a) {
        return cpuOn(a, ThreadKind.VIRTUAL, "cpu-on-virtual-thread", f("the scheduler does not time-slice virtual"
                + " threads: one that computes keeps its carrier until it blocks, and the others queue (carriers idle"
                + " at least %.0f %% of the window)", a.carrierIdleShare() * 100));
    }

    private static Optional<Mistake> cpuOn(RecordingAnalysis a, ThreadKind kind, String name, String why) {
        return heavyRequestCpu(a, kind).map(cpu -> new Mistake(name, true, kind.name().toLowerCase(Locale.ROOT),
                "jdk.ExecutionSample", cpu.site(),
                f("request code's own CPU ran on the %s: %.0f %% of their execution samples (%,d), about %.2f ms per"
                                + " downstream call, most at %s; %s", kind.label(), cpu.share() * 100, cpu.samples(),
                        cpu.msPerCall(), cpu.site(), why),
                numbers("samples", cpu.samples(), "share_of_group_samples", Durations.round(cpu.share()),
                        "cpu_ms_per_call", Durations.round(cpu.msPerCall()), "carrier_idle_share",
                        Durations.round(a.carrierIdleShare()))));
    }

    private static String f(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
