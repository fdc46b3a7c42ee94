package io.threadlab.experiment.analyse;

import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** Everything one thread group did in one recording. Filled while the events stream past. */
final class GroupStats {

    final Set<Long> threads = new HashSet<>();
    final Set<Long> threadsReadingDownstream = new HashSet<>();
    final Durations downstreamReads = new Durations();
    final Durations clientReads = new Durations();
    final Durations downstreamWrites = new Durations();
    final Durations clientWrites = new Durations();
    final Durations parks = new Durations();
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
    /** jdk.NativeMethodSample: the thread was in native code; with request code below the native frame, where. */
    long nativeSamples;
    long nativeLabSamples;
    final Map<String, Integer> nativeSites = new HashMap<>();
    final Map<String, Integer> nativeFrames = new HashMap<>();
    double cpuLoadSum;
    final Set<Long> cpuLoadSeconds = new HashSet<>();

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

    /** The JSON form. */
    AnalysisFile.Group toGroup(long totalSamples) {
        Map<String, Long> byLayer = new LinkedHashMap<>();
        layerSamples.forEach((layer, n) -> byLayer.put(layer.label(), n));
        return new AnalysisFile.Group(threads.size(), threadsReadingDownstream.size(), downstreamReads.summary(),
                clientReads.summary(), downstreamWrites.summary(), clientWrites.summary(), parks.summary(),
                lifetimes.count() > 0 ? lifetimes.summary() : null, topEntries(parkedOn, 3), monitorEnters.summary(),
                monitorWaits.summary(), executionSamples, totalSamples == 0 ? 0.0
                : Durations.round((double) executionSamples / totalSamples), byLayer, requestSamples, labSamples,
                topEntries(labSites, 3), synchronizedSamples, nativeSamples, nativeLabSamples,
                topEntries(nativeSites, 3), Durations.round(meanCpu()));
    }

    static Map<String, Integer> topEntries(Map<String, Integer> counts, int n) {
        Map<String, Integer> top = new LinkedHashMap<>();
        counts.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed()).limit(n)
                .forEach(e -> top.put(e.getKey(), e.getValue()));
        return top;
    }
}
