package io.threadlab.experiment.record;

import io.threadlab.experiment.process.ComposeCli;
import io.threadlab.experiment.process.ContainerService;
import io.threadlab.experiment.process.ServiceProcess;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;

/**
 * Containers: {@code docker compose exec <service> jcmd 1 ...} inside the container (the images carry a JDK for this).
 * On this machine's engine it writes to /recordings, which compose binds to the lab's jfr/ directory, and the file is
 * then moved into the run. Another engine has no such directory (compose.remote.yaml binds nothing): the settings
 * are copied into the container's /tmp, the recording written there and copied back with {@code docker cp}.
 */
public final class ContainerRecorder implements Recorder {

    private static final Duration JCMD = Duration.ofSeconds(60);
    private static final String SETTINGS_THERE = "/tmp/threads.jfc";

    private final Path hostRecordings;
    private final ComposeCli compose;
    private final boolean elsewhere;

    /** @param elsewhere whether the containers run on another engine, with no bind mount of jfr/ */
    public ContainerRecorder(Path labHome, ComposeCli compose, boolean elsewhere) {
        this.hostRecordings = labHome.resolve("jfr");
        this.compose = compose;
        this.elsewhere = elsewhere;
    }

    @Override
    public void start(ServiceProcess service, Path file) {
        if (elsewhere) {
            compose.docker(JCMD, "cp", hostRecordings.resolve("threads.jfc").toString(),
                    container(service) + ":" + SETTINGS_THERE);
            jcmd(service, "JFR.start", "name=" + FlightRecorder.NAME, "settings=" + SETTINGS_THERE,
                    "filename=/tmp/" + file.getFileName());
            return;
        }
        jcmd(service, "JFR.start", "name=" + FlightRecorder.NAME, "settings=/lab/threads.jfc",
                "filename=/recordings/" + file.getFileName());
    }

    @Override
    public void stop(ServiceProcess service, Path file) {
        jcmd(service, "JFR.stop", "name=" + FlightRecorder.NAME); // writes the file before it returns
        if (elsewhere) {
            String there = "/tmp/" + file.getFileName();
            try {
                Files.createDirectories(file.getParent());
            } catch (IOException e) {
                throw new UncheckedIOException("cannot make " + file.getParent() + ": " + e.getMessage(), e);
            }
            compose.docker(JCMD, "cp", container(service) + ":" + there, file.toString());
            compose.docker(JCMD, "exec", container(service), "rm", "-f", there);
            if (!Files.isRegularFile(file)) {
                throw new IllegalStateException("the recording of " + service.name() + " was not copied back to "
                        + file);
            }
            return;
        }
        Path written = hostRecordings.resolve(file.getFileName());
        if (!Files.isRegularFile(written)) {
            throw new IllegalStateException("the recording of " + service.name() + " did not reach " + written
                    + ": is jfr/ writable for the containers' uid 1000? (compose.yaml's jfr-dir service opens it)");
        }
        try {
            Files.createDirectories(file.getParent());
            Files.move(written, file, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot move " + written + " to " + file + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void collectGarbage(ServiceProcess service) {
        jcmd(service, "GC.run");
    }

    private static String container(ServiceProcess service) {
        if (service instanceof ContainerService c) {
            return c.container();
        }
        throw new IllegalStateException(service.name() + " is not a container");
    }

    // jcmd reports some failures (a file it cannot write, a recording it does not know) with exit code 0.
    private void jcmd(ServiceProcess service, String... command) {
        String[] args = new String[command.length + 5];
        System.arraycopy(new String[] {"exec", "-T", service.name(), "jcmd", "1"}, 0, args, 0, 5);
        System.arraycopy(command, 0, args, 5, command.length);
        String out = compose.run(JCMD, args);
        if (out.contains("Exception") || out.contains("Could not") || out.contains("No available recording")) {
            throw new IllegalStateException("jcmd 1 " + String.join(" ", command) + " in " + service.name()
                    + " failed:\n" + out);
        }
    }
}
