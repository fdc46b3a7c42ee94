package io.threadlab.experiment.analyse;

import com.fasterxml.jackson.databind.JsonNode;
import io.threadlab.api.DatabaseWorkloads;
import io.threadlab.api.MistakeWorkloads;
import io.threadlab.api.SignatureWorkloads;
import io.threadlab.experiment.analyse.ThreadAnalysisTest.Recorded;
import io.threadlab.experiment.collect.Json;
import io.threadlab.experiment.start.LabDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static io.threadlab.experiment.analyse.ThreadAnalysisTest.record;
import static io.threadlab.experiment.analyse.ThreadAnalysisTest.recordRequests;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Recordings made here, with jfr/threads.jfc, of in-process workloads with the database windows' signatures (JDBC
 * through an Agroal-framed pool on workers and on virtual threads, the reactive client's event loop) against a
 * database stub on a port of its own, named and described as the runner's database windows are (results.json of
 * format 3 with at.downstream "db", the run's database port in its manifest's lab.db.url). The analysis must count
 * each group's reads from that port and its waits in the pool, judge each window by the database's expectations,
 * and say the explanation a recording shows; each contradicting recording must make that explanation disappear.
 */
class DatabaseWindowsTest {

    private static final Duration WINDOW = Duration.ofMillis(1200);
    private static final int WORKERS = 12;
    private static final int CONNECTIONS = 3;
    private static final int USERS = 64;
    private static final int VIRTUAL_CONNECTIONS = 8;
    private static final String IMPERATIVE = "imperative-db-10ms-closed-12-jfr-1";
    private static final String VIRTUAL = "virtual-thread-db-10ms-closed-64-jfr-1";
    private static final String REACTIVE = "reactive-db-10ms-closed-64-jfr-1";

    @TempDir
    static Path results;

    static SignatureWorkloads delay;
    static DatabaseWorkloads database;
    static ThreadAnalysis.Outcome outcome;

    @BeforeAll
    static void recordTheDatabaseWindowsAndAnalyseThem() throws Exception {
        delay = new SignatureWorkloads();
        database = new DatabaseWorkloads();
        database.jdbcOnVirtualThreads(2, 1, Duration.ofMillis(100)); // classes loaded unrecorded (ThreadAnalysisTest)
        Path jfr = Files.createDirectories(results.resolve("jfr"));
        // Each window's CPU per request measured as the runner measures it: without it, the analysis counts the
        // downstream calls from the recorded socket reads, and an event loop's non-blocking reads leave almost none
        // (once, on a loaded machine, 23 samples of the event loop's light work over one counted call read as heavy
        // request code at 410 ms a call).
        Recorded imperative = recordRequests(jfr.resolve(IMPERATIVE + ".jfr"),
                () -> database.jdbcOnWorkers(WORKERS, CONNECTIONS, WINDOW));
        Recorded virtual = recordRequests(jfr.resolve(VIRTUAL + ".jfr"),
                () -> database.jdbcOnVirtualThreads(USERS, VIRTUAL_CONNECTIONS, WINDOW));
        Recorded reactive = recordRequests(jfr.resolve(REACTIVE + ".jfr"), () -> database.reactive(USERS, WINDOW));
        Json.write(results.resolve("results.json"), Map.of("windows", List.of(row(IMPERATIVE, imperative),
                row(VIRTUAL, virtual), row(REACTIVE, reactive))));
        // The run's database port, where the default (PostgreSQL's own) is not the stub's: the manifest's must win.
        Json.write(results.resolve("manifest.json"), Map.of("format", 3, "knobs", Map.of("lab.db.url",
                "postgresql://127.0.0.1:" + database.databasePort() + "/lab")));
        Path metrics = Files.createDirectories(results.resolve("metrics"));
        Files.writeString(metrics.resolve(IMPERATIVE + "-before.prom"), agroal(2, 20, 65595, 1.0505118E7));
        Files.writeString(metrics.resolve(IMPERATIVE + "-after.prom"), agroal(0, 18, 69502, 1.0601321E7));
        outcome = new ThreadAnalysis(delay.delayPort(), LabDatabase.PORT).analyse(results);
    }

    /** A results.json row as format 3 writes it, as far as the analysis reads it. */
    private static Map<String, Object> row(String window, Recorded recorded) {
        return Map.of("window", Map.of("id", window, "jfr_file", "jfr/" + window + ".jfr"),
                "at", Map.of("downstream", "db", "delay_ms", 10),
                "cpu", Map.of("cpu_ms_per_request", recorded.cpuMsPerRequest()));
    }

