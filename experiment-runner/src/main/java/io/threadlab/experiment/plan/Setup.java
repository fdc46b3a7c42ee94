package io.threadlab.experiment.plan;

import java.util.ArrayList;
import java.util.List;

/**
 * What one JVM is started with beyond the run's own knobs: the regime map's optional axes (CPU quota, worker-pool
 * maximum, connection-pool size). A null field means the run's value. Each setup is a JVM start of its own: none of
 * them can change inside a running JVM.
 */
public record Setup(Double cpus, Integer workerMax, Integer poolSize) {

    public static final Setup NONE = new Setup(null, null, null);

    public boolean isDefault() {
        return cpus == null && workerMax == null && poolSize == null;
    }

    /** For names of JVMs and files: "" for the run's own knobs, else e.g. "-cpu0.25-w512-pool3000". */
    public String suffix() {
        StringBuilder s = new StringBuilder();
        if (cpus != null) {
            s.append("-cpu").append(cpus % 1 == 0 ? String.valueOf(cpus.intValue()) : String.valueOf(cpus));
        }
        if (workerMax != null) {
            s.append("-w").append(workerMax);
        }
        if (poolSize != null) {
            s.append("-pool").append(poolSize);
        }
        return s.toString();
    }

    /** The knobs this JVM runs with. */
    public Knobs applyTo(Knobs knobs) {
        return new Knobs(cpus != null ? cpus : knobs.cpuQuota(), knobs.heap(), knobs.gc(),
                poolSize != null ? poolSize : knobs.connectionPoolSize(), knobs.connectTimeoutMs(),
                knobs.readTimeoutMs(), workerMax != null ? workerMax : knobs.workerPoolMax(),
                knobs.confineDelayService());
    }

    /** Every combination of the given axis values (an empty list: the run's value only). */
    public static List<Setup> grid(List<Double> cpus, List<Integer> workerMax, List<Integer> poolSizes) {
        List<Setup> setups = new ArrayList<>();
        for (Double c : cpus.isEmpty() ? java.util.Collections.<Double>singletonList(null) : cpus) {
            for (Integer w : workerMax.isEmpty() ? java.util.Collections.<Integer>singletonList(null) : workerMax) {
                for (Integer p : poolSizes.isEmpty() ? java.util.Collections.<Integer>singletonList(null) : poolSizes) {
                    setups.add(new Setup(c, w, p));
                }
            }
        }
        return setups;
    }
}
