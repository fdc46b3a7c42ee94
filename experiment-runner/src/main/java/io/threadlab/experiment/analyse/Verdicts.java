package io.threadlab.experiment.analyse;

import io.threadlab.experiment.plan.Variant;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What a recording says, in sentences built from its own numbers, never hard-coded; loudly, where the numbers
 * contradict the variant's expected signature for the window's downstream (a worker thread used by the reactive
 * variant, pinning in the virtual-thread variant, ...: the delay service's here, the database's in
 * {@link DatabaseVerdicts}); and the common mistakes the recording shows, each with its evidence, whatever the
 * recording is called. The signatures rest on what a recording with socket events from 1 ms holds: waits of 1 ms or
 * more, execution samples, virtual threads' starts and pins. The event loops' socket reads take microseconds, so
 * they are counted only where every socket event was recorded.
 */
public record Verdicts(List<String> findings, List<String> unexpected, List<Mistakes.Mistake> mistakes) {

    public static Verdicts of(RecordingAnalysis a) {
        List<String> findings = new ArrayList<>();
        List<String> unexpected = new ArrayList<>();
        List<Mistakes.Mistake> mistakes = MistakeRules.of(a);
        for (Mistakes.Mistake m : mistakes) {
            findings.add((m.harmful() ? "MISTAKE " : "not a mistake on this JDK: ") + m.name() + ": " + m.evidence());
        }
        Optional<Variant> judged = a.judgedAs();
        if (judged.isEmpty()) {
            unexpected.add("could not tell which variant this is: no request code was sampled");
        } else if (a.downstream().database()) {
            DatabaseVerdicts.judge(a, judged.get(), findings, unexpected);
        } else {
            Variant v = judged.get();
            switch (v.threads()) {
                case WORKER -> {
                    if (v.stack() == Variant.Stack.CLASSIC) {
                        blockingWorkers(a, v, findings, unexpected);
                    } else {
                        imperativeRest(a, v, findings, unexpected);
                    }
                }
                case EVENT_LOOP -> eventLoops(a, v, findings, unexpected);
                case VIRTUAL -> virtualThreads(a, findings, unexpected);
            }
        }
        judged.filter(v -> a.measured().fanOut().calls() > 1 && !a.downstream().database())
                .ifPresent(v -> findings.add(fanOut(a, v)));
        a.measured().stalls().stream().map(Verdicts::stall).forEach(findings::add);
        if (a.throttling() != null && a.throttling().periods() > 0) {
            findings.add(f("CPU quota throttled the JVM in %d of %d periods (%.1f s of runnable time held back, summed"
                            + " over CPUs)", a.throttling().throttledPeriods(), a.throttling().periods(),
                    a.throttling().throttledMs() / 1000));
        }
        findings.add(f("GC paused for %.1f ms in total", a.gcPauseMs()));
        findings.add(contention(a.waitedAt().monitorEnterSites()));
        if (!a.waitedAt().parkSites().isEmpty()) {
            WaitSites.Site top = a.waitedAt().parkSites().getFirst();
            findings.add(f("most parking: %,d parks on %s at %s (%s), %.1f s in total, longest %.1f ms",
                    top.count(), top.on(), top.site(), top.groupLabel(), top.totalMs() / 1000, top.maxMs()));
        }
        cpuLayers(a).ifPresent(findings::add);
        // The reference of the CPU mistakes: heavy request code where it belongs, on time-sliced platform threads.
        CpuMistakes.heavyRequestCpu(a, ThreadKind.WORKER).ifPresent(cpu -> findings.add(f("request code's own CPU"
                        + " ran on worker threads: %.0f %% of their execution samples (%,d), about %.2f ms per"
                        + " downstream call, most at %s; platform threads are time-sliced by the OS (the reference for"
                        + " CPU-heavy requests)", cpu.share() * 100, cpu.samples(),
                cpu.msPerCall(), cpu.site())));
        return new Verdicts(List.copyOf(findings), List.copyOf(unexpected), mistakes);
    }

