package io.threadlab.experiment.record;

import io.threadlab.experiment.start.ComposeCli;
import io.threadlab.experiment.start.ServiceProcess;

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

    private final Path hostRecordings;
    private final ComposeCli compose;

    public ContainerRecorder(Path labHome, ComposeCli compose) {
        this.hostRecordings = labHome.resolve("jfr");
        this.compose = compose;
    }

    @Override
    public void start(ServiceProcess service, Path file) {
        compose.run(Duration.ofSeconds(60), "exec", "-T", service.name(), "jcmd", "1", "JFR.start",
                "name=" + FlightRecorder.NAME, "settings=/lab/threads.jfc", "filename=/recordings/" + file.getFileName());
    }

    @Override
    public void stop(ServiceProcess service, Path file) {
        compose.run(Duration.ofSeconds(60), "exec", "-T", service.name(), "jcmd", "1", "JFR.stop",
                "name=" + FlightRecorder.NAME);
        try {
            Files.move(hostRecordings.resolve(file.getFileName()), file, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("the recording did not reach " + hostRecordings + " (is jfr/ writable for"
                    + " the containers' uid 1000?): " + e.getMessage(), e);
        }
    }
}
