package io.threadlab.experiment.process;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every child the lab starts (JVMs, k6, jcmd) is registered here, so that on any exit path, Ctrl-C included, none is
 * left behind.
 */
public final class Processes {

    private static final Set<Process> RUNNING = ConcurrentHashMap.newKeySet();

    private Processes() {
    }

    public static Process track(Process process) {
        RUNNING.add(process);
        process.onExit().thenRun(() -> RUNNING.remove(process));
        return process;
    }

    public static void stop(Process process, Duration grace) {
        if (process.isAlive()) {
            process.destroy();
            if (!ServiceProcess.waitFor(process, grace)) {
                process.destroyForcibly();
                ServiceProcess.waitFor(process, Duration.ofSeconds(5));
            }
        }
        RUNNING.remove(process);
    }

    /** Whether a short probe command (a tool's "version", say) exists and exits 0 within the timeout. */
    public static boolean succeeds(Duration timeout, String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return ServiceProcess.waitFor(p, timeout) && p.exitValue() == 0;
        } catch (java.io.IOException e) {
            return false;
        }
    }

    public static void stopAll() {
        for (Process process : Set.copyOf(RUNNING)) {
            stop(process, Duration.ofSeconds(10));
        }
    }
}