    /** Worker threads on the classic stack: each blocks in its socket read for the downstream reply. */
    private static void blockingWorkers(RecordingAnalysis a, Variant v, List<String> findings,
                                        List<String> unexpected) {
        GroupStats workers = a.group(ThreadKind.WORKER);
        GroupStats loops = a.group(ThreadKind.EVENT_LOOP);
        GroupStats virtuals = a.group(ThreadKind.VIRTUAL);
        findings.add(f("downstream waits happen on %d executor threads: %,d socket reads from the delay"
                        + " service, p50 %.1f ms, p99 %.1f ms (%.1f thread-seconds of waiting in %.1f s)",
                workers.delayService().readers.size(), workers.delayService().reads.count(),
                workers.delayService().reads.summary().p50Ms(), workers.delayService().reads.summary().p99Ms(),
                workers.delayService().reads.totalMs() / 1000, a.seconds()));
        if (workers.delayService().reads.count() == 0) {
            unexpected.add(f("no executor thread read from the delay service: the %s variant should block its worker"
                    + " threads on the downstream call", v.label()));
        }
        if (virtuals.requestSamples > 0 || loops.requestSamples > workers.requestSamples) {
            unexpected.add(f("request code ran on %d event-loop and %d virtual-thread samples against %d on"
                    + " workers", loops.requestSamples, virtuals.requestSamples, workers.requestSamples));
        }
    }

    /** Request code on the event loops: nothing waits for the downstream, the reply is an event. */
    private static void eventLoops(RecordingAnalysis a, Variant v, List<String> findings, List<String> unexpected) {
        GroupStats workers = a.group(ThreadKind.WORKER);
        GroupStats loops = a.group(ThreadKind.EVENT_LOOP);
        GroupStats virtuals = a.group(ThreadKind.VIRTUAL);
        findings.add(a.everySocketEvent() ? f("event loops did the socket I/O: %,d reads from the delay"
                        + " service on %d event-loop threads, p50 %.2f ms, p99 %.2f ms",
                loops.delayService().reads.count(), loops.delayService().readers.size(),
                loops.delayService().reads.summary().p50Ms(), loops.delayService().reads.summary().p99Ms())
                : f("event loops did the work: %,d execution samples on %d event-loop threads, %,d of them in"
                        + " the Vert.x/Netty and REST-client layers and %,d in request code (the recording has only"
                        + " the socket reads %s: %,d of theirs from the delay service)",
                loops.executionSamples, loops.threads.size(),
                loops.layerSamples(Layer.VERTX_NETTY, Layer.REST_CLIENT), loops.requestSamples, a.recordedReads(),
                loops.delayService().reads.count()));
        WaitSites.Site futureParks = a.waitedAt().workerFutureParks();
        findings.add(f("no thread waited for %s: %d request-code samples on worker threads, %d socket"
                        + " reads from the delay service on workers, %d worker parks on a future",
                a.measured().theDelay(), workers.requestSamples, workers.delayService().reads.count(),
                futureParks.count()));
        if (workers.requestSamples > 0 || workers.delayService().reads.count() > 0 || futureParks.count() > 0) {
            unexpected.add(f("worker threads were used by the %s variant: %d request-code samples,"
                            + " %d downstream reads, %d parks on a future", v.label(), workers.requestSamples,
                    workers.delayService().reads.count(), futureParks.count()));
        }
        if (!virtuals.threads.isEmpty()) {
            unexpected.add(f("%d virtual threads ran in the %s variant", virtuals.threads.size(), v.label()));
        }
    }

