package io.threadlab.experiment.record;

import io.threadlab.experiment.process.Processes;
import io.threadlab.experiment.process.ServiceProcess;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Local JVMs: the recording is started and stopped from outside with this JDK's {@code jcmd}, so the service needs no
 * recording flags of its own.
 */
public final class FlightRecorder implements Recorder {

    static final String NAME = "lab-window";

    private final Path jcmd;
    private final Path settings;

    public FlightRecorder(Path javaHome, Path settings) {
        this.jcmd = javaHome.resolve("bin/jcmd");
        this.settings = settings.toAbsolutePath();
    }

    @Override
    public void start(ServiceProcess service, Path file) {
        run(List.of(jcmd.toString(), String.valueOf(service.pid()), "JFR.start", "name=" + NAME,
                "settings=" + settings, "filename=" + file.toAbsolutePath()));
    }

    @Override
    public void stop(ServiceProcess service, Path file) {
        run(List.of(jcmd.toString(), String.valueOf(service.pid()), "JFR.stop", "name=" + NAME));
    }

    @Override
    public void collectGarbage(ServiceProcess service) {
        run(List.of(jcmd.toString(), String.valueOf(service.pid()), "GC.run"));
    }

    @Override
    public boolean dumpStartupRecording(ServiceProcess service, String name, Path file) {
        try {
            java.nio.file.Files.createDirectories(file.getParent());
        } catch (IOException e) {
            throw new IllegalStateException("cannot make " + file.getParent() + ": " + e.getMessage(), e);
        }
        run(List.of(jcmd.toString(), String.valueOf(service.pid()), "JFR.dump", "name=" + name,
                "filename=" + file.toAbsolutePath()));
        return true;
    }

    private static void run(List<String> args) {
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
