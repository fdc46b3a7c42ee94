package io.threadlab.experiment.analyse;

import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The process's CPU by layer. Execution samples say where Java threads spent their CPU, but not how much CPU that
 * was, and they never see the JVM's own threads; so the Java threads' CPU (jdk.ThreadCPULoad) is shared out by the
 * samples' layers, and the JIT compiler and JFR threads' CPU (also jdk.ThreadCPULoad) plus the GC's (jdk.GCCPUTime)
 * make a layer of their own. The VM thread's own CPU has no event and is not counted.
 *
 * @param processors         what jdk.ThreadCPULoad divides by: the JVM's active processor count
 * @param processorsFrom     where that count was found in the recording
 * @param javaCpuSeconds     CPU of the Java threads (request threads, event loops, carriers, ...)
 * @param jvmCpuSeconds      CPU of the JIT compiler, JFR and GC threads
 * @param samples            execution samples per layer
 * @param shares             per layer, its share of the process's CPU (of the samples alone without CPU load events)
 */
public record LayerCpu(int processors, String processorsFrom, double javaCpuSeconds, double jvmCpuSeconds,
                       Map<Layer, Long> samples, Map<Layer, Double> shares) {

    public double processCpuSeconds() {
        return javaCpuSeconds + jvmCpuSeconds;
    }

    /** The layers with the largest shares, largest first. */
    public List<Map.Entry<Layer, Double>> largest(int n) {
        return shares.entrySet().stream().filter(e -> e.getValue() > 0)
                .sorted(Map.Entry.<Layer, Double>comparingByValue(Comparator.reverseOrder())).limit(n).toList();
    }

    /** The JSON form; CPU-ms per request per layer when the recorded window's CPU per request is known. */
    AnalysisFile.CpuByLayer toRecord(Double cpuMsPerRequest) {
        Map<String, AnalysisFile.LayerShare> layers = new LinkedHashMap<>();
        for (Layer layer : Layer.values()) {
            layers.put(layer.label(), new AnalysisFile.LayerShare(samples.get(layer), Durations.round(shares.get(layer)),
                    cpuMsPerRequest == null ? null : Durations.round(shares.get(layer) * cpuMsPerRequest)));
        }
        return new AnalysisFile.CpuByLayer(processors, processorsFrom, Durations.round(javaCpuSeconds),
                Durations.round(jvmCpuSeconds), Durations.round(processCpuSeconds()), cpuMsPerRequest, layers);
    }

    /** Filled while the events stream past. */
    static final class Tally {
        private final long[] samples = new long[Layer.values().length];
        private double javaLoad;
        private double jvmLoad;
        private double gcSeconds;
        private int activeProcessorCount;
        private int containerCpus;
        private int hardwareThreads;

        void sample(Layer layer) {
            samples[layer.ordinal()]++;
        }

        /** One jdk.ThreadCPULoad event: a thread's CPU over the last period (1 s in threads.jfc) / processors. */
        void threadLoad(ThreadKind kind, double load) {
            if (kind == ThreadKind.JVM) {
                jvmLoad += load;
            } else {
                javaLoad += load;
            }
        }

        void gc(double seconds) {
            gcSeconds += seconds;
        }

        void activeProcessorCountFlag(long value) {
            activeProcessorCount = (int) value;
        }

        void containerCpus(long effective) {
            containerCpus = (int) effective;
        }

        void hardwareThreads(long threads) {
            hardwareThreads = (int) threads;
        }

        LayerCpu result() {
            int processors;
            String from;
            if (activeProcessorCount > 0) {
                processors = activeProcessorCount;
                from = "-XX:ActiveProcessorCount";
            } else if (containerCpus > 0) {
                processors = containerCpus;
                from = "container (jdk.ContainerConfiguration)";
            } else if (hardwareThreads > 0) {
                processors = hardwareThreads;
                from = "hardware threads (jdk.CPUInformation)";
            } else {
                processors = 1;
                from = "assumed";
            }
            double java = javaLoad * processors;
            double jvm = jvmLoad * processors + gcSeconds;
            long sampled = 0;
            Map<Layer, Long> bySamples = new EnumMap<>(Layer.class);
            for (Layer layer : Layer.values()) {
                bySamples.put(layer, samples[layer.ordinal()]);
                sampled += samples[layer.ordinal()];
            }
            Map<Layer, Double> shares = new EnumMap<>(Layer.class);
            boolean measured = java + jvm > 0;
            double total = measured ? java + jvm : 1;
            double javaShare = measured ? java / total : 1;
            for (Layer layer : Layer.values()) {
                double share = layer == Layer.JVM_THREADS ? (measured ? jvm / total : 0)
                        : sampled == 0 ? 0 : javaShare * samples[layer.ordinal()] / sampled;
                shares.put(layer, share);
            }
            return new LayerCpu(processors, from, java, jvm, bySamples, shares);
        }
    }
}
