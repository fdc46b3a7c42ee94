package io.threadlab.experiment.analyse;

import io.threadlab.experiment.collect.Json;
import io.threadlab.experiment.plan.Downstream;
import io.threadlab.experiment.plan.FanOutMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Where the analysis finds a recorded window's delay and results.json row, in runs of every format. */
class RecordedWindowsTest {

    private static final Path RECORDING = Path.of("jfr/imperative-300ms-closed-3000-jfr-1.jfr");

    @Test
    void theRowOfTheRecordingGivesItsDelayAndNumbers(@TempDir Path run) {
        Json.write(run.resolve("results.json"), Map.of("windows", List.of(
                Map.of("jfr_file", "jfr/other.jfr", "delay_ms", 10),
                Map.of("jfr_file", "jfr/imperative-300ms-closed-3000-jfr-1.jfr", "delay_ms", 250,
                        "cpu_ms_per_request", 0.5, "per_second", List.of(100.0, 2.0, 100.0),
                        "measured_at", "2026-11-23T14:20:53Z"))));
        RecordedWindows windows = RecordedWindows.read(run);
        RecordedWindows.Row row = windows.row(RECORDING);
        assertThat(row.cpuMsPerRequest()).isEqualTo(0.5);
        assertThat(row.perSecond()).containsExactly(100.0, 2.0, 100.0);
        assertThat(row.measuredAt()).isEqualTo("2026-11-23T14:20:53Z");
        // the row wins over the name: it is what the delay service served
        assertThat(windows.delayMs(RECORDING, "imperative-300ms-closed-3000-jfr-1")).isEqualTo(250);
    }

    /** Today's rows keep each field in its group: window.jfr_file, at.delay_ms and at.downstream, cpu, load. */
    @Test
    void aFormatThreeRowIsReadFromItsGroupsWithItsDownstream(@TempDir Path run) {
        Json.write(run.resolve("results.json"), Map.of("windows", List.of(
                Map.of("window", Map.of("id", "imperative-db-10ms-closed-50-jfr-1",
                                "jfr_file", "jfr/imperative-db-10ms-closed-50-jfr-1.jfr",
                                "measured_at", "2026-11-25T00:18:12.858028164Z"),
                        "at", Map.of("downstream", "db", "delay_ms", 10, "users", 50),
                        "load", Map.of("per_second", List.of(993.3, 993.5)),
                        "cpu", Map.of("cpu_ms_per_request", 0.5156)),
                Map.of("window", Map.of("id", "imperative-10ms-closed-50-jfr-1",
                                "jfr_file", "jfr/imperative-10ms-closed-50-jfr-1.jfr"),
                        "at", Map.of("delay_ms", 10)))));
        Json.write(run.resolve("manifest.json"), Map.of("format", 3, "knobs", Map.of("lab.db.url",
                "postgresql://127.0.0.1:15432/lab", "lab.delay.ms", 10)));
        RecordedWindows windows = RecordedWindows.read(run);
        RecordedWindows.Row db = windows.row(Path.of("jfr/imperative-db-10ms-closed-50-jfr-1.jfr"));
        assertThat(db.cpuMsPerRequest()).isEqualTo(0.5156);
        assertThat(db.perSecond()).containsExactly(993.3, 993.5);
        assertThat(db.measuredAt()).isEqualTo("2026-11-25T00:18:12.858028164Z");
        assertThat(db.delayMs()).isEqualTo(10);
        assertThat(db.downstreamOrNull()).isEqualTo(Downstream.DB);
        RecordedWindows.Row http = windows.row(Path.of("jfr/imperative-10ms-closed-50-jfr-1.jfr"));
        assertThat(http.delayMs()).isEqualTo(10);
        assertThat(http.downstreamOrNull()).as("a row that does not say").isNull();
        assertThat(windows.databasePort()).isEqualTo(15432);
    }

    /** A fan-out window's row says its calls per request; else its name; else it made one call. */
    @Test
    void aFanOutWindowIsJudgedWithItsCallsPerRequest(@TempDir Path run) {
        Json.write(run.resolve("results.json"), Map.of("windows", List.of(
                Map.of("window", Map.of("id", "reactive-100ms-fan8-sequential-closed-10-jfr-1",
                                "jfr_file", "jfr/reactive-100ms-fan8-sequential-closed-10-jfr-1.jfr"),
                        "at", Map.of("delay_ms", 100, "fan_out", 8, "fan_out_mode", "sequential", "users", 10)))));
        RecordedWindows.Row row = RecordedWindows.read(run).row(
                Path.of("jfr/reactive-100ms-fan8-sequential-closed-10-jfr-1.jfr"));
        assertThat(WindowFanOut.of(row.fanOut(), row.fanOutMode(), "anything"))
                .isEqualTo(new WindowFanOut(8, FanOutMode.SEQUENTIAL));
        assertThat(WindowFanOut.of(null, null, "virtual-thread-100ms-fan16-closed-10-jfr-1"))
                .isEqualTo(new WindowFanOut(16, FanOutMode.PARALLEL));
        assertThat(WindowFanOut.of(null, null, "virtual-thread-100ms-closed-10-jfr-1")).isEqualTo(WindowFanOut.ONE);
        assertThat(WindowFanOut.of(null, null, "a recording of mine")).isEqualTo(WindowFanOut.ONE);
        assertThat(new WindowFanOut(16, FanOutMode.PARALLEL).describe())
                .isEqualTo("16 calls to the delay service per request in parallel");
    }

