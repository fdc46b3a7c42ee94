package io.threadlab.experiment.analyse;

import io.threadlab.experiment.plan.Downstream;

import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** Everything one thread group did in one recording. Filled while the events stream past. */
final class GroupStats {

    final Set<Long> threads = new HashSet<>();
    /** Socket I/O with each of the lab's downstreams, by its port; which one the window waited on is its own. */
    private final Map<Downstream, SocketIo> io = new EnumMap<>(Map.of(Downstream.HTTP, new SocketIo(),
            Downstream.DB, new SocketIo()));
    /** Socket I/O with any other port: the service's own clients (k6, the runner's scrapes). */
    final Durations clientReads = new Durations();
    final Durations clientWrites = new Durations();
    final Durations parks = new Durations();
    /** Parks and monitor enters inside a JDBC connection pool (Agroal): waits for a pooled connection. */
    final Durations poolWaits = new Durations();
    final Set<Long> threadsWaitingForPool = new HashSet<>();
    /** Virtual threads only: how long each lived, start to end (their parks emit no event). */
    final Durations lifetimes = new Durations();
    final Map<String, Integer> parkedOn = new HashMap<>();
    final Durations monitorEnters = new Durations();
    final Durations monitorWaits = new Durations();
    long executionSamples;
    /** Execution samples by the layer their CPU went to: what a group did, even where no event says it waited. */
    final Map<Layer, Long> layerSamples = new EnumMap<>(Layer.class);
    long requestSamples;
    /** Execution samples with request code on the stack, by its first frame (leaf first). */
    final Map<String, Integer> requestSites = new HashMap<>();
    /** Execution samples whose CPU was request code's own (layer "lab code"), and where. */
    long labSamples;
    final Map<String, Integer> labSites = new HashMap<>();
    /** Execution samples inside a synchronized method of request code, and of those, inside the REST client. */
    long synchronizedSamples;
    long synchronizedClientSamples;
    final Map<String, Integer> synchronizedSites = new HashMap<>();
    /** Execution samples in Hibernate ORM's lazy fetching ({@link StackFacts.Sample#lazyLoad}), by request code's site. */
    long lazyLoadSamples;
    final Map<String, Integer> lazyLoadSites = new HashMap<>();
    /** Execution samples in Quarkus' refusal of a blocking call ({@link StackFacts.Sample#blockingRefused}). */
    long refusalSamples;
    /** jdk.NativeMethodSample: the thread was in native code; with request code below the native frame, where. */
    long nativeSamples;
    long nativeLabSamples;
    final Map<String, Integer> nativeSites = new HashMap<>();
    final Map<String, Integer> nativeFrames = new HashMap<>();
    double cpuLoadSum;
    final Set<Long> cpuLoadSeconds = new HashSet<>();

    /** One jdk.ExecutionSample of a thread of this group, by what its stack says. */
    void executionSample(StackFacts.Sample sample) {
        executionSamples++;
        layerSamples.merge(sample.layer(), 1L, Long::sum);
        if (sample.requestCode()) {
            requestSamples++;
            requestSites.merge(sample.labSite(), 1, Integer::sum);
        }
        if (sample.layer() == Layer.LAB) {
            labSamples++;
            labSites.merge(String.valueOf(sample.labSite()), 1, Integer::sum);
        }
        if (sample.synchronizedSite() != null) {
            synchronizedSamples++;
            synchronizedSites.merge(sample.synchronizedSite(), 1, Integer::sum);
            if (sample.layer() == Layer.REST_CLIENT) {
                synchronizedClientSamples++;
            }
        }
        if (sample.lazyLoad()) {
            lazyLoadSamples++;
            lazyLoadSites.merge(String.valueOf(sample.labSite()), 1, Integer::sum);
        }
        if (sample.blockingRefused()) {
            refusalSamples++;
        }
    }

    SocketIo io(Downstream downstream) {
        return io.get(downstream);
    }

    SocketIo delayService() {
        return io(Downstream.HTTP);
    }

    SocketIo database() {
        return io(Downstream.DB);
    }

    void parkedOn(String className) {
        parkedOn.merge(className, 1, Integer::sum);
    }

    long layerSamples(Layer... layers) {
        long n = 0;
        for (Layer layer : layers) {
            n += layerSamples.getOrDefault(layer, 0L);
        }
        return n;
    }

    /** Request code's own share of the group's execution samples. */
    double labShare() {
        return executionSamples == 0 ? 0 : (double) labSamples / executionSamples;
    }

    /** The group's share of one CPU, averaged over the seconds it was sampled (ThreadCPULoad, per second). */
    double meanCpu() {
        return cpuLoadSeconds.isEmpty() ? 0 : cpuLoadSum / cpuLoadSeconds.size();
    }

    /** The JSON form; "downstream" is the window's. */
    AnalysisFile.Group toGroup(long totalSamples, Downstream downstream) {
        Map<String, Long> byLayer = new LinkedHashMap<>();
        layerSamples.forEach((layer, n) -> byLayer.put(layer.label(), n));
        SocketIo waitedOn = io(downstream);
        return new AnalysisFile.Group(threads.size(), waitedOn.readers.size(),
                new AnalysisFile.Sockets(waitedOn.reads.summary(), clientReads.summary(), waitedOn.writes.summary(),
                        clientWrites.summary(), delayService().reads.summary(), database().reads.summary()),
                new AnalysisFile.PoolWaits(poolWaits.summary(), threadsWaitingForPool.size()),
                new AnalysisFile.ThreadWaits(parks.summary(), lifetimes.count() > 0 ? lifetimes.summary() : null,
                        topEntries(parkedOn, 3), monitorEnters.summary(), monitorWaits.summary()),
                new AnalysisFile.Samples(executionSamples, totalSamples == 0 ? 0.0
                        : Durations.round((double) executionSamples / totalSamples), byLayer, requestSamples,
                        labSamples, topEntries(labSites, 3), synchronizedSamples),
                new AnalysisFile.NativeSamples(nativeSamples, nativeLabSamples, topEntries(nativeSites, 3)),
                Durations.round(meanCpu()));
    }

    static Map<String, Integer> topEntries(Map<String, Integer> counts, int n) {
        Map<String, Integer> top = new LinkedHashMap<>();
        counts.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed()).limit(n)
                .forEach(e -> top.put(e.getKey(), e.getValue()));
        return top;
    }
}
