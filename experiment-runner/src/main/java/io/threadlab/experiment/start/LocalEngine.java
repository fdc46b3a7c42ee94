package io.threadlab.experiment.start;

import io.threadlab.experiment.confine.Confinement;
import io.threadlab.experiment.plan.Jvm;
import io.threadlab.experiment.process.LocalProcess;
import io.threadlab.experiment.process.PortCheck;
import io.threadlab.experiment.process.Processes;
import io.threadlab.experiment.process.ServiceProcess;
import io.threadlab.experiment.record.FlightRecorder;
import io.threadlab.experiment.record.Recorder;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * Local JVMs, each started inside its CPU group by the enrol-then-exec wrapper; JFR through this JDK's jcmd; each
 * JVM's compiler recording in a repository of its own under a temporary directory, removed at the end.
 */
public final class LocalEngine implements Engine {

    private final Confinement confinement;
    private final Recorder recorder;
    private final ServiceJars jars;
    private final Consumer<String> say;
    private Path repositories;

    public LocalEngine(Confinement confinement, Path javaHome, Path jfc, Path labHome, Consumer<String> say) {
        this.confinement = confinement;
        this.recorder = new FlightRecorder(javaHome, jfc);
        this.jars = new ServiceJars(labHome);
        this.say = say;
    }

    @Override
    public String name() {
        return "local";
    }

    @Override
    public Confinement confinement() {
        return confinement;
    }

    @Override
    public Recorder recorder() {
        return recorder;
    }

    @Override
    public void prepare(List<String> modules, List<Jvm> jvms) {
        jvms.forEach(jvm -> PortCheck.requireFree(jvm.port(), jvm.variant().module()));
        List<String> stale = jars.stale(modules);
        if (!stale.isEmpty()) {
            say.accept("Building " + stale + " (missing or older than their sources)...");
            jars.build(stale);
        }
    }

    @Override
    public ServiceProcess start(String module, int port, String group, OptionalDouble cpus, List<String> javaCommand,
                                Path log) {
        return LocalProcess.start(module, port, confinement.wrap(group, cpus, javaCommand), log);
    }

    @Override
    public synchronized Path compilerRepository(Jvm jvm) {
        try {
            if (repositories == null) {
                repositories = Files.createTempDirectory("threadlab-jfr-repositories-");
            }
            return Files.createDirectories(repositories.resolve(jvm.id()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make a JFR repository: " + e.getMessage(), e);
        }
    }

    @Override
    public List<Map<String, Object>> facts() {
        return List.of();
    }

    @Override
    public Map<String, Object> where() {
        return Map.of("kind", "this machine (local JVMs)", "same_machine", true);
    }

    @Override
    public synchronized void cleanUp() {
        Processes.stopAll();
        confinement.removeAll();
        if (repositories != null) {
            try (Stream<Path> files = Files.walk(repositories)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            } catch (IOException e) {
                System.err.println("WARNING: could not remove " + repositories + ": " + e.getMessage());
            }
        }
    }
}
