package io.threadlab.experiment.load;

import io.threadlab.experiment.confine.CpuReading;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Where k6 runs: a process on this machine, or a container on another Docker engine ({@code --load-host}). Every
 * load the runner starts goes through one, so the scripts, the summaries, k6's live API and its CPU are reached the same
 * way wherever it is.
 */
public interface K6Host {

    /** The k6 version that runs the scripts there. */
    String version();

    /** The command that runs k6 with {@code k6Args} (everything after {@code k6}) as the load named {@code name}. */
    List<String> command(String name, List<String> k6Args);

    /** What the command's environment needs beyond this process's own. */
    Map<String, String> environment();

    /** The script as k6 names it there. */
    String script(String file);

    /** Where k6 writes the summary that ends up at {@code local}, as k6 names it there. */
    String summary(String name, Path local);

    /** What k6's REST API listens on there, and where this machine reaches it. */
    String apiBind();

    String apiAddress();

    /** After k6 exited: its summary (and k6's full data beside it) brought to {@code local}, if it wrote one. */
    void collect(String name, Path local);

    /** k6's CPU counters now; {@link CpuReading#NONE} when they cannot be read (not started yet, or gone). */
    CpuReading cpu(String name, long pid);

    /** Nothing of the load {@code name} is left there (a container removed; nothing for a process). */
    void remove(String name);

    /** For the manifest's placement: where the load ran. */
    Map<String, Object> where();

    /** The cores of the machine k6 runs on: its headroom is weighed against them. */
    int cores();

    /** Nothing of any load is left there: at the end of a run, Ctrl-C included. */
    void removeAll();
}