    /** Agroal's metrics as Quarkus publishes them (the real run's imperative-db-10ms-closed-50-jfr-1 edges). */
    static String agroal(double awaiting, double active, double acquired, double blockedMs) {
        return String.format(Locale.ROOT, """
                # TYPE agroal_awaiting_count gauge
                agroal_awaiting_count{datasource="default"} %s
                agroal_active_count{datasource="default"} %s
                agroal_acquire_count_total{datasource="default"} %s
                agroal_blocking_time_total_milliseconds{datasource="default"} %s
                """, awaiting, active, acquired, blockedMs);
    }

    @AfterAll
    static void stopTheStubs() throws IOException {
        delay.close();
        database.close();
    }

    private static RecordingAnalysis analysis(String window) {
        return outcome.analyses().stream().filter(a -> a.window().equals(window)).findFirst().orElseThrow();
    }

    private static JsonNode json(String window) throws IOException {
        for (JsonNode recording : Json.MAPPER.readTree(outcome.json().toFile()).get("recordings")) {
            if (recording.get("window").asText().equals(window)) {
                return recording;
            }
        }
        throw new AssertionError("no " + window + " in analysis.json");
    }

    private RecordingAnalyzer analyzer() {
        return new RecordingAnalyzer(delay.delayPort(), database.databasePort());
    }

    @Test
    void eachDatabaseWindowIsJudgedByTheDatabasesSignatureAndMatchesIt() throws IOException {
        assertThat(outcome.failures()).isEmpty();
        for (RecordingAnalysis a : outcome.analyses()) {
            assertThat(a.downstream().database()).as(a.window()).isTrue();
            assertThat(a.downstream().from()).isEqualTo(WindowDownstream.FROM_RESULTS);
            assertThat(a.downstream().port()).isEqualTo(database.databasePort());
            Verdicts v = Verdicts.of(a);
            assertThat(v.unexpected()).as(a.window()).isEmpty();
            assertThat(v.mistakes()).as(a.window()).isEmpty(); // Agroal's waits are no REST client's pool cap
            assertThat(v.findings()).as(a.window()).noneMatch(f -> f.contains("delay service"));
            JsonNode json = json(a.window());
            assertThat(json.get("downstream").asText()).isEqualTo("db");
            assertThat(json.get("downstream_peer").asText()).isEqualTo("PostgreSQL");
            assertThat(json.get("downstream_port").asInt()).isEqualTo(database.databasePort());
        }
        assertThat(ThreadAnalysis.table(outcome.analyses())).doesNotContain("UNEXPECTED")
                .containsPattern(IMPERATIVE + " +1 ms +db ");
    }

    @Test
    void imperativeWorkersReadFromTheDatabaseAndParkInThePool() throws IOException {
        RecordingAnalysis a = analysis(IMPERATIVE);
        GroupStats workers = a.group(ThreadKind.WORKER);
        assertThat(workers.database().readers).hasSize(WORKERS);
        assertThat(workers.database().reads.count()).isGreaterThan(100);
        assertThat(workers.database().reads.percentile(50)).isGreaterThanOrEqualTo(9.0); // the 10 ms query
        assertThat(workers.delayService().reads.count()).isZero();
        assertThat(a.databasePool().readsInFlight().max()).isEqualTo(CONNECTIONS);
        // 12 workers on 3 connections: most of each request is the wait for one
        assertThat(workers.poolWaits.count()).isGreaterThan(100);
        assertThat(workers.threadsWaitingForPool).hasSizeGreaterThan(CONNECTIONS);
        assertThat(a.group(ThreadKind.EVENT_LOOP).poolWaits.count()).isZero();
        WaitSites.Site site = a.databasePool().sites().getFirst();
        assertThat(site.on()).isEqualTo("java.util.concurrent.LinkedTransferQueue");
        assertThat(site.site()).startsWith("io.agroal.pool.ConnectionPool.handlerFromSharedCache:");
        assertThat(a.signals().poolWaits().count()).as("not the REST client's pool").isZero();

        JsonNode worker = json(IMPERATIVE).get("groups").get("worker");
        assertThat(worker.get("socket_reads_downstream").get("count").asLong())
                .isEqualTo(worker.get("socket_reads_database").get("count").asLong())
                .isEqualTo(workers.database().reads.count());
        assertThat(worker.get("database_pool_waits").get("count").asLong()).isEqualTo(workers.poolWaits.count());
        List<String> findings = Verdicts.of(a).findings();
        assertThat(findings).contains(String.format(Locale.ROOT, "database waits happen on %d executor threads: %,d"
                        + " socket reads from PostgreSQL (port %d) of 1 ms or more, p50 %.1f ms, p99 %.1f ms (%.1f"
                        + " thread-seconds of waiting in %.1f s); at most %d reads from PostgreSQL were in flight at"
                        + " once, %.1f on average", WORKERS, workers.database().reads.count(), database.databasePort(),
                workers.database().reads.percentile(50), workers.database().reads.percentile(99),
                workers.database().reads.totalMs() / 1000, a.seconds(), CONNECTIONS,
                a.databasePool().readsInFlight().mean()));
        assertThat(findings).anyMatch(f -> f.startsWith(String.format(Locale.ROOT, "executor threads waited for a"
                + " pooled connection %,d times (parks of 1 ms or more, mostly on"
                + " java.util.concurrent.LinkedTransferQueue at io.agroal.pool.ConnectionPool.handlerFromSharedCache:",
                workers.poolWaits.count())));
    }

