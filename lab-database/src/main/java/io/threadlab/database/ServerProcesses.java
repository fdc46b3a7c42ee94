package io.threadlab.database;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The processes of one PostgreSQL server, found by their working directory: the postmaster changes into its data
 * directory before it forks anything, and every backend, checkpointer and walwriter inherits it. That finds them
 * whoever started them and even after the postmaster died (its children are then the init process's), when
 * "descendants of the postmaster" would find nothing.
 */
public final class ServerProcesses {

    private ServerProcesses() {
    }

    /** The live processes whose working directory is {@code dataDirectory} (or was: it may have been removed). */
    public static List<ProcessHandle> in(Path dataDirectory) {
        String dir = dataDirectory.toAbsolutePath().normalize().toString();
        return ProcessHandle.allProcesses().filter(p -> {
            try {
                String cwd = Files.readSymbolicLink(Path.of("/proc", String.valueOf(p.pid()), "cwd")).toString();
                return cwd.equals(dir) || cwd.equals(dir + " (deleted)");
            } catch (IOException | UnsupportedOperationException | SecurityException e) {
                return false; // gone meanwhile, or not ours to inspect (then not a server the lab started either)
            }
        }).toList();
    }

    /**
     * Sends a signal by name (INT, QUIT, ...), which {@link ProcessHandle} cannot: PostgreSQL's shutdown modes are
     * signals. Through the shell's own {@code kill}, which every image has (procps' may be missing).
     */
    static void signal(long pid, String signal) {
        try {
            Process kill = new ProcessBuilder("sh", "-c", "kill -s " + signal + " \"$1\"", "sh", String.valueOf(pid))
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!kill.waitFor(10, TimeUnit.SECONDS)) {
                kill.destroyForcibly();
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot send SIG" + signal + " to PostgreSQL (pid " + pid + "): " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
