package io.threadlab.api;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.threadlab.database.DataSize;
import io.threadlab.database.LabData;
import io.threadlab.database.LoadedData;
import io.threadlab.database.PostgresBinaries;
import io.threadlab.database.PostgresServer;
import io.threadlab.database.PostgresSettings;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The lab's PostgreSQL for tests, real and unmocked (Dev Services would need an image registry the lab lacks), as
 * DelayServiceStub is a real HTTP server: lab-database's own server on a free loopback port, with the lab's data set
 * loaded (1,000 articles, lab_wait 0 ms), the datasource pointed at it; stopped, and everything it wrote removed, when
 * the test class ends. Declare it with {@code restrictToAnnotatedClass = true} and {@link RealPostgres}: only the
 * classes that need it start one, and a machine that cannot run it skips those, with the reason.
 */
public class LabPostgres implements QuarkusTestResourceLifecycleManager {

    /** Init argument: PostgreSQL's max_connections for this class; the lab's default otherwise. */
    public static final String MAX_CONNECTIONS = "max-connections";

    /** Marks the test field that receives the running server: to set lab_wait, stop it, or take its connections. */
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.FIELD)
    public @interface InjectServer {
    }

    /** Where this test JVM unpacked the binaries: a system property outlives the class loaders of Quarkus' restarts. */
    private static final String UNPACKED = "lab.test.postgres-binaries";

    private int maxConnections = PostgresSettings.defaults().maxConnections();
    private Path work;
    private PostgresServer server;

    @Override
    public void init(Map<String, String> initArgs) {
        if (initArgs.containsKey(MAX_CONNECTIONS)) {
            maxConnections = Integer.parseInt(initArgs.get(MAX_CONNECTIONS));
        }
    }

    @Override
    public Map<String, String> start() {
        long begin = System.nanoTime();
        try {
            work = Files.createTempDirectory("lab-postgres-test-");
            PostgresSettings lab = PostgresSettings.defaults();
            PostgresSettings settings = new PostgresSettings(freePort(), lab.listenAddresses(), maxConnections,
                    lab.sharedBuffers(), lab.workMem(), lab.fsync(), lab.synchronousCommit(),
                    lab.maxParallelWorkersPerGather(), lab.jit());
            server = PostgresServer.initdb(binaries(), settings, work);
            server.start();
            server.awaitReady(Duration.ofSeconds(60));
            LoadedData data = LabData.load(server, DataSize.defaults());
            System.out.printf("[LabPostgres] PostgreSQL %s on 127.0.0.1:%d (max_connections %d) with %,d articles "
                            + "(checksum %s), up in %.1f s; %s%n", server.binaries().version(), settings.port(),
                    maxConnections, data.size().articles(), data.checksum(), (System.nanoTime() - begin) / 1e9,
                    server.account().describe());
        } catch (IOException | SQLException | RuntimeException e) {
            stop();
            throw new IllegalStateException("the lab's PostgreSQL did not start for the tests: " + e.getMessage(), e);
        }
        return Map.of("lab.db.url", server.reactiveUrl(),
                "quarkus.datasource.username", PostgresServer.USER,
                "quarkus.datasource.password", PostgresServer.PASSWORD);
    }

    @Override
    public void inject(TestInjector injector) {
        injector.injectIntoFields(server,
                new TestInjector.AnnotatedAndMatchesType(InjectServer.class, PostgresServer.class));
    }

    @Override
    public void stop() {
        if (server != null) {
            server.close(); // stops it, if a test has not, and removes its data directory
        }
        deleteTree(work);
    }

    /** Sets how long THE query waits server-side, as the runner does between windows. */
    static void setWait(PostgresServer server, int ms) throws SQLException {
        try (Connection connection = server.connect()) {
            LabData.setWait(connection, ms);
        }
    }

    /** The binaries, unpacked once per test JVM into a directory its exit removes (1 to 2 s each time otherwise). */
    private static synchronized PostgresBinaries binaries() throws IOException {
        String unpacked = System.getProperty(UNPACKED);
        if (unpacked != null) {
            String[] homeAndVersion = unpacked.split("\n");
            return new PostgresBinaries(Path.of(homeAndVersion[0]), homeAndVersion[1], Duration.ZERO);
        }
        Path dir = Files.createTempDirectory("lab-postgres-test-binaries-");
        Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(dir)));
        PostgresBinaries binaries = PostgresBinaries.unpack(dir.resolve("postgres"));
        System.setProperty(UNPACKED, binaries.home() + "\n" + binaries.version());
        return binaries;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static void deleteTree(Path root) {
        if (root == null || !Files.exists(root)) {
            return;
        }
        try (Stream<Path> tree = Files.walk(root)) {
            tree.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