    @Test
    void thePoolsOwnNumbersAtTheWindowsEdgesAreSaid() throws IOException {
        PoolGauges edges = analysis(IMPERATIVE).databasePool().edges();
        assertThat(edges.pool()).isEqualTo("Agroal");
        assertThat(edges.acquisitions()).isEqualTo(3907.0);
        assertThat(edges.waitedMs()).isEqualTo(96203.0);
        assertThat(Verdicts.of(analysis(IMPERATIVE)).findings()).contains("the pool's own numbers at the window's"
                + " edges (Agroal: agroal_awaiting_count): 2, then 0 waiting for a connection, 20, then 18 connections in"
                + " use; between the edges 3,907 acquisitions waited 96.2 s for a connection in total, 24.6 ms each");
        assertThat(json(IMPERATIVE).get("database_pool").get("edges").get("acquisitions").asDouble()).isEqualTo(3907);
        // no scrape, no sentence: the reactive window has none here
        assertThat(analysis(REACTIVE).databasePool().edges()).isNull();
        assertThat(Verdicts.of(analysis(REACTIVE)).findings()).noneMatch(f -> f.contains("at the window's edges"));
        String markdown = Files.readString(outcome.markdown());
        assertThat(markdown).contains("The window's downstream: PostgreSQL, port " + database.databasePort()
                        + " (known from results.json)", "**Waits for a pooled database connection**",
                "- the pool's own numbers at the window's edges (Agroal: agroal_awaiting_count): 2, then 0",
                "**Pool waits (inside a JDBC pool), top sites by total wait**");
    }

    @Test
    void virtualThreadsReadThemselvesPinNothingAndTheirPoolWaitsShowAsTimeAlive() {
        RecordingAnalysis a = analysis(VIRTUAL);
        GroupStats virtuals = a.group(ThreadKind.VIRTUAL);
        assertThat(virtuals.database().reads.count()).isGreaterThan(100);
        assertThat(a.group(ThreadKind.WORKER).database().reads.count()).isZero();
        assertThat(a.databasePool().readsInFlight().max()).isEqualTo(VIRTUAL_CONNECTIONS);
        assertThat(a.virtualThreads().pinned().count()).isZero();
        assertThat(a.databasePool().pinnedThreshold()).isEqualTo("0 ms");
        // A virtual thread waits for a connection unmounted: no park event, whatever the JDK's threshold.
        assertThat(virtuals.parks.count()).isZero();
        assertThat(virtuals.poolWaits.count()).isZero();
        List<String> findings = Verdicts.of(a).findings();
        assertThat(findings).contains("0 jdk.VirtualThreadPinned recorded (from 0 ms): no virtual thread pinned its"
                + " carrier in the driver's reads or in the pool's waits");
        double alive = virtuals.lifetimes.totalMs();
        double reading = virtuals.database().reads.totalMs();
        assertThat(findings).contains(String.format(Locale.ROOT, "virtual threads' waits for a pooled connection leave"
                        + " no event: 0 jdk.ThreadPark on virtual threads (a virtual thread parks by unmounting, which"
                        + " the JVM's park event does not record); they lived %.1f thread-seconds (%,d ended), %.1f of"
                        + " them in socket reads from PostgreSQL: the rest, %.1f ms a virtual thread, is its wait for a"
                        + " connection and its CPU", alive / 1000, virtuals.lifetimes.count(), reading / 1000,
                (alive - reading) / virtuals.lifetimes.count()));
        // 64 users on 8 connections: each waits for a connection about 7 queries long
        assertThat((alive - reading) / virtuals.lifetimes.count()).isGreaterThan(30);
    }

