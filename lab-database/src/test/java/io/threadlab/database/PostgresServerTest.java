package io.threadlab.database;

import io.threadlab.database.testing.RealPostgres;
import io.threadlab.database.testing.TestPostgres;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.threadlab.database.testing.TestPostgres.assertNothingLeft;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

@RealPostgres
class PostgresServerTest {

    private static final Duration READY = Duration.ofSeconds(60);

    @TempDir
    Path work;

    private PostgresServer server() {
        return PostgresServer.initdb(TestPostgres.binaries(), PostgresSettings.defaults().withPort(TestPostgres.freePort()),
                work);
    }

    @Test
    void startsWithItsSettingsInForceAsTheRightAccountAndStopsLeavingNothing() throws Exception {
        PostgresServer server = server();
        try (server) {
            Process process = server.start();
            Duration ready = server.awaitReady(READY);
            System.out.printf("[lab-database] initdb %.2f s, start to ready %.2f s (target: 10 s or less)%n",
                    server.initdbTime().toNanos() / 1e9, ready.toNanos() / 1e9);

            assertThat(server.settingsInForce()).isEqualTo(server.settings().asMap());
            ServerAccount account = ServerAccount.choose();
            assertThat(process.info().user()).as(account.describe()).hasValue(account.name());
            try (Connection connection = server.connect();
                 ResultSet rs = connection.createStatement().executeQuery("SELECT current_user, version()")) {
                rs.next();
                assertThat(rs.getString(1)).isEqualTo(PostgresServer.USER);
                assertThat(rs.getString(2)).startsWith("PostgreSQL " + server.binaries().version());
            }
            // The server and its children, found by their working directory, all run as the account (a backend
            // whose connection just closed may be gone by the time it is asked: no user then).
            assertThat(ServerProcesses.in(server.dataDirectory()).stream().map(p -> p.info().user())
                    .flatMap(Optional::stream)).hasSizeGreaterThan(1).containsOnly(account.name());
            server.ensureRunning();
        }
        assertNothingLeft(server);
        assertThat(Files.readString(server.log())).as("a fast shutdown, logged by PostgreSQL")
                .contains("received fast shutdown request", "database system is shut down");
    }

    /** The runner's wrapper enrols the server into its CPU group, then execs it: the PID is the server's. */
    @Test
    void aCallersWrapperRunsInTheServersOwnProcess() throws Exception {
        PostgresServer server = server();
        Path pidFile = work.resolve("wrapper.pid");
        try (server) {
            Process process = server.start(List.of("sh", "-c", "echo $$ > " + pidFile + "; exec \"$@\"", "sh"));
            server.awaitReady(READY);
            String postmasterPid = Files.readAllLines(server.dataDirectory().resolve("postmaster.pid")).getFirst();
            assertThat(Files.readString(pidFile).trim()).isEqualTo(String.valueOf(process.pid()))
                    .isEqualTo(postmasterPid);
            assertThat(server.serverCommand()).startsWith("setsid").contains("-c", "max_connections=200");
        }
        assertNothingLeft(server);
    }

    @Test
    void aPortInUseIsNamed() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            PostgresServer server = PostgresServer.initdb(TestPostgres.binaries(),
                    PostgresSettings.defaults().withPort(taken.getLocalPort()), work);
            try (server) {
                assertThatThrownBy(server::start).isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("port " + taken.getLocalPort() + " on 127.0.0.1 is already in use")
                        .hasMessageContaining("choose another port");
                assertThat(server.postmaster()).isEmpty();
            }
            assertNothingLeft(server);
        }
    }

    @Test
    void aServerKilledMidRunIsDetectedAndItsOrphansStopped() throws Exception {
        PostgresServer server = server();
        try (server) {
            Process process = server.start();
            server.awaitReady(READY);
            CompletableFuture<String> died = new CompletableFuture<>();
            server.whenDiedMidRun(died::complete);
            try (Connection connection = server.connect()) { // a backend, orphaned by the kill below
                connection.createStatement().execute("SELECT 1");
                process.toHandle().destroyForcibly();
                assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();

                assertThatThrownBy(server::ensureRunning).isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("the database died mid-run")
                        .hasMessageContaining("killed by signal 9 (SIGKILL")
                        .hasMessageContaining("port " + server.settings().port());
                assertThat(died.get(30, TimeUnit.SECONDS)).contains("the database died mid-run");
            }
        }
        assertNothingLeft(server);
    }

    @Test
    void aServerThatIsStoppedIsNotReportedAsDied() throws Exception {
        PostgresServer server = server();
        CompletableFuture<String> died = new CompletableFuture<>();
        try (server) {
            server.start();
            server.awaitReady(READY);
            server.whenDiedMidRun(died::complete);
        }
        assertNothingLeft(server);
        Thread.sleep(200); // the exit's callbacks have run by now
        assertThat(died).isNotDone();
    }

    @Test
    void rootWithoutAnUnprivilegedAccountIsToldWhy() {
        assumeTrue(ServerAccount.choose().switched(), "only a lab running as root needs another account");
        assertThatThrownBy(() -> ServerAccount.choose("lab-no-such-account"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("the lab runs as root, which PostgreSQL refuses")
                .hasMessageContaining("'lab-no-such-account'; but there is no such account here");
        assertThatThrownBy(() -> ServerAccount.choose("root")).hasMessageContaining("is root (uid 0)");
    }

    @Test
    void aNonEmptyDataDirectoryIsRefused() throws Exception {
        Files.createDirectories(work.resolve("data"));
        assertThatThrownBy(this::server).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("it exists already");
        assertThat(work.resolve("data")).exists(); // not the lab's to remove
    }
}
