package io.threadlab.experiment.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/** {@code docker compose} in the lab's checkout, with the run's settings as environment (they override .env). */
public final class ComposeCli {

    /** How much of a failed command's output goes into its message: a failed build prints thousands of lines. */
    private static final int FAILURE_LINES = 40;

    private final Path labHome;
    private final Map<String, String> env;
    private final List<String> files;

    /**
     * @param env   the run's settings, and what reaches its engine (DOCKER_HOST or DOCKER_CONTEXT)
     * @param files compose files in the lab's root, in order (none: compose.yaml alone, compose's own default)
     */
    public ComposeCli(Path labHome, Map<String, String> env, List<String> files) {
        this.labHome = labHome;
        this.env = env;
        this.files = List.copyOf(files);
    }

    /**
     * Fails fast, saying what is missing, unless the docker CLI, its compose plugin and this machine's engine all
     * answer.
     */
    public static void requireEngine() {
        requireClient();
        probe(Map.of(), "docker", "info", "--format", "{{.ServerVersion}}").ifPresent(out -> {
            throw missing("no Docker engine answers (`docker info` failed: " + out + "); start it (systemctl start"
                    + " docker, or dockerd)");
        });
    }

    /** Fails fast unless the docker CLI and its compose plugin are installed; asks no engine. */
    public static void requireClient() {
        requireCli();
        requirePlugin();
    }

    /** Fails fast unless the docker CLI is installed (the client alone: `docker version` asks the engine too). */
    public static void requireCli() {
        probe(Map.of(), "docker", "--version").ifPresent(out -> {
            throw missing("Docker is not installed here: no `docker` command (" + out + ")");
        });
    }

    /** Fails fast unless the docker CLI has its compose plugin. */
    public static void requirePlugin() {
        probe(Map.of(), "docker", "compose", "version").ifPresent(out -> {
            throw missing("the docker CLI has no compose plugin (`docker compose version` failed: " + out + ")");
        });
    }

    private static IllegalStateException missing(String what) {
        return new IllegalStateException("--engine compose needs Docker with the compose plugin and a running"
                + " engine, but " + what + ".\nStart Docker, or run without --engine to use local JVMs in cgroups.");
    }

    /**
     * A short docker command outside any run (no lab directory, no tracking), for checks before anything starts:
     * its output, or {@link DockerFailed} with the first line it said.
     */
    public static String check(Map<String, String> env, List<String> args) {
        List<String> command = new ArrayList<>(List.of("docker"));
        command.addAll(args);
        String[] out = new String[1];
        probe(env, out, command.toArray(String[]::new)).ifPresent(failed -> {
            throw new DockerFailed(failed);
        });
        return out[0];
    }

    /** Empty when the command exits 0 within 30 s; else the first line of what it said. */
    private static Optional<String> probe(Map<String, String> env, String... command) {
        return probe(env, new String[1], command);
    }

    private static Optional<String> probe(Map<String, String> env, String[] output, String... command) {
        String out;
        try {
            ProcessBuilder builder = new ProcessBuilder(command);
            reach(builder, env);
            Process p = builder.start();
            p.getOutputStream().close();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return Optional.of("no answer within 30 s");
            }
            out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            String errors = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (p.exitValue() == 0) {
                output[0] = out;
                return Optional.empty();
            }
            out = errors.isEmpty() ? out : errors;
        } catch (IOException e) {
            out = e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            out = "interrupted";
        }
        return Optional.of(firstLine(out));
    }

    /**
     * Gives a docker command the environment that reaches its engine ({@code DOCKER_HOST}, {@code DOCKER_CONTEXT}):
     * an empty value unsets the variable, as the docker CLI reads it.
     */
    public static void reach(ProcessBuilder builder, Map<String, String> env) {
        builder.environment().putAll(env);
        builder.environment().entrySet().removeIf(e -> e.getValue().isEmpty() && e.getKey().startsWith("DOCKER_"));
    }

    /** Runs {@code docker compose <args>}; returns its output, or fails with the end of it. */
    public String run(Duration timeout, String... args) {
        List<String> command = new ArrayList<>(List.of("docker", "compose"));
        files.forEach(f -> command.addAll(List.of("--file", f)));
        command.addAll(List.of(args));
        return execute(command, timeout);
    }

    /** Runs {@code docker <args>} (not compose). */
    public String docker(Duration timeout, String... args) {
        List<String> command = new ArrayList<>(List.of("docker"));
        command.addAll(List.of(args));
        return execute(command, timeout);
    }

    // The output goes to a file, not a pipe: a pipe read to its end would wait for a hung docker forever, past the
    // timeout. The process is tracked, so Ctrl-C stops it with everything else the run started.
    private String execute(List<String> command, Duration timeout) {
        Path output = null;
        try {
            output = Files.createTempFile("threadlab-docker-", ".log");
            ProcessBuilder builder = new ProcessBuilder(command).directory(labHome.toFile()).redirectErrorStream(true)
                    .redirectOutput(output.toFile()).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
            reach(builder, env);
            Process process = Processes.track(builder.start());
            boolean finished = process.waitFor(timeout.toSeconds(), TimeUnit.SECONDS);
            if (!finished) {
                Processes.stop(process, Duration.ofSeconds(10));
            }
            String out = Files.readString(output).trim();
            if (!finished) {
                throw new ComposeFailure(String.join(" ", command) + " did not finish within " + timeout.toSeconds()
                        + " s" + tail(out), out);
            }
            if (process.exitValue() != 0) {
                throw new ComposeFailure(String.join(" ", command) + " failed (exit " + process.exitValue() + ")"
                        + tail(out), out);
            }
            return out;
        } catch (IOException e) {
            throw new IllegalStateException("cannot run docker: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted during " + String.join(" ", command));
        } finally {
            if (output != null) {
                try {
                    Files.deleteIfExists(output);
                } catch (IOException e) {
                    // a temporary file left behind is harmless
                }
            }
        }
    }

    /** A check's docker command that did not succeed, with the first line of what it said. */
    public static final class DockerFailed extends RuntimeException {
        public DockerFailed(String message) {
            super(message);
        }
    }

    /** A docker command that failed; its whole output is kept for callers that look for a known cause. */
    public static final class ComposeFailure extends IllegalStateException {
        private final String output;

        ComposeFailure(String message, String output) {
            super(message);
            this.output = output;
        }

        public String output() {
            return output;
        }
    }

    private static String tail(String out) {
        if (out.isBlank()) {
            return "";
        }
        List<String> lines = out.lines().toList();
        return ":\n" + (lines.size() > FAILURE_LINES ? "[... " + (lines.size() - FAILURE_LINES) + " lines]\n" : "")
                + String.join("\n", lines.subList(Math.max(0, lines.size() - FAILURE_LINES), lines.size()));
    }

    private static String firstLine(String text) {
        return text == null || text.isBlank() ? "(no output)" : text.lines().findFirst().orElse(text);
    }
}
