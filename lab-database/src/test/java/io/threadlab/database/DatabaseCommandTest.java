package io.threadlab.database;

import io.threadlab.database.testing.RealPostgres;
import io.threadlab.database.testing.TestPostgres;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

class DatabaseCommandTest {

    private record Outcome(int exitCode, String out, String err) {
    }

    private static Outcome run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = DatabaseCommand.execute(new PrintWriter(out, true), new PrintWriter(err, true), args);
        return new Outcome(code, out.toString(), err.toString());
    }

    @Test
    void helpSaysWhatServeDoesAndItsDefaults() {
        Outcome help = run("serve", "--help");
        assertThat(help.exitCode()).isZero();
        assertThat(help.out()).contains("--port", "Default: 5432", "--max-connections", "Default: 200",
                "--articles", "Default: 1000", "--run-as", "Default: nobody", "Ctrl-C");
        assertThat(run("--help").exitCode()).isZero();
    }

    @Test
    void badInputIsAMessageAndExitCode2BeforeAnythingStarts() {
        assertBad(run("serve", "--port", "abc"), "--port");
        assertBad(run("serve", "--port", "70000"), "port must be 1 to 65535");
        assertBad(run("serve", "--articles", "0"), "articles must be 1 to");
        assertBad(run("serve", "--shared-buffers", "lots"), "shared buffers must be a whole amount with its unit");
        assertBad(run("serve", "--fsync", "maybe"), "--fsync must be on or off");
        assertBad(run("serve", "--synchronous-commit", "sometimes"), "synchronous commit must be one of");
        assertBad(run("serve", "--wait-ms", "-1"), "--wait-ms must be 0 to 60000");
        assertBad(run("serve", "--no-such-flag"), "--no-such-flag");
        assertBad(run(), "name a command");
    }

    private static void assertBad(Outcome outcome, String message) {
        assertThat(outcome.exitCode()).as(outcome.err()).isEqualTo(2);
        assertThat(outcome.err()).contains(message).contains("Usage:");
    }

    /** serve as a user runs it: up, answering on the printed URL; Ctrl-C (SIGINT) stops it and removes everything. */
    @Test
    @RealPostgres
    void serveRunsUntilCtrlCAndLeavesNothing() throws Exception {
        // A background job of a shell without job control starts with SIGINT ignored, and passes that on; a JVM
        // started so never sees Ctrl-C (it keeps an ignored SIGINT ignored), nor would serve.
        Assumptions.assumeFalse(sigintIgnored(), "SIGINT is ignored in this process (started as a background job"
                + " of a shell without job control), and so in serve: Ctrl-C cannot reach it here");
        Process serve = serve("--articles", "50");
        try {
            Served served = awaitServing(serve);
            try (Connection connection = DriverManager.getConnection(served.jdbcUrl, PostgresServer.USER,
                    PostgresServer.PASSWORD)) {
                assertThat(LabDataTest.count(connection, "SELECT count(*) FROM articles")).isEqualTo(50);
            }
            ServerProcesses.signal(serve.pid(), "INT");
            assertThat(serve.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(serve.exitValue()).as("a JVM ended by SIGINT").isEqualTo(130);
            assertThat(ServerProcesses.in(served.dataDirectory())).isEmpty();
            assertThat(served.work).doesNotExist();
        } finally {
            stop(serve);
        }
    }

    /** The database killed under serve: said so, exit code 1, and still nothing left. */
    @Test
    @RealPostgres
    void serveSaysSoWhenTheDatabaseIsKilledMidRun() throws Exception {
        Process serve = serve("--articles", "10");
        try {
            Served served = awaitServing(serve);
            String postmaster = Files.readAllLines(served.dataDirectory().resolve("postmaster.pid")).getFirst();
            ProcessHandle.of(Long.parseLong(postmaster)).orElseThrow().destroyForcibly();
            assertThat(serve.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(serve.exitValue()).isEqualTo(1);
            assertThat(new String(serve.getErrorStream().readAllBytes(), StandardCharsets.UTF_8))
                    .contains("the database died mid-run", "SIGKILL");
            assertThat(ServerProcesses.in(served.dataDirectory())).isEmpty();
            assertThat(served.work).doesNotExist();
        } finally {
            stop(serve);
        }
    }

    /** A serve the test did not see end is stopped as a user would (SIGTERM: it removes its PostgreSQL), then killed. */
    private static void stop(Process serve) throws InterruptedException {
        if (serve.isAlive()) {
            serve.destroy();
            if (!serve.waitFor(60, TimeUnit.SECONDS)) {
                serve.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    /** Whether this process started with SIGINT ignored (bit 2 of SigIgn in /proc/self/status); false elsewhere. */
    private static boolean sigintIgnored() throws IOException {
        Path status = Path.of("/proc/self/status");
        if (!Files.isReadable(status)) {
            return false;
        }
        return Files.readAllLines(status).stream().filter(l -> l.startsWith("SigIgn:")).findFirst()
                .map(l -> (Long.parseUnsignedLong(l.substring("SigIgn:".length()).trim(), 16) & (1L << 1)) != 0)
                .orElse(false);
    }

    private record Served(String jdbcUrl, Path work) {
        Path dataDirectory() {
            return work.resolve("server/data");
        }
    }

    private static Process serve(String... args) throws Exception {
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElseThrow(),
                "-cp", classPath, DatabaseCommand.class.getName(), "serve", "--port",
                String.valueOf(TestPostgres.freePort())));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).start();
    }

    private static Served awaitServing(Process serve) throws Exception {
        Pattern url = Pattern.compile("JDBC URL: +(\\S+)");
        Pattern removes = Pattern.compile("Ctrl-C stops PostgreSQL and removes (\\S+)\\.");
        String jdbcUrl = null;
        StringBuilder seen = new StringBuilder();
        BufferedReader out = new BufferedReader(new InputStreamReader(serve.getInputStream(), StandardCharsets.UTF_8));
        for (String line = out.readLine(); line != null; line = out.readLine()) {
            seen.append(line).append('\n');
            Matcher m = url.matcher(line);
            if (m.find()) {
                jdbcUrl = m.group(1);
            }
            m = removes.matcher(line);
            if (m.find()) {
                System.out.print(seen.toString().indent(2));
                Path work = Path.of(m.group(1));
                assertThat(work).isDirectory();
                return new Served(jdbcUrl, work);
            }
        }
        throw new AssertionError("serve ended before it was serving (exit " + serve.waitFor() + "):\n" + seen
                + new String(serve.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
    }
}
