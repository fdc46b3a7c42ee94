package io.threadlab.experiment.record;

import io.threadlab.experiment.process.LocalProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The full collection that ends every warm-up, sent to a real JVM as the runner sends it to a local variant: the JVM's
 * own GC log says it ran one, for that command, and none before it.
 */
class FlightRecorderTest {

    @TempDir
    Path dir;

    @Test
    void collectsGarbageInARunningJvm() throws Exception {
        Path program = dir.resolve("Idle.java");
        Files.writeString(program, """
                public class Idle {
                    public static void main(String[] args) throws Exception {
                        System.out.println("ready");
                        Thread.sleep(60_000);
                    }
                }
                """);
        Path javaHome = Path.of(System.getProperty("java.home"));
        Path log = dir.resolve("idle.log");
        try (LocalProcess jvm = LocalProcess.start("idle", freePort(), List.of(javaHome.resolve("bin/java")
                .toString(), "-Xmx64m", "-XX:+UseSerialGC", "-Xlog:gc", program.toString()), log)) {
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (!Files.readString(log).contains("ready")) {
                assertThat(System.nanoTime()).as("waited 30 s for the JVM to start: " + jvm.logTail(20))
                        .isLessThan(deadline);
                Thread.sleep(100);
            }
            assertThat(Files.readString(log)).doesNotContain("Diagnostic Command");

            new FlightRecorder(javaHome, dir.resolve("unused.jfc")).collectGarbage(jvm);

            // jcmd returns once the collection is done, and the JVM logs it as it ends
            assertThat(Files.readString(log)).contains("Pause Full (Diagnostic Command)");
        }
    }

    private static int freePort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
