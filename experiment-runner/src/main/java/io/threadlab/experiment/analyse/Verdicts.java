package io.threadlab.experiment.analyse;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What a recording says, in sentences built from its own numbers, never hard-coded; and, loudly, where the numbers
 * contradict the variant's expected signature (a worker thread used by the reactive variant, pinning in the
 * virtual-thread variant, ...).
 */
public record Verdicts(List<String> findings, List<String> unexpected) {

    public static Verdicts of(RecordingAnalysis a) {
        List<String> findings = new ArrayList<>();
        List<String> unexpected = new ArrayList<>();
        GroupStats workers = a.group(ThreadKind.WORKER);
        GroupStats loops = a.group(ThreadKind.EVENT_LOOP);
        GroupStats virtuals = a.group(ThreadKind.VIRTUAL);

        switch (a.variant()) {
            case "imperative" -> {
                findings.add(f("downstream waits happen on %d executor threads: %,d socket reads from the delay"
                                + " service, p50 %.1f ms, p99 %.1f ms (%.1f thread-seconds of waiting in %.1f s)",
                        workers.threadsReadingDownstream.size(), workers.downstreamReads.count(),
                        workers.downstreamReads.percentile(50), workers.downstreamReads.percentile(99),
                        workers.downstreamReads.totalMs() / 1000, a.seconds()));
                if (workers.downstreamReads.count() == 0) {
                    unexpected.add("no executor thread read from the delay service: the imperative variant should"
                            + " block its worker threads on the downstream call");
                }
                if (virtuals.requestSamples > 0 || loops.requestSamples > workers.requestSamples) {
                    unexpected.add(f("request code ran on %d event-loop and %d virtual-thread samples against %d on"
                            + " workers", loops.requestSamples, virtuals.requestSamples, workers.requestSamples));
                }
            }
            case "reactive" -> {
                findings.add(f("event loops did the socket I/O: %,d reads from the delay service on %d event-loop"
                                + " threads, p50 %.2f ms, p99 %.2f ms", loops.downstreamReads.count(),
                        loops.threadsReadingDownstream.size(), loops.downstreamReads.percentile(50),
                        loops.downstreamReads.percentile(99)));
                findings.add(f("no thread waited for the 10 ms: %d request-code samples on worker threads, %d socket"
                        + " reads from the delay service on workers", workers.requestSamples,
                        workers.downstreamReads.count()));
                if (workers.requestSamples > 0 || workers.downstreamReads.count() > 0) {
                    unexpected.add(f("worker threads were used by the reactive variant: %d request-code samples,"
                            + " %d downstream reads", workers.requestSamples, workers.downstreamReads.count()));
                }
                if (!virtuals.threads.isEmpty()) {
                    unexpected.add(f("%d virtual threads ran in the reactive variant", virtuals.threads.size()));
                }
            }
            case "virtual-thread" -> {
                findings.add(f("%,d virtual threads started, %d pinned; carriers idle at least %.0f %% of the window",
                        a.virtualThreadsStarted(), a.pinned().count(), a.carrierIdleShare() * 100));
                findings.add(f("socket I/O stayed on the event loops: %,d reads from the delay service there, %,d on"
                        + " virtual threads", loops.downstreamReads.count(), virtuals.downstreamReads.count()));
                if (a.pinned().count() > 0) {
                    unexpected.add(f("%d virtual threads pinned their carrier (p99 %.1f ms), at %s", a.pinned().count(),
                            a.pinned().p99Ms(), a.pinnedAt().keySet()));
                }
                if (a.submitFailed() > 0) {
                    unexpected.add(f("%d virtual threads could not be scheduled (VirtualThreadSubmitFailed)",
                            a.submitFailed()));
                }
                if (workers.requestSamples > 0) {
                    unexpected.add(f("request code ran on worker threads (%d samples), not on virtual threads",
                            workers.requestSamples));
                }
                if (virtuals.requestSamples == 0 && a.virtualThreadsStarted() == 0) {
                    unexpected.add("no virtual thread was seen: was the recording made with jfr/threads.jfc?");
                }
            }
            case "imperative-rest" -> imperativeRest(a, findings, unexpected);
            default -> unexpected.add("could not tell which variant this is: no request code was sampled");
        }
        if (a.throttling() != null && a.throttling().periods() > 0) {
            findings.add(f("CPU quota throttled the JVM in %d of %d periods (%.1f s of runnable time held back, summed"
                            + " over CPUs)", a.throttling().throttledPeriods(), a.throttling().periods(),
                    a.throttling().throttledMs() / 1000));
        }
        findings.add(f("GC paused for %.1f ms in total", a.gcPauseMs()));
        findings.add(contention(a.monitorEnterSites()));
        if (!a.parkSites().isEmpty()) {
            WaitSites.Site top = a.parkSites().getFirst();
            findings.add(f("most parking: %,d parks on %s at %s (%s), %.1f s in total, longest %.1f ms",
                    top.count(), top.on(), top.site(), top.groupLabel(), top.totalMs() / 1000, top.maxMs()));
        }
        cpuLayers(a).ifPresent(findings::add);
        return new Verdicts(List.copyOf(findings), List.copyOf(unexpected));
    }

    /**
     * The control: the imperative code on the reactive stack. Request code on executor threads, which park on a
     * future while the Vert.x-based client's event loops do the socket I/O.
     */
    private static void imperativeRest(RecordingAnalysis a, List<String> findings, List<String> unexpected) {
        GroupStats workers = a.group(ThreadKind.WORKER);
        GroupStats loops = a.group(ThreadKind.EVENT_LOOP);
        GroupStats virtuals = a.group(ThreadKind.VIRTUAL);
        WaitSites.Site waits = a.workerFutureParks();
        findings.add(f("request code ran on executor threads (%d samples); the event loops read the delay service's"
                        + " replies for them: %,d reads on %d event-loop threads, %,d on workers",
                workers.requestSamples, loops.downstreamReads.count(), loops.threadsReadingDownstream.size(),
                workers.downstreamReads.count()));
        findings.add(f("workers parked %,d times waiting for the client's reply (%.1f thread-seconds in %.1f s,"
                        + " longest %.1f ms), mostly on %s at %s", waits.count(), waits.totalMs() / 1000,
                a.seconds(), waits.maxMs(), waits.on(), waits.site()));
        if (workers.downstreamReads.count() > 0) {
            unexpected.add(f("%,d socket reads from the delay service on worker threads: the Vert.x-based client"
                    + " should read on the event loops", workers.downstreamReads.count()));
        }
        if (loops.downstreamReads.count() == 0) {
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
        if (a.virtualThreadsStarted() > 0) {
            unexpected.add(f("%,d virtual threads started in the imperative-rest variant", a.virtualThreadsStarted()));
        }
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
        for (int i = 0; i < largest.size(); i++) {
            double share = largest.get(i).getValue();
            sentence.append(i == 0 ? "" : ", then ").append(largest.get(i).getKey().label())
                    .append(f(i == 0 ? " with %.0f %% of the process's CPU" : " with %.0f %%", share * 100))
                    .append(a.cpuMsPerRequest() == null ? "" : f(" (%.3f ms per request)", share * a.cpuMsPerRequest()));
        }
        return Optional.of(sentence.toString());
    }

    private static String f(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