    @Test
    void theReactiveClientsWaitsAreNoThreadWaits() {
        RecordingAnalysis a = analysis(REACTIVE);
        assertThat(a.group(ThreadKind.WORKER).database().reads.count()).isZero();
        assertThat(a.group(ThreadKind.VIRTUAL).threads).isEmpty();
        assertThat(a.groups().values()).allSatisfy(g -> assertThat(g.poolWaits.count()).isZero());
        List<String> findings = Verdicts.of(a).findings();
        assertThat(findings).anyMatch(f -> f.startsWith("no worker or virtual thread read from PostgreSQL (port "
                + database.databasePort() + "): the event loops did the database I/O, "));
        assertThat(findings).contains("its pool's waits are no thread waits: a query that finds every connection in"
                + " use waits in the client's queue, and no thread parks for it (0 parks in a JDBC pool of 1 ms or"
                + " more)");
    }

    /** The HTTP imperative signature in a database window: nothing read from PostgreSQL, so nothing is explained. */
    @Test
    void aDatabaseWindowWhoseWorkersNeverReadFromTheDatabaseIsUnexpected(@TempDir Path dir) throws Exception {
        Path file = dir.resolve(IMPERATIVE + ".jfr");
        record(file, () -> delay.imperative(WORKERS, Duration.ofMillis(600)));
        RecordingAnalysis a = analyzer().analyse(file);
        assertThat(a.downstream().database()).isTrue();
        assertThat(a.downstream().from()).isEqualTo(WindowDownstream.FROM_NAME);
        Verdicts v = Verdicts.of(a);
        assertThat(v.unexpected()).anyMatch(u -> u.startsWith("no executor thread read from PostgreSQL (port "
                + database.databasePort() + ", the window's name)"));
        assertThat(v.findings()).noneMatch(f -> f.startsWith("database waits happen on"))
                .noneMatch(f -> f.contains("waited for a pooled connection"));
        assertThat(ThreadAnalysis.table(List.of(a))).contains("UNEXPECTED: no executor thread read from PostgreSQL")
                .doesNotContain("as expected");
    }

    /** The database signature in an HTTP window: judged by the delay service, which no thread read from. */
    @Test
    void theDatabasesReadsAreNotTheDelayServicesInAnHttpWindow(@TempDir Path dir) throws Exception {
        Path file = Files.copy(results.resolve("jfr/" + IMPERATIVE + ".jfr"),
                dir.resolve("imperative-10ms-closed-12-jfr-1.jfr"));
        RecordingAnalysis a = analyzer().analyse(file);
        assertThat(a.downstream().database()).isFalse();
        assertThat(a.downstreamIo(ThreadKind.WORKER).reads.count()).isZero();
        assertThat(a.group(ThreadKind.WORKER).database().reads.count()).isGreaterThan(100);
        Verdicts v = Verdicts.of(a);
        assertThat(v.unexpected()).anyMatch(u -> u.startsWith("no executor thread read from the delay service"));
        assertThat(v.findings()).noneMatch(f -> f.contains("PostgreSQL"));
    }

    /** JDBC on the workers of a window judged as the reactive variant's: its pool explanation is gone. */
    @Test
    void jdbcWorkersInAReactiveDatabaseWindowAreUnexpected(@TempDir Path dir) throws Exception {
        Path file = Files.copy(results.resolve("jfr/" + IMPERATIVE + ".jfr"),
                dir.resolve("reactive-db-10ms-closed-12-jfr-1.jfr"));
        RecordingAnalysis a = analyzer().analyse(file);
        Verdicts v = Verdicts.of(a);
        assertThat(v.unexpected()).anyMatch(u -> u.contains("socket reads from PostgreSQL on worker threads"))
                .anyMatch(u -> u.startsWith("threads parked") && u.contains("in a JDBC pool, most at"
                        + " io.agroal.pool.ConnectionPool.handlerFromSharedCache:"));
        assertThat(v.findings()).noneMatch(f -> f.startsWith("its pool's waits are no thread waits"))
                .noneMatch(f -> f.startsWith("no worker or virtual thread read from PostgreSQL"));
    }