    /** Request code on virtual threads: each waits unmounted, its carrier free for another. */
    private static void virtualThreads(RecordingAnalysis a, List<String> findings, List<String> unexpected) {
        GroupStats workers = a.group(ThreadKind.WORKER);
        GroupStats loops = a.group(ThreadKind.EVENT_LOOP);
        GroupStats virtuals = a.group(ThreadKind.VIRTUAL);
        VirtualThreadStats started = a.virtualThreads();
        findings.add(f("%,d virtual threads started, %d pinned; each lived p50 %.1f ms, p99 %.1f ms (%,d"
                        + " ended), its request's downstream wait included; carriers idle at least %.0f %% of"
                        + " the window", started.started(),
                started.pinned().count(), virtuals.lifetimes.summary().p50Ms(), virtuals.lifetimes.summary().p99Ms(),
                virtuals.lifetimes.count(), a.carrierIdleShare() * 100));
        findings.add(a.everySocketEvent() ? f("socket I/O stayed on the event loops: %,d reads from the delay"
                        + " service there, %,d on virtual threads", loops.delayService().reads.count(),
                virtuals.delayService().reads.count())
                : f("virtual threads blocked in %,d socket reads from the delay service %s, the event loops in"
                        + " %,d (shorter reads are not in the recording)",
                virtuals.delayService().reads.count(), a.recordedReads(), loops.delayService().reads.count()));
        if (started.pinned().count() > 0) {
            unexpected.add(started.pinnedCarriers());
        }
        if (started.submitFailed() > 0) {
            unexpected.add(f("%d virtual threads could not be scheduled (VirtualThreadSubmitFailed)",
                    started.submitFailed()));
        }
        if (workers.requestSamples > 0) {
            unexpected.add(f("request code ran on worker threads (%d samples), not on virtual threads",
                    workers.requestSamples));
        }
        if (virtuals.requestSamples == 0 && started.started() == 0) {
            unexpected.add("no virtual thread was seen: was the recording made with jfr/threads.jfc?");
        }
    }

    /**
     * The control: the imperative code on the reactive stack. Request code on executor threads, which park on a
     * future while the Vert.x-based client's event loops do the socket I/O (in reads too short to be recorded, unless
     * every socket event was).
     */
    private static void imperativeRest(RecordingAnalysis a, Variant v, List<String> findings,
                                       List<String> unexpected) {
        GroupStats workers = a.group(ThreadKind.WORKER);
        GroupStats loops = a.group(ThreadKind.EVENT_LOOP);
        GroupStats virtuals = a.group(ThreadKind.VIRTUAL);
        WaitSites.Site waits = a.waitedAt().workerFutureParks();
        findings.add(a.everySocketEvent() ? f("request code ran on executor threads (%d samples); the event loops"
                        + " read the delay service's replies for them: %,d reads on %d event-loop threads, %,d on"
                        + " workers", workers.requestSamples, loops.delayService().reads.count(),
                loops.delayService().readers.size(), workers.delayService().reads.count())
                : f("request code ran on executor threads (%d samples), which blocked in %,d socket reads from the"
                        + " delay service %s, the event loops in %,d (shorter reads are not in the recording)",
                workers.requestSamples, workers.delayService().reads.count(), a.recordedReads(),
                loops.delayService().reads.count()));
        findings.add(f("workers parked %,d times waiting for the client's reply (%.1f thread-seconds in %.1f s,"
                        + " longest %.1f ms), mostly on %s at %s", waits.count(), waits.totalMs() / 1000,
                a.seconds(), waits.maxMs(), waits.on(), waits.site()));
        if (workers.delayService().reads.count() > 0) {
            unexpected.add(f("%,d socket reads from the delay service on worker threads: the Vert.x-based client"
                    + " should read on the event loops", workers.delayService().reads.count()));
        }
        if (a.everySocketEvent() && loops.delayService().reads.count() == 0) {
            unexpected.add("no event loop read from the delay service: the Quarkus REST client does its socket I/O"
                    + " there");
        }
        if (waits.count() == 0) {
            unexpected.add("no worker thread parked on a future: a blocking client signature should park the"
                    + " worker until the event loop brings the reply");
        }
        if (virtuals.requestSamples > 0 || loops.requestSamples > workers.requestSamples) {
            unexpected.add(f("request code ran on %d event-loop and %d virtual-thread samples against %d on"
                    + " workers", loops.requestSamples, virtuals.requestSamples, workers.requestSamples));
        }
        if (a.virtualThreads().started() > 0) {
            unexpected.add(f("%,d virtual threads started in the %s variant", a.virtualThreads().started(), v.label()));
        }
    }

