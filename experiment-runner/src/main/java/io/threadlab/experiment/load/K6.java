package io.threadlab.experiment.load;

import io.threadlab.experiment.process.Processes;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Finds k6: on PATH, else in the lab's tools directory, else installs the pinned version there with
 * {@code go install} (about 2 minutes the first time). k6 v2 is fine too; the scripts run on both.
 */
public final class K6 {

    public static final String PINNED = "v1.8.1";

    private final Path executable;
    private final String version;

    private K6(Path executable, String version) {
        this.executable = executable;
        this.version = version;
    }

    public Path executable() {
        return executable;
    }

    public String version() {
        return version;
    }

    public static K6 locate(Path toolsDir) {
        Optional<Path> found = onPath().or(() -> Optional.of(toolsDir.resolve("bin/k6")).filter(Files::isExecutable));
        Path k6 = found.orElseGet(() -> install(toolsDir));
        return new K6(k6, versionOf(k6));
    }

    /** Whether {@link #locate} can find or build k6 here, without building it. */
    public static boolean obtainable(Path toolsDir) {
        return onPath().isPresent() || Files.isExecutable(toolsDir.resolve("bin/k6")) || hasGo();
    }

    private static Optional<Path> onPath() {
        String path = System.getenv().getOrDefault("PATH", "");
        for (String dir : path.split(":")) {
            Path candidate = Path.of(dir.isEmpty() ? "." : dir, "k6");
            if (Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    private static Path install(Path toolsDir) {
        Path bin = toolsDir.resolve("bin");
        if (!hasGo()) {
            throw new IllegalStateException("""
                    k6 is not on PATH and Go is not installed to build it.
                    Install k6 (https://grafana.com/docs/k6/latest/set-up/install-k6/) and put it on PATH, or install Go
                    and run:  GOBIN=%s go install go.k6.io/k6@%s""".formatted(bin.toAbsolutePath(), PINNED));
        }
        System.out.println("k6 not found: installing " + PINNED + " into " + bin + " with go install (about 2 min)...");
        try {
            Files.createDirectories(bin);
            ProcessBuilder go = new ProcessBuilder("go", "install", "go.k6.io/k6@" + PINNED).inheritIO();
            go.environment().putAll(Map.of("GOBIN", bin.toAbsolutePath().toString()));
            Process process = Processes.track(go.start());
            if (!process.waitFor(15, TimeUnit.MINUTES) || process.exitValue() != 0) {
                Processes.stop(process, java.time.Duration.ofSeconds(5));
                throw new IllegalStateException("go install go.k6.io/k6@" + PINNED + " failed; install k6 by hand");
            }
            return bin.resolve("k6");
        } catch (IOException e) {
            throw new IllegalStateException("cannot install k6: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while installing k6");
        }
    }

    private static boolean hasGo() {
        return Processes.succeeds(java.time.Duration.ofSeconds(10), "go", "version");
    }

    private static String versionOf(Path k6) {
        try {
            Process p = new ProcessBuilder(k6.toString(), "version").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            p.waitFor(10, TimeUnit.SECONDS);
            return out.lines().findFirst().orElse("unknown");
        } catch (IOException e) {
            throw new IllegalStateException("k6 at " + k6 + " does not run: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }
}
