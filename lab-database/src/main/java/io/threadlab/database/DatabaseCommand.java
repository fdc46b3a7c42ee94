package io.threadlab.database;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;

/** {@code java -jar lab-database/target/lab-database.jar}: the lab's PostgreSQL, by hand. */
@Command(name = "lab-database", mixinStandardHelpOptions = true, version = "quarkus-thread-lab 1.0",
        description = "The lab's PostgreSQL: unpacked from the jar, started, loaded with the lab's data.",
        subcommands = DatabaseCommand.Serve.class)
public final class DatabaseCommand implements Callable<Integer> {

    @Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(execute(args));
    }

    static int execute(String... args) {
        return execute(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args);
    }

    static int execute(PrintWriter out, PrintWriter err, String... args) {
        CommandLine cli = new CommandLine(new DatabaseCommand()).setOut(out).setErr(err);
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            commandLine.getErr().println("lab-database: " + e.getMessage());
            if (e instanceof IllegalArgumentException) { // bad input found after parsing: usage error
                commandLine.usage(commandLine.getErr());
                return 2;
            }
            return 1;
        });
        return cli.execute(args);
    }

    @Override
    public Integer call() {
        spec.commandLine().getErr().println("lab-database: name a command, e.g. serve");
        spec.commandLine().usage(spec.commandLine().getErr());
        return 2;
    }

    @Command(name = "serve", mixinStandardHelpOptions = true, sortOptions = false, showDefaultValues = true,
            description = {"Start the lab's PostgreSQL and load its data, for `quarkus dev` and for tests by hand: "
                    + "prints the JDBC and reactive URLs, user and password, and runs until Ctrl-C, which stops "
                    + "PostgreSQL and removes everything it unpacked and wrote.",
                    "As root, PostgreSQL runs as an unprivileged account (--run-as): it refuses root."})
    static final class Serve implements Callable<Integer> {

        private static final PostgresSettings DEFAULTS = PostgresSettings.defaults();
        private static final DataSize SIZE = DataSize.defaults();

        @Spec
        CommandLine.Model.CommandSpec spec;

        @Option(names = "--port", paramLabel = "PORT", description = "TCP port.")
        int port = DEFAULTS.port();

        @Option(names = "--listen", paramLabel = "ADDRESSES", description = "Listen addresses (0.0.0.0 in a "
                + "container, so that other containers reach it).")
        String listen = DEFAULTS.listenAddresses();

        @Option(names = "--max-connections", paramLabel = "N", description = "max_connections.")
        int maxConnections = DEFAULTS.maxConnections();

        @Option(names = "--shared-buffers", paramLabel = "SIZE", description = "shared_buffers, with its unit.")
        String sharedBuffers = DEFAULTS.sharedBuffers();

        @Option(names = "--work-mem", paramLabel = "SIZE", description = "work_mem, with its unit.")
        String workMem = DEFAULTS.workMem();

        @Option(names = "--fsync", paramLabel = "on|off", description = "fsync.")
        String fsync = DEFAULTS.fsync() ? "on" : "off";

        @Option(names = "--synchronous-commit", paramLabel = "MODE", description = "synchronous_commit.")
        String synchronousCommit = DEFAULTS.synchronousCommit();

        @Option(names = "--articles", paramLabel = "N", description = "Articles.")
        int articles = SIZE.articles();

        @Option(names = "--comments-per-article", paramLabel = "N", description = "Comments per article.")
        int commentsPerArticle = SIZE.commentsPerArticle();

        @Option(names = "--authors", paramLabel = "N", description = "Authors.")
        int authors = SIZE.authors();

        @Option(names = "--wait-ms", paramLabel = "MS", description = "How long the page query waits server-side "
                + "(lab_wait.ms), 0 to 60000.")
        int waitMs = 0;

        @Option(names = "--run-as", paramLabel = "ACCOUNT", description = "The unprivileged account PostgreSQL runs "
                + "as when this runs as root.")
        String runAs = ServerAccount.DEFAULT_WHEN_ROOT;

        @Option(names = "--ready-file", paramLabel = "PATH", description = "A file made once the data is loaded and "
                + "removed at the end (a container's healthcheck looks for it).")
        Path readyFile;

        @Option(names = "--keep-log", paramLabel = "PATH", description = "Where to copy PostgreSQL's log when it stops"
                + " (the runner keeps it with its results); otherwise it goes with everything else.")
        Path keepLog;

        @Override
        public Integer call() throws Exception {
            PostgresSettings settings = new PostgresSettings(port, listen, maxConnections, sharedBuffers, workMem,
                    onOff(fsync), synchronousCommit, DEFAULTS.maxParallelWorkersPerGather(), DEFAULTS.jit());
            DataSize size = new DataSize(articles, commentsPerArticle, authors);
            if (waitMs < 0 || waitMs > 60_000) {
                throw new IllegalArgumentException("--wait-ms must be 0 to 60000, not " + waitMs);
            }
            ServerAccount account = ServerAccount.choose(runAs);
            PrintWriter out = spec.commandLine().getOut();
            long begin = System.nanoTime();

            Path work = Files.createTempDirectory("lab-database-");
            Session session = new Session(work, readyFile, keepLog);
            Runtime.getRuntime().addShutdownHook(new Thread(session::end, "lab-database-serve-shutdown"));
            try {
                PostgresBinaries binaries = PostgresBinaries.unpack(work.resolve("postgres"));
                out.printf("PostgreSQL %s unpacked in %s into %s%n", binaries.version(), seconds(binaries.unpackTime()),
                        binaries.home());
                out.println(account.describe());
                PostgresServer server = PostgresServer.initdb(binaries, settings, account, work.resolve("server"));
                session.server = server;
                out.printf("initdb in %s%n", seconds(server.initdbTime()));
                server.start();
                Duration ready = server.awaitReady(Duration.ofSeconds(60));
                out.printf("ready %s after start (target: 10 s or less)%n", seconds(ready));
                LoadedData data = LabData.load(server, size);
                try (var connection = server.connect()) {
                    LabData.setWait(connection, waitMs);
                }
                out.printf("data loaded in %s: %,d authors, %,d articles, %,d comments (checksum %s); page query "
                                + "waits %d ms%n", seconds(data.loadTime()), size.authors(), size.articles(),
                        size.comments(), data.checksum(), waitMs);
                out.printf("up in %s from this command's start%n%n", seconds(Duration.ofNanos(System.nanoTime() - begin)));
                out.printf("JDBC URL:     %s%n", server.jdbcUrl());
                out.printf("Reactive URL: %s%n", server.reactiveUrl());
                out.printf("User:         %s%n", PostgresServer.USER);
                out.printf("Password:     %s%n", PostgresServer.PASSWORD);
                out.printf("Settings:     %s%n", settings.asMap());
                out.printf("%nquarkus dev:  -Dquarkus.datasource.jdbc.url=%s -Dquarkus.datasource.reactive.url=%s "
                                + "-Dquarkus.datasource.username=%s -Dquarkus.datasource.password=%s%n", server.jdbcUrl(),
                        server.reactiveUrl(), PostgresServer.USER, PostgresServer.PASSWORD);
                out.printf("%nCtrl-C stops PostgreSQL and removes %s.%n", work);
                out.flush();
                if (readyFile != null) {
                    Files.writeString(readyFile, server.jdbcUrl() + "\n");
                }
                CompletableFuture<String> died = new CompletableFuture<>();
                server.whenDiedMidRun(died::complete);
                spec.commandLine().getErr().println("lab-database: " + died.join());
                return 1;
            } finally {
                session.end(); // also on Ctrl-C, from the hook: whichever comes first does it, the other waits
            }
        }

        private static boolean onOff(String value) {
            return switch (value.toLowerCase(Locale.ROOT)) {
                case "on", "true" -> true;
                case "off", "false" -> false;
                default -> throw new IllegalArgumentException("--fsync must be on or off, not '" + value + "'");
            };
        }

        private static String seconds(Duration duration) {
            return String.format(Locale.ROOT, "%.2f s", duration.toNanos() / 1e9);
        }
    }

    /** What serve made, removed once: the server (stopped first), then everything unpacked and written. */
    private static final class Session {
        private final Path work;
        private final Path readyFile;
        private final Path keepLog;
        volatile PostgresServer server;
        private boolean ended;

        Session(Path work, Path readyFile, Path keepLog) {
            this.work = work;
            this.readyFile = readyFile;
            this.keepLog = keepLog;
        }

        synchronized void end() {
            if (ended) {
                return;
            }
            ended = true;
            try {
                if (readyFile != null) {
                    Files.deleteIfExists(readyFile);
                }
                if (server != null) {
                    server.close();
                    if (keepLog != null && Files.exists(server.log())) {
                        Files.copy(server.log(), keepLog, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                    }
                }
            } catch (IOException | RuntimeException e) {
                System.err.println("lab-database: " + e.getMessage());
            } finally {
                try (Stream<Path> tree = Files.walk(work)) {
                    tree.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                    System.out.println("lab-database: PostgreSQL stopped, " + work + " removed");
                } catch (IOException e) {
                    System.err.println("lab-database: cannot remove " + work + ": " + e);
                }
            }
        }
    }
}
