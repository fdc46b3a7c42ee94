package io.threadlab.database.testing;

import io.threadlab.database.PostgresBinaries;
import io.threadlab.database.PostgresServer;
import io.threadlab.database.ServerProcesses;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** What the tests share: the binaries, unpacked once per test JVM, and the checks that nothing is left behind. */
public final class TestPostgres {

    private static PostgresBinaries binaries;

    private TestPostgres() {
    }

    /** The bundled binaries, unpacked on first use into a temp dir that the JVM's exit removes. */
    public static synchronized PostgresBinaries binaries() {
        if (binaries == null) {
            try {
                Path dir = Files.createTempDirectory("lab-database-test-binaries-");
                Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(dir)));
                binaries = PostgresBinaries.unpack(dir.resolve("postgres"));
                System.out.printf("[lab-database] PostgreSQL %s unpacked in %.2f s%n", binaries.version(),
                        binaries.unpackTime().toNanos() / 1e9);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return binaries;
    }

    /** A port free on loopback right now. */
    public static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** After close(): no process of the server's data directory runs, and the directory is gone. */
    public static void assertNothingLeft(PostgresServer server) {
        assertThat(ServerProcesses.in(server.dataDirectory())).as("PostgreSQL processes of " + server.dataDirectory())
                .isEmpty();
        assertThat(server.dataDirectory()).doesNotExist();
    }

    public static void deleteTree(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> tree = Files.walk(root)) {
            tree.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
