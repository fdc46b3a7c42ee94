package io.threadlab.experiment.analyse;

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
    final Map<String, Integer> parkedOn = new HashMap<>();
    final Durations monitorEnters = new Durations();
    final Durations monitorWaits = new Durations();
    long executionSamples;
    long requestSamples;
    double cpuLoadSum;
    final Set<Long> cpuLoadSeconds = new HashSet<>();

    void parkedOn(String className) {
        parkedOn.merge(className, 1, Integer::sum);
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
        map.put("parked_on", topEntries(parkedOn, 3));
        map.put("monitor_enters", monitorEnters.summary());
        map.put("monitor_waits", monitorWaits.summary());
        map.put("execution_samples", executionSamples);
        map.put("execution_sample_share", totalSamples == 0 ? 0.0 : Durations.round((double) executionSamples / totalSamples));
        map.put("request_code_samples", requestSamples);
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
