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
    Map<String, Object> toMap(long totalSamples) {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("threads", threads.size());
        map.put("threads_reading_downstream", threadsReadingDownstream.size());
        map.put("socket_reads_downstream", downstreamReads.summary());
        map.put("socket_reads_clients", clientReads.summary());
        map.put("socket_writes_downstream", downstreamWrites.summary());
        map.put("socket_writes_clients", clientWrites.summary());
        map.put("parks", parks.summary());
        if (lifetimes.count() > 0) {
            map.put("lifetimes", lifetimes.summary());
        }
        map.put("parked_on", topEntries(parkedOn, 3));
        map.put("monitor_enters", monitorEnters.summary());
        map.put("monitor_waits", monitorWaits.summary());
        map.put("execution_samples", executionSamples);
        map.put("execution_sample_share", totalSamples == 0 ? 0.0 : Durations.round((double) executionSamples / totalSamples));
        Map<String, Long> byLayer = new LinkedHashMap<>();
        layerSamples.forEach((layer, n) -> byLayer.put(layer.label(), n));
        map.put("execution_samples_by_layer", byLayer);
        map.put("request_code_samples", requestSamples);
        map.put("lab_code_samples", labSamples);
        map.put("lab_code_sites", topEntries(labSites, 3));
        map.put("synchronized_request_code_samples", synchronizedSamples);
        map.put("native_samples", nativeSamples);
        map.put("native_samples_in_request_code", nativeLabSamples);
        map.put("native_sites", topEntries(nativeSites, 3));
        map.put("mean_cpu", Durations.round(meanCpu()));
        return map;
    }

    static Map<String, Integer> topEntries(Map<String, Integer> counts, int n) {
        Map<String, Integer> top = new LinkedHashMap<>();
        counts.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed()).limit(n)
                .forEach(e -> top.put(e.getKey(), e.getValue()));
        return top;
    }
}
