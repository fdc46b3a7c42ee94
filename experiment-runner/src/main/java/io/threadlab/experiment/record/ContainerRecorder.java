package io.threadlab.experiment.record;

import io.threadlab.experiment.process.ComposeCli;
import io.threadlab.experiment.process.ServiceProcess;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;

/**
 * Containers: {@code docker compose exec <service> jcmd 1 ...} inside the container (the images carry a JDK for this),
 * writing to /recordings, which compose binds to the lab's jfr/ directory; the file is then moved into the run.
 */
public final class ContainerRecorder implements Recorder {

    private static final Duration JCMD = Duration.ofSeconds(60);

    private final Path hostRecordings;
    private final ComposeCli compose;

    public ContainerRecorder(Path labHome, ComposeCli compose) {
        this.hostRecordings = labHome.resolve("jfr");
        this.compose = compose;
    }

    @Override
    public void start(ServiceProcess service, Path file) {
        jcmd(service, "JFR.start", "name=" + FlightRecorder.NAME, "settings=/lab/threads.jfc",
                "filename=/recordings/" + file.getFileName());
    }

    @Override
    public void stop(ServiceProcess service, Path file) {
        jcmd(service, "JFR.stop", "name=" + FlightRecorder.NAME); // writes the file before it returns
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
