package io.threadlab.experiment.load;

import io.threadlab.experiment.confine.Confinement;
import io.threadlab.experiment.confine.CpuReading;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.TreeMap;

/**
 * k6 as a process on this machine, in its own accounted (never limited) group, so that its CPU is measured, with the
 * run's settings of its Go runtime in its environment (and nothing else the shell set for Go: {@code K6Run}).
 */
public final class LocalK6 implements K6Host {

    private final K6 k6;
    private final Path scripts;
    private final Confinement confinement;
    private final Map<String, String> runtime;

    /** @param runtime k6's Go runtime settings ({@code GOGC=400}): the run's knobs, {@code Knobs#k6Environment} */
    public LocalK6(K6 k6, Path labHome, Confinement confinement, Map<String, String> runtime) {
        this.k6 = k6;
        this.scripts = labHome.resolve("k6");
        this.confinement = confinement;
        this.runtime = Map.copyOf(runtime);
    }

    @Override
    public String version() {
        return k6.version();
    }

    @Override
    public List<String> command(String name, List<String> k6Args) {
        List<String> command = new ArrayList<>(confinement.wrap("k6", OptionalDouble.empty(), List.of()));
        command.add(k6.executable().toString());
        command.addAll(k6Args);
        return command;
    }

    @Override
    public Map<String, String> environment() {
        return runtime;
    }

    @Override
    public String script(String file) {
        return scripts.resolve(file).toString();
    }

    @Override
    public String summary(String name, Path local) {
        return local.toAbsolutePath().toString();
    }

    @Override
    public String apiBind() {
        return "127.0.0.1";
    }

    @Override
    public String apiAddress() {
        return "127.0.0.1";
    }

    @Override
    public void collect(String name, Path local) {
        // k6 wrote it there itself
    }

    /** Nothing while its group is not made yet (first window) or once it is gone (unconfined). */
    @Override
    public CpuReading cpu(String name, long pid) {
        try {
            return confinement.read("k6", pid);
        } catch (RuntimeException e) {
            return CpuReading.NONE;
        }
    }

    @Override
    public void remove(String name) {
        // a process: stopped by K6Run itself
    }

    @Override
    public Map<String, Object> where() {
        Map<String, Object> load = new LinkedHashMap<>();
        load.put("kind", "this machine (k6 as a local process)");
        load.put("host", hostName());
        load.put("cores", cores());
        load.put("environment", new TreeMap<>(runtime));
        return load;
    }

    @Override
    public int cores() {
        return Runtime.getRuntime().availableProcessors();
    }

    @Override
    public void removeAll() {
        // every k6 process is tracked and stopped with the others
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "unknown";
        }
    }
}
