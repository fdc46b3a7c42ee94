package io.threadlab.experiment.load;

import io.threadlab.experiment.process.Processes;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Finds k6: on PATH, else where its installers put it (Go's own bin directory, /usr/local/bin), else in the lab's tools
 * directory, else installs the pinned version there with {@code go install} (about 2 minutes the first time), Go
 * itself found on PATH or where its installers put it (/usr/local/go/bin, the official tarball's). A shell without
 * those directories on PATH (a non-login one, a CI step) still finds them. k6 v2 is fine too; the scripts run on both.
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
        Path k6 = found(toolsDir).orElseGet(() -> install(toolsDir));
        return new K6(k6, versionOf(k6));
    }

    /** Whether {@link #locate} can find or build k6 here, without building it. */
    public static boolean obtainable(Path toolsDir) {
        return found(toolsDir).isPresent() || go().isPresent();
    }

    private static Optional<Path> found(Path toolsDir) {
        return executable("k6", installed(goBin(), Path.of("/usr/local/bin"), Path.of("/usr/bin"),
                Path.of("/snap/bin"), toolsDir.resolve("bin")));
    }

    /** Go: on PATH, else where its installers put it. */
    static Optional<Path> go() {
        String root = System.getenv("GOROOT");
        return executable("go", installed(root == null ? null : Path.of(root, "bin"), Path.of("/usr/local/go/bin"),
                Path.of("/usr/lib/go/bin"), home(".local/go/bin"))).filter(K6::runs);
    }

    /** Where {@code go install} puts what it builds by default: $GOBIN, else $GOPATH/bin, else ~/go/bin. */
    private static Path goBin() {
        String gobin = System.getenv("GOBIN");
        if (gobin != null && !gobin.isBlank()) {
            return Path.of(gobin);
        }
        String gopath = System.getenv("GOPATH");
        return gopath != null && !gopath.isBlank() ? Path.of(gopath.split(":")[0], "bin") : home("go/bin");
    }

    private static Path home(String dir) {
        String home = System.getProperty("user.home");
        return home == null ? null : Path.of(home, dir);
    }

    private static List<Path> installed(Path... dirs) {
        return Arrays.stream(dirs).filter(java.util.Objects::nonNull).toList();
    }

    /** The first {@code name} on PATH, else in {@code elsewhere}, in order. */
    private static Optional<Path> executable(String name, List<Path> elsewhere) {
        List<Path> dirs = new ArrayList<>();
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            dirs.add(Path.of(dir.isEmpty() ? "." : dir));
        }
        dirs.addAll(elsewhere);
        return dirs.stream().map(d -> d.resolve(name)).filter(Files::isExecutable).findFirst();
    }

    private static Path install(Path toolsDir) {
        Path bin = toolsDir.resolve("bin");
        Path go = go().orElseThrow(() -> new IllegalStateException("""
                k6 is not on PATH nor where its installers put it, and Go is not installed to build it (not on PATH,
                nor in /usr/local/go/bin).
                Install k6 (https://grafana.com/docs/k6/latest/set-up/install-k6/) and put it on PATH, or install Go
                and run:  GOBIN=%s go install go.k6.io/k6@%s""".formatted(bin.toAbsolutePath(), PINNED)));
        System.out.println("k6 not found: installing " + PINNED + " into " + bin + " with go install (about 2 min)...");
        try {
            Files.createDirectories(bin);
            ProcessBuilder build = new ProcessBuilder(go.toString(), "install", "go.k6.io/k6@" + PINNED).inheritIO();
            build.environment().putAll(Map.of("GOBIN", bin.toAbsolutePath().toString()));
            Process process = Processes.track(build.start());
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

    private static boolean runs(Path go) {
        return Processes.succeeds(java.time.Duration.ofSeconds(10), go.toString(), "version");
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
