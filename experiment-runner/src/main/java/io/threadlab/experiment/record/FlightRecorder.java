package io.threadlab.experiment.record;

import io.threadlab.experiment.start.Processes;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One JFR recording per measured window, started and stopped from outside with {@code jcmd}, so a window's file
 * holds that window only and the service needs no recording flags of its own.
 */
public final class FlightRecorder {

    private static final String NAME = "lab-window";

    private final Path jcmd;
    private final Path settings;

    public FlightRecorder(Path javaHome, Path settings) {
        this.jcmd = javaHome.resolve("bin/jcmd");
        this.settings = settings.toAbsolutePath();
    }

    public void start(long pid, Path file) {
        jcmd(pid, "JFR.start", "name=" + NAME, "settings=" + settings, "filename=" + file.toAbsolutePath());
    }

    public void stop(long pid) {
        jcmd(pid, "JFR.stop", "name=" + NAME);
    }

    private void jcmd(long pid, String... command) {
        List<String> args = new java.util.ArrayList<>(List.of(jcmd.toString(), String.valueOf(pid)));
        args.addAll(List.of(command));
        try {
            Process process = Processes.track(new ProcessBuilder(args).redirectErrorStream(true).start());
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0 || out.contains("Exception")) {
                throw new IllegalStateException(String.join(" ", args) + " failed:\n" + out.trim());
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run jcmd: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted during " + String.join(" ", args));
        }
    }
}