    @Test
    void aRunWithoutTheDatabaseNamesNoDatabasePort(@TempDir Path run) {
        Json.write(run.resolve("manifest.json"), Map.of("format", 3, "knobs", Map.of("lab.delay.ms", 10)));
        assertThat(RecordedWindows.read(run).databasePort()).isNull();
        assertThat(RecordedWindows.read(run.resolve("nowhere")).databasePort()).isNull();
    }

    @Test
    void aFormatThreeRowHasTheSameFieldsInItsGroups(@TempDir Path run) {
        Json.write(run.resolve("results.json"), Map.of("windows", List.of(Map.of(
                "window", Map.of("id", "imperative-300ms-closed-3000-jfr-1", "jfr_file",
                        "jfr/imperative-300ms-closed-3000-jfr-1.jfr", "measured_at", "2026-11-23T14:20:53Z"),
                "at", Map.of("cpu_quota", 0.5, "delay_ms", 250, "users", 3000),
                "load", Map.of("requests_per_second", 100.0, "per_second", List.of(100.0, 2.0, 100.0)),
                "cpu", Map.of("cpu_ms_per_request", 0.5, "cpu_cores", 0.05)))));
        RecordedWindows windows = RecordedWindows.read(run);
        RecordedWindows.Row row = windows.row(RECORDING);
        assertThat(row.cpuMsPerRequest()).isEqualTo(0.5);
        assertThat(row.perSecond()).containsExactly(100.0, 2.0, 100.0);
        assertThat(row.measuredAt()).isEqualTo("2026-11-23T14:20:53Z");
        assertThat(windows.delayMs(RECORDING, "imperative-300ms-closed-3000-jfr-1")).isEqualTo(250);
    }

    @Test
    void aFormatOneRunHasItsOneDelayInTheManifestsKnobs(@TempDir Path run) {
        Json.write(run.resolve("results.json"), Map.of("windows", List.of(
                Map.of("jfr_file", "jfr/imperative-closed-20-jfr-1.jfr", "cpu_ms_per_request", 0.2))));
        Json.write(run.resolve("manifest.json"), Map.of("knobs", Map.of("lab.delay.ms", 10)));
        assertThat(RecordedWindows.read(run).delayMs(Path.of("jfr/imperative-closed-20-jfr-1.jfr"),
                "imperative-closed-20-jfr-1")).isEqualTo(10);
    }

    @Test
    void aLaterFormatsKnobIsNotTakenForTheWindowsDelay(@TempDir Path run) {
        Json.write(run.resolve("manifest.json"), Map.of("format", 2, "knobs", Map.of("lab.delay.ms", 10)));
        assertThat(RecordedWindows.read(run).delayMs(Path.of("jfr/mine.jfr"), "mine")).isNull();
    }

    @Test
    void theJdkIsWhatTheJvmsReportedElseTheRunnersOwnWhereItStartedThem(@TempDir Path run) {
        Map<String, Object> local = Map.of("format", 3, "lab", Map.of("runner_java_version", "25.0.3"),
                "confinement", Map.of("engine", "local"));
        Json.write(run.resolve("manifest.json"), local);
        Json.write(run.resolve("results.json"), Map.of("windows", List.of()));
        assertThat(RecordedWindows.read(run).jdk()).isEqualTo("25.0.3");

        // what the JVMs said of themselves wins: they are what was recorded
        Json.write(run.resolve("results.json"), Map.of("windows", List.of(), "warm_ups", List.of(
                warmUp("imperative-jvm1", "21.0.5"), warmUp("reactive-jvm1", "21.0.5"))));
        assertThat(RecordedWindows.read(run).jdk()).isEqualTo("21.0.5");
        // JVMs that disagree name no one JDK as the run's
        Json.write(run.resolve("results.json"), Map.of("windows", List.of(), "warm_ups", List.of(
                warmUp("imperative-jvm1", "21.0.5"), warmUp("reactive-jvm1", "25.0.3"))));
        assertThat(RecordedWindows.read(run).jdk()).isNull();

        // containers run their image's JDK, not the runner's
        Json.write(run.resolve("results.json"), Map.of("windows", List.of()));
        Json.write(run.resolve("manifest.json"), Map.of("format", 3, "lab", Map.of("runner_java_version", "25.0.3"),
                "confinement", Map.of("engine", "compose")));
        assertThat(RecordedWindows.read(run).jdk()).isNull();
    }

    private static Map<String, Object> warmUp(String jvm, String javaVersion) {
        return Map.of("jvm", jvm, "variant", jvm.replace("-jvm1", ""), "start", 1, "runtime_before",
                Map.of("availableProcessors", 1, "javaVersion", javaVersion));
    }

    @Test
    void withoutItsRunTheNameStillSaysTheDelay(@TempDir Path nowhere) {
        RecordedWindows none = RecordedWindows.read(nowhere);
        assertThat(none.row(RECORDING)).isEqualTo(RecordedWindows.Row.NONE);
        assertThat(none.delayMs(RECORDING, "imperative-300ms-closed-3000-jfr-1")).isEqualTo(300);
        assertThat(none.delayMs(Path.of("mine.jfr"), "mine")).isNull();
        assertThat(none.jdk()).isNull();
    }
}