    /**
     * What a fan-out window's threads did for its N calls, as the variant's signature expects them: N socket reads
     * per request and, in parallel, workers waiting on workers (the request's on a future its calls' workers
     * complete), a virtual thread per call beside the request's (1 + N started per request), or the event loop
     * combining N replies into one response. Expected, so never UNEXPECTED; the counts are the recording's.
     */
    private static String fanOut(RecordingAnalysis a, Variant v) {
        WindowFanOut calls = a.measured().fanOut();
        GroupStats workers = a.group(ThreadKind.WORKER);
        GroupStats loops = a.group(ThreadKind.EVENT_LOOP);
        String shape = switch (v.threads()) {
            case WORKER -> calls.parallel()
                    ? f("workers waited on workers: each request's worker parked on its calls' futures while %d more"
                    + " workers of the same pool made the calls (%,d parks on a future, %.1f thread-seconds)",
                    calls.calls(), a.waitedAt().workerFutureParks().count(),
                    a.waitedAt().workerFutureParks().totalMs() / 1000)
                    : f("each request's worker made its calls in turn, held for all of them (%,d socket reads from"
                    + " the delay service on workers)", workers.delayService().reads.count());
            case VIRTUAL -> calls.parallel()
                    ? f("virtual threads forked and joined: 1 + %d per request (the request's and one per call);"
                    + " %,d started in %.1f s", calls.calls(), a.virtualThreads().started(), a.seconds())
                    : f("one virtual thread per request made its calls in turn; %,d started in %.1f s",
                    a.virtualThreads().started(), a.seconds());
            case EVENT_LOOP -> f("the event loops sent the calls and combined the %d replies into one response: %,d"
                    + " execution samples on %d event-loop threads, %,d in request code", calls.calls(),
                    loops.executionSamples, loops.threads.size(), loops.requestSamples);
        };
        return calls.describe() + ": " + shape;
    }

    /** A stall, named by its chain where the samples show a known one, else by its top frames. */
    private static String stall(RecordedStall s) {
        return f("throughput stalled for %d s from second %d of the measured interval (%.0f requests/s against the"
                        + " window's steady rate of %.0f): %,d execution samples, %s", s.seconds(), s.firstSecond(),
                s.meanRate(), s.steadyRate(), s.samples(), s.why());
    }

    private static String contention(List<WaitSites.Site> sites) {
        if (sites.isEmpty()) {
            return "no monitor contention was recorded (jdk.JavaMonitorEnter)";
        }
        List<String> named = sites.stream().limit(2).map(s -> f("%,d waits for %s at %s (%s), %.1f ms in total,"
                + " longest %.1f ms", s.count(), s.on(), s.site(), s.groupLabel(), s.totalMs(), s.maxMs())).toList();
        return "most monitor contention: " + String.join("; then ", named);
    }

    private static Optional<String> cpuLayers(RecordingAnalysis a) {
        List<Map.Entry<Layer, Double>> largest = a.cpu().largest(2);
        if (largest.isEmpty()) {
            return Optional.empty();
        }
        StringBuilder sentence = new StringBuilder("the largest CPU layers: ");
        Double msPerRequest = a.measured().cpuMsPerRequest();
        for (int i = 0; i < largest.size(); i++) {
            double share = largest.get(i).getValue();
            sentence.append(i == 0 ? "" : ", then ").append(largest.get(i).getKey().label())
                    .append(f(i == 0 ? " with %.0f %% of the process's CPU" : " with %.0f %%", share * 100))
                    .append(msPerRequest == null ? "" : f(" (%.3f ms per request)", share * msPerRequest));
        }
        return Optional.of(sentence.toString());
    }

    private static String f(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