    /** A pool as large as the workers: no wait for a connection, and no sentence about one. */
    @Test
    void withAConnectionForEveryWorkerNoPoolWaitIsSaid(@TempDir Path dir) throws Exception {
        Path file = dir.resolve(IMPERATIVE + ".jfr");
        record(file, () -> database.jdbcOnWorkers(4, 4, Duration.ofMillis(600)));
        RecordingAnalysis a = analyzer().analyse(file);
        assertThat(a.group(ThreadKind.WORKER).poolWaits.count()).isZero();
        Verdicts v = Verdicts.of(a);
        assertThat(v.unexpected()).isEmpty();
        assertThat(v.findings()).noneMatch(f -> f.contains("waited for a pooled connection"))
                .contains("no executor thread parked in a JDBC pool (parks of 1 ms or more): a connection was free"
                        + " for every query");
    }

    @Test
    void aPinInADatabaseWindowIsUnexpectedAndTheUnpinnedSentenceGone(@TempDir Path dir) throws Exception {
        Path file = dir.resolve(VIRTUAL + ".jfr");
        // Each request defines a fresh class whose initialiser blocks: a pin every time, in any test order.
        MistakeWorkloads pins = new MistakeWorkloads(delay);
        record(file, () -> {
            database.jdbcOnVirtualThreads(8, 2, Duration.ofMillis(600));
            pins.pinnedInClassInitialisers(2, Duration.ofMillis(100));
        });
        RecordingAnalysis a = analyzer().analyse(file);
        assertThat(a.virtualThreads().pinned().count()).isPositive();
        Verdicts v = Verdicts.of(a);
        assertThat(v.unexpected()).anyMatch(u -> u.contains("pinned their carrier"));
        assertThat(v.findings()).noneMatch(f -> f.startsWith("0 jdk.VirtualThreadPinned"));
    }

    @Test
    void jdbcOnTheEventLoopIsNamedWithItsReadsFromPostgreSQL(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("reactive-db-10ms-closed-2-jfr-1.jfr");
        record(file, () -> database.jdbcOnEventLoop(1, WINDOW));
        RecordingAnalysis a = analyzer().analyse(file);
        List<Mistakes.Mistake> mistakes = Verdicts.of(a).mistakes();
        assertThat(mistakes).extracting(Mistakes.Mistake::name).containsExactly("jdbc-on-event-loop");
        Mistakes.Mistake m = mistakes.getFirst();
        assertThat(m.group()).isEqualTo("event_loop");
        assertThat(m.site()).startsWith("io.threadlab.api.");
        assertThat(((Number) m.numbers().get("reads")).longValue()).isEqualTo(
                a.group(ThreadKind.EVENT_LOOP).database().reads.count()).isGreaterThan(50);
        assertThat(((Number) m.numbers().get("pool_waits")).longValue()).isPositive(); // two loops, one connection
        assertThat(m.evidence()).startsWith("event loops blocked in JDBC's socket reads from PostgreSQL: ")
                .contains("waiting for a pooled connection");
        assertThat(ThreadAnalysis.table(List.of(a))).contains("MISTAKE jdbc-on-event-loop");
    }

    @Test
    void theLanesNameDatabaseReadsAndPoolWaitsWhereTheSliceHasThem() throws IOException {
        String imperative = Files.readString(outcome.lanes().get("imperative"));
        assertThat(imperative).contains("The requests wait on PostgreSQL (port " + database.databasePort() + ")",
                ThreadLanes.Activity.DATABASE_READ.label, ThreadLanes.Activity.DATABASE_READ.color,
                ThreadLanes.Activity.POOL_WAIT.label, ThreadLanes.Activity.POOL_WAIT.color)
                .doesNotContain(">" + ThreadLanes.Activity.SOCKET_READ.label + "<");
        String reactive = Files.readString(outcome.lanes().get("reactive"));
        assertThat(reactive).doesNotContain(ThreadLanes.Activity.POOL_WAIT.label);
    }

