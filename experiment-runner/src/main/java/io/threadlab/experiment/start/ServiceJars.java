package io.threadlab.experiment.start;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** Finds each service's packaged jar and rebuilds the ones missing or older than their sources. */
public final class ServiceJars {

    private final Path labHome;

    public ServiceJars(Path labHome) {
        this.labHome = labHome;
    }

    public Path jar(String module) {
        return labHome.resolve(module).resolve(module.equals(LabDatabase.MODULE) ? "target/lab-database.jar"
                : "target/quarkus-app/quarkus-run.jar");
    }

    public List<String> stale(List<String> modules) {
        return modules.stream().filter(this::isStale).toList();
    }

    /**
     * Runs {@code ./mvnw -q package -DskipTests -am} for the stale modules; its output goes to the console. With the
     * modules they need (lab-settings): in a fresh clone nothing of the lab is in the local Maven repository, and a
     * module built alone cannot resolve them.
     */
    public void build(List<String> modules) {
        if (modules.isEmpty()) {
            return;
        }
        List<String> command = new ArrayList<>(List.of(labHome.resolve("mvnw").toString(), "-q", "-B", "package",
                "-DskipTests", "-pl", String.join(",", modules), "-am"));
        try {
            Process mvn = new ProcessBuilder(command).directory(labHome.toFile()).inheritIO().start();
            int exit = mvn.waitFor();
            if (exit != 0) {
                throw new IllegalStateException("building " + modules + " failed (exit " + exit + "): "
                        + String.join(" ", command));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while building " + modules);
        }
    }

    private boolean isStale(String module) {
        Path jar = jar(module);
        if (!Files.exists(jar)) {
            return true;
        }
        try (Stream<Path> sources = Stream.concat(Stream.of(labHome.resolve(module).resolve("pom.xml")),
                Files.walk(labHome.resolve(module).resolve("src/main")))) {
            FileTime built = Files.getLastModifiedTime(jar);
            return sources.filter(Files::isRegularFile).anyMatch(source -> {
                try {
                    return Files.getLastModifiedTime(source).compareTo(built) > 0;
                } catch (IOException e) {
                    return true;
                }
            });
        } catch (IOException e) {
            return true;
        }
    }
}
