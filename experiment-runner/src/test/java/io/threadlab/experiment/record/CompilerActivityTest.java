package io.threadlab.experiment.record;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Follows the compiler of a real JVM, started as the runner starts the variants: with the lab's compiler recording
 * and a JFR repository of its own. The JVM runs a Java source file, so javac compiles in it and the JIT has work.
 */
class CompilerActivityTest {

    private static final Path SETTINGS = Path.of("../jfr/compiler.jfc").toAbsolutePath().normalize();

    @TempDir
    Path dir;

    @Test
    void followsTheCompilerOfARunningJvmFromItsRecording() throws Exception {
        Assumptions.assumeTrue(Files.isRegularFile(SETTINGS), "needs the lab's jfr/compiler.jfc beside the runner");
        Path repository = Files.createDirectories(dir.resolve("repository"));
        Path program = dir.resolve("Busy.java");
        Files.writeString(program, """
                import java.util.*;
                public class Busy {
                    public static void main(String[] args) throws Exception {
                        long end = System.nanoTime() + 60_000_000_000L;
                        Map<String, Integer> counts = new HashMap<>();
                        while (System.nanoTime() < end) {
                            for (int i = 0; i < 10_000; i++) {
                                counts.merge(Integer.toHexString(i * 31), i, Integer::sum);
                            }
                            counts.clear();
                            Thread.sleep(5);
                        }
                    }
                }
                """);
        Process jvm = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx128m", "-XX:+UseSerialGC", "-XX:StartFlightRecording=name=compiler,settings=" + SETTINGS,
                "-XX:FlightRecorderOptions=repository=" + repository, program.toString())
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            await(() -> hasChunkDirectory(repository), "the JVM's chunk directory in " + repository);
            try (CompilerActivity compiler = CompilerActivity.follow(repository)) {
                await(() -> compiler.snapshot().compilations() > 0 && compiler.snapshot().peakQueue() > 0,
                        "compiler statistics and queue events");
                CompilerActivity.Snapshot snapshot = compiler.snapshot();
                assertThat(snapshot.at()).as("the time of an event read, not the none it starts from")
                        .isAfter(Instant.EPOCH);
                assertThat(snapshot.codeBytes()).isPositive();
                assertThat(snapshot.c1Queue()).isNotNegative();
                assertThat(snapshot.c2Queue()).isNotNegative();
            }
        } finally {
            jvm.destroyForcibly();
            jvm.waitFor();
        }
    }

    private interface Condition {
        boolean holds() throws IOException;
    }

    private static void await(Condition condition, String what) throws Exception {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (!condition.holds()) {
            assertThat(System.nanoTime()).as("waited 30 s for " + what).isLessThan(deadline);
            Thread.sleep(100);
        }
    }

    private static boolean hasChunkDirectory(Path repository) throws IOException {
        try (Stream<Path> entries = Files.list(repository)) {
            return entries.anyMatch(Files::isDirectory);
        }
    }
}