    /** The real run's two Agroal sites are pool waits; a driver's read and the REST client's pool are not. */
    @Test
    void aPoolWaitIsAWaitInsideAgroal() {
        assertThat(DatabasePool.isJdbcPool("io.agroal.pool.ConnectionPool.handlerFromSharedCache:348")).isTrue();
        assertThat(DatabasePool.isJdbcPool("io.agroal.pool.ConnectionPool.waitAvailableHandler:401")).isTrue();
        assertThat(DatabasePool.isJdbcPool("org.postgresql.core.VisibleBufferedInputStream.readMore:192")).isFalse();
        assertThat(DatabasePool.isJdbcPool("org.apache.http.pool.AbstractConnPool.getPoolEntryBlocking:393"))
                .isFalse();
    }

    /** A recording the runner did not name: the database window is known from the recording's own socket I/O. */
    @Test
    void anUnnamedRecordingsDownstreamIsTheOneItTalkedTo(@TempDir Path dir) throws Exception {
        RecordingAnalysis db = analyzer().analyse(Files.copy(results.resolve("jfr/" + IMPERATIVE + ".jfr"),
                dir.resolve("mine.jfr")));
        assertThat(db.downstream().database()).isTrue();
        assertThat(db.downstream().from()).isEqualTo(WindowDownstream.FROM_RECORDING);
        assertThat(Verdicts.of(db).unexpected()).isEmpty();
        Path http = dir.resolve("theirs.jfr");
        record(http, () -> delay.imperative(4, Duration.ofMillis(300)));
        assertThat(analyzer().analyse(http).downstream().database()).isFalse();
    }

    /** The analysis with the JVM's quota throttled in {@code throttled} of 100 periods, as a confined run records. */
    private static RecordingAnalysis throttled(RecordingAnalysis a, long throttled) {
        return new RecordingAnalysis(a.file(), a.start(), a.end(), a.groups(), a.virtualThreads(), a.gcPauseMs(),
                new RecordingAnalysis.Throttling(100, throttled, throttled * 10.0), a.eventCounts(), a.waitedAt(),
                a.cpu(), a.signals(), a.socketThreshold(), a.downstream(), a.databasePool(), a.measured());
    }

    private static List<String> mistakes(RecordingAnalysis a) {
        return Verdicts.of(a).mistakes().stream().map(Mistakes.Mistake::name).toList();
    }

    /**
     * The gallery's pool of 2 behind virtual threads: its edges as the real run scraped them (498 waiting at both,
     * 2 in use, 2.85 s an acquisition), its quota idle. The same edges throttled in 95 of 100 periods are the pool of
     * 20 at 500 users, CPU-bound: not named; nor a pool with no queue standing at both edges.
     */
    @Test
    void aPoolThatSetsThePaceWithCpuToSpareIsNamedAndOnlyThen() {
        RecordingAnalysis starved = analysis(VIRTUAL).withPoolEdges(new PoolGauges("Agroal", "agroal_awaiting_count",
                498, 498, 2.0, 2.0, 1403.0, 3_999_800.0));
        assertThat(mistakes(throttled(starved, 0))).containsExactly("database-pool-cap");
        Mistakes.Mistake m = Verdicts.of(throttled(starved, 0)).mistakes().getFirst();
        assertThat(m.group()).isEqualTo("virtual");
        assertThat(m.evidence()).startsWith("the database pool, not the CPU, set the pace: 498, then 498 callers waited"
                + " for a connection at the window's edges (Agroal, agroal_awaiting_count) with 2, then 2 connections"
                + " in use, each acquisition waited 2850.9 ms against the ");
        assertThat(mistakes(throttled(starved, 95))).isEmpty();
        assertThat(mistakes(starved)).as("no throttling recorded: whether CPU bound cannot be said").isEmpty();
        RecordingAnalysis burst = analysis(VIRTUAL).withPoolEdges(new PoolGauges("Agroal", "agroal_awaiting_count",
                498, 0, 2.0, 2.0, 1403.0, 3_999_800.0));
        assertThat(mistakes(throttled(burst, 0))).isEmpty();
        RecordingAnalysis quick = analysis(VIRTUAL).withPoolEdges(new PoolGauges("Agroal", "agroal_awaiting_count",
                30, 30, 2.0, 2.0, 1403.0, 1403.0 * 0.5));
        assertThat(mistakes(throttled(quick, 0))).as("waits shorter than a query").isEmpty();
    }

