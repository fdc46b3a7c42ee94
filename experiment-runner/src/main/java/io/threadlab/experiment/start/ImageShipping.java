package io.threadlab.experiment.start;

import io.threadlab.experiment.process.ComposeCli;
import io.threadlab.experiment.process.Processes;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The images of another engine's run: built by this machine's engine (compose's own build, cached) and loaded into
 * the other one ({@code docker save | docker load}) where it lacks them or has other ones, so that both run the same
 * image ids and the other engine needs neither the base images nor Maven Central. Without an engine here, the other
 * engine builds them itself ({@code up --build}), from the same Dockerfiles.
 */
public final class ImageShipping {

    /** The first build downloads the Quarkus closure into the images; loading ~600 MB takes a minute. */
    private static final Duration BUILD = Duration.ofMinutes(30);
    private static final Duration SHORT = Duration.ofSeconds(60);
    /** compose.yaml's one-shot jfr-dir service runs this image; the others are built on it. */
    static final String BASE = "eclipse-temurin:25-jdk";

    private final ComposeCli here;
    private final ComposeCli there;
    private final Map<String, String> thereEnv;

    /**
     * @param here     compose on this machine's engine
     * @param there    compose on the other engine
     * @param thereEnv what reaches the other engine (DOCKER_HOST or DOCKER_CONTEXT)
     */
    ImageShipping(ComposeCli here, ComposeCli there, Map<String, String> thereEnv) {
        this.here = here;
        this.there = there;
        this.thereEnv = thereEnv;
    }

    /** Whether this machine has an engine to build with. */
    public static boolean engineHere() {
        try {
            ComposeCli.check(Map.of("DOCKER_HOST", "", "DOCKER_CONTEXT", ""), List.of("info", "--format",
                    "{{.ServerVersion}}"));
            return true;
        } catch (ComposeCli.DockerFailed e) {
            return false;
        }
    }

    /**
     * Builds the services here and loads into the other engine every image it does not have with the same id; returns
     * what it did per image ("loaded", "there already"), for the manifest.
     *
     * @param services compose's service names, whose images are {@code image(service)}
     */
    Map<String, String> ship(List<String> services, Map<String, String> images) {
        List<String> build = new ArrayList<>(List.of("build"));
        build.addAll(services);
        here.run(BUILD, build.toArray(String[]::new));
        Map<String, String> done = new LinkedHashMap<>();
        List<String> missing = new ArrayList<>();
        List<String> all = new ArrayList<>(List.of(BASE));
        services.forEach(s -> all.add(images.get(s)));
        for (String image : all) {
            String id = id(here, image);
            if (id.isEmpty()) {
                throw new IllegalStateException("this machine's engine has no image " + image + " to load into the"
                        + " other engine" + (image.equals(BASE) ? ": make it with scripts/prepare-base-images.sh"
                        : ""));
            }
            if (id.equals(id(there, image))) {
                done.put(image, "there already (" + abbreviate(id) + ")");
            } else {
                missing.add(image);
                done.put(image, "built here, loaded (" + abbreviate(id) + ")");
            }
        }
        if (!missing.isEmpty()) {
            System.out.println("  loading " + missing + " into the other engine (docker save | docker load)");
            copy(missing, thereEnv);
        }
        return done;
    }

    private static String id(ComposeCli compose, String image) {
        try {
            return compose.docker(SHORT, "image", "inspect", "--format", "{{.Id}}", image).strip();
        } catch (IllegalStateException e) {
            return "";
        }
    }

    /**
     * One pipeline: save {@code images} from this machine's engine, load them into the one {@code thereEnv} reaches;
     * both tracked, so Ctrl-C stops them.
     */
    public static void copy(List<String> images, Map<String, String> thereEnv) {
        List<String> save = new ArrayList<>(List.of("docker", "save"));
        save.addAll(images);
        ProcessBuilder saving = new ProcessBuilder(save);
        saving.environment().remove("DOCKER_HOST");
        saving.environment().remove("DOCKER_CONTEXT");
        saving.redirectError(ProcessBuilder.Redirect.DISCARD);
        ProcessBuilder loading = new ProcessBuilder("docker", "load", "--quiet");
        ComposeCli.reach(loading, thereEnv);
        Path output = null;
        try {
            output = Files.createTempFile("threadlab-docker-load-", ".log");
            loading.redirectErrorStream(true).redirectOutput(output.toFile());
            saving.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            List<Process> pipeline = ProcessBuilder.startPipeline(List.of(saving, loading));
            pipeline.forEach(Processes::track);
            Process last = pipeline.getLast();
            if (!last.waitFor(BUILD.toSeconds(), TimeUnit.SECONDS)) {
                pipeline.forEach(p -> Processes.stop(p, Duration.ofSeconds(5)));
                throw new IllegalStateException("docker save | docker load did not finish within "
                        + BUILD.toMinutes() + " min");
            }
            pipeline.getFirst().waitFor(SHORT.toSeconds(), TimeUnit.SECONDS);
            if (last.exitValue() != 0 || pipeline.getFirst().exitValue() != 0) {
                throw new IllegalStateException("docker save " + images + " | docker load (into the other engine)"
                        + " failed: " + Files.readString(output, StandardCharsets.UTF_8).strip());
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run docker save | docker load: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while loading images into the other engine");
        } finally {
            if (output != null) {
                output.toFile().delete();
            }
        }
    }

    private static String abbreviate(String id) {
        String hex = id.startsWith("sha256:") ? id.substring(7) : id;
        return hex.substring(0, Math.min(12, hex.length()));
    }
}
