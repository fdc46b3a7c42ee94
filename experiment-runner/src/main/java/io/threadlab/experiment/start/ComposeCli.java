package io.threadlab.experiment.start;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** {@code docker compose} in the lab's checkout, with the run's settings as environment (they override .env). */
public final class ComposeCli {

    private final Path labHome;
    private final Map<String, String> env;

    public ComposeCli(Path labHome, Map<String, String> env) {
        this.labHome = labHome;
        this.env = env;
    }

    /** Fails fast, saying what is missing, unless the docker CLI, its compose plugin and an engine all answer. */
    public static void requireEngine() {
        for (List<String> probe : List.of(List.of("docker", "compose", "version"), List.of("docker", "info"))) {
            String out;
            try {
                Process p = new ProcessBuilder(probe).redirectErrorStream(true).start();
                out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
                if (p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0) {
                    continue;
                }
            } catch (IOException e) {
                out = e.getMessage();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                out = "interrupted";
            }
            throw new IllegalStateException("--engine compose needs Docker with the compose plugin and a running"
                    + " engine, but `" + String.join(" ", probe) + "` failed: " + firstLine(out)
                    + "\nStart Docker, or run without --engine to use local JVMs in cgroups.");
        }
    }

    /** Runs {@code docker compose <args>}; returns its output, or fails with it. */
    public String run(Duration timeout, String... args) {
        List<String> command = new ArrayList<>(List.of("docker", "compose"));
        command.addAll(List.of(args));
        return execute(command, timeout);
    }

    /** Runs {@code docker <args>} (not compose). */
    public String docker(Duration timeout, String... args) {
        List<String> command = new ArrayList<>(List.of("docker"));
        command.addAll(List.of(args));
        return execute(command, timeout);
    }

    private String execute(List<String> command, Duration timeout) {
        try {
            ProcessBuilder builder = new ProcessBuilder(command).directory(labHome.toFile()).redirectErrorStream(true);
            builder.environment().putAll(env);
            Process process = Processes.track(builder.start());
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
                Processes.stop(process, Duration.ofSeconds(5));
                throw new IllegalStateException(String.join(" ", command) + " did not finish within "
                        + timeout.toSeconds() + " s");
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed:\n" + out.trim());
            }
            return out.trim();
        } catch (IOException e) {
            throw new IllegalStateException("cannot run docker: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted during " + String.join(" ", command));
        }
    }

    private static String firstLine(String text) {
        return text == null || text.isBlank() ? "(no output)" : text.lines().findFirst().orElse(text);
    }
}