    /** A run of the virtual-thread variant's database window in {@code dir}: its recording and its results row. */
    private static RecordingAnalysis runOfTheVirtualThreadsWindow(Path dir) throws Exception {
        Files.createDirectories(dir.resolve("jfr"));
        Files.copy(results.resolve("jfr/" + VIRTUAL + ".jfr"), dir.resolve("jfr/" + VIRTUAL + ".jfr"));
        Json.write(dir.resolve("results.json"), Map.of("windows", List.of(Map.of("window", Map.of("id", VIRTUAL,
                "jfr_file", "jfr/" + VIRTUAL + ".jfr", "jvm_label", "virtual-thread", "jvm", 1), "at",
                Map.of("downstream", "db", "delay_ms", 10)))));
        return analysis(VIRTUAL);
    }

    /**
     * PostgreSQL's refusals in the recorded JVM's log, within the recording's span, name the pool beyond the
     * database's slots; the same lines outside the span, or too few, do not.
     */
    @Test
    void connectionsTheDatabaseRefusedInTheWindowAreNamedFromTheJvmsLog(@TempDir Path dir) throws Exception {
        RecordingAnalysis recorded = runOfTheVirtualThreadsWindow(dir);
        DateTimeFormatter clock = DateTimeFormatter.ofPattern("HH:mm:ss.SSS").withZone(ZoneId.systemDefault());
        String inside = clock.format(recorded.start().plus(Duration.between(recorded.start(), recorded.end())
                .dividedBy(2)));
        String before = clock.format(recorded.start().minusSeconds(30));
        String refusal = " WARN  [io.ag.pool] (agroal-11) Datasource '<default>': FATAL: sorry, too many clients"
                + " already\n";
        Files.createDirectories(dir.resolve("logs"));
        Files.writeString(dir.resolve("logs/virtual-thread-jvm1.log"), (before + refusal).repeat(50)
                + (inside + refusal).repeat(12));
        RecordingAnalysis a = new ThreadAnalysis(delay.delayPort(), database.databasePort()).analyse(dir).analyses()
                .getFirst();
        assertThat(a.databasePool().refusedConnections()).isEqualTo(12);
        assertThat(mistakes(a)).contains("database-refused-connections");
        assertThat(Verdicts.of(a).mistakes()).filteredOn(m -> m.name().equals("database-refused-connections"))
                .singleElement().satisfies(m -> assertThat(m.evidence()).startsWith("PostgreSQL refused 12 new"
                        + " connections during the window"));
        assertThat(mistakes(a.withRefusedConnections(9L))).doesNotContain("database-refused-connections");
        assertThat(mistakes(a.withRefusedConnections(null))).doesNotContain("database-refused-connections");
        Files.delete(dir.resolve("logs/virtual-thread-jvm1.log"));
        assertThat(new ThreadAnalysis(delay.delayPort(), database.databasePort()).analyse(dir).analyses().getFirst()
                .databasePool().refusedConnections()).as("no log: not known, not zero").isNull();
    }

    /**
     * PostgreSQL's own log, stamped with date, time and zone, says it where the JVM's does not (Quarkus 3.33.2's
     * Agroal logged none of 10,335 refusals): its lines within the recording's span are counted, the others not.
     */
    @Test
    void connectionsTheDatabaseRefusedInTheWindowAreNamedFromItsOwnLog(@TempDir Path dir) throws Exception {
        RecordingAnalysis recorded = runOfTheVirtualThreadsWindow(dir);
        DateTimeFormatter stamp = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS z").withZone(ZoneId.of("UTC"));
        String inside = stamp.format(recorded.start().plus(Duration.between(recorded.start(), recorded.end())
                .dividedBy(2)));
        String after = stamp.format(recorded.end().plusSeconds(30));
        String refusal = " [4724] FATAL:  sorry, too many clients already\n";
        Files.createDirectories(dir.resolve("logs"));
        Files.writeString(dir.resolve("logs/postgres.log"), (inside + refusal).repeat(15) + (after + refusal)
                .repeat(40) + inside + " [4103] FATAL:  the database system is starting up\n");
        Files.writeString(dir.resolve("logs/virtual-thread-jvm1.log"), "no refusal logged here\n");
        RecordingAnalysis a = new ThreadAnalysis(delay.delayPort(), database.databasePort()).analyse(dir).analyses()
                .getFirst();
        assertThat(a.databasePool().refusedConnections()).isEqualTo(15);
        assertThat(Verdicts.of(a).mistakes()).filteredOn(m -> m.name().equals("database-refused-connections"))
                .singleElement().satisfies(m -> assertThat(m.evidence()).contains("in its log, or the JVM's"));
    }
}
