package io.threadlab.experiment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.threadlab.experiment.testing.CalibratedRunFixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * {@code ./experiment predict} as a user runs it: what it prints for a calibrated run, its JSON, and the exit code
 * and message of everything it refuses. The numbers themselves are {@code CalibratedRunTest}'s.
 */
class PredictCommandTest {

    @TempDir
    Path dir;

    private record Outcome(int exit, String out, String err) {
    }

    private static Outcome execute(String... args) {
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
        ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(outBytes, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(errBytes, true, StandardCharsets.UTF_8));
            int exit = ExperimentCommand.execute(args);
            return new Outcome(exit, outBytes.toString(StandardCharsets.UTF_8),
                    errBytes.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
    }

    @Test
    void againstAnotherRunEveryWindowIsPredictedFromThisCalibrationAndJudged(@TempDir Path other) {
        CalibratedRunFixture.calibrated(dir);
        CalibratedRunFixture.calibrated(other);
        Outcome outcome = execute("predict", "--from", dir.toString(), "--against", other.toString());
        assertThat(outcome.exit()).as(outcome.err()).isZero();
        assertThat(outcome.out()).contains("predicted from the calibrations in " + dir)
                .containsPattern("imperative +10 ms +500 ")
                .containsPattern("Within 15 % of the prediction, where one ceiling binds: \\d+ of \\d+ points")
                .contains("Held-out points inside the interval stated before them")
                .contains("Binding ceiling named right at held-out points")
                .containsPattern("k6's CPU a request, measured over forecast: median [0-9.]+× in \\d+ windows, \\d+"
                        + " of the \\d+ with an error stated within it");
        Outcome mixed = execute("predict", "--from", dir.toString(), "--against", other.toString(), "--users", "10");
        assertThat(mixed.exit()).isEqualTo(2);
        assertThat(mixed.err()).contains("--against takes its points from the other run");
        Outcome none = execute("predict", "--from", dir.toString(), "--against", dir.resolve("nowhere").toString());
        assertThat(none.exit()).isEqualTo(2);
        assertThat(none.err()).contains("--against");
    }

    /**
     * A calibration made on another processor than this machine's: the table says so after it (on stderr with
     * --json, which stays one array); made on this machine's, nothing is said. Published far-heap-2g, its manifest told
     * each processor in turn.
     */
    @Test
    void aCalibrationOnAnotherProcessorIsSaidToBeForItsMachine(@TempDir Path copy) throws IOException {
        Path run = Path.of("..", "findings", "far-heap-2g").toAbsolutePath().normalize();
        String manifest = java.nio.file.Files.readString(run.resolve("manifest.json"));
        java.nio.file.Files.copy(run.resolve("results.json"), copy.resolve("results.json"));
        String recorded = "\"cpu_model\" : \"AMD EPYC\"";
        assertThat(manifest).contains(recorded);
        java.nio.file.Files.writeString(copy.resolve("manifest.json"), manifest.replace(recorded,
                "\"cpu_model\" : \"a processor no machine has\""));
        Outcome elsewhere = execute("predict", "--from", copy.toString(), "--users", "1000", "--delay-ms", "50");
        assertThat(elsewhere.exit()).isZero();
        assertThat(elsewhere.out()).contains("Calibrated on a processor no machine has; this machine is "
                + MachineFacts.cpuModel() + ": the forecasts are for the calibration's machine");
        Outcome json = execute("predict", "--from", copy.toString(), "--users", "1000", "--delay-ms", "50", "--json");
        assertThat(new ObjectMapper().readTree(json.out()).isArray()).isTrue();
        assertThat(json.err()).contains("Calibrated on a processor no machine has");

        java.nio.file.Files.writeString(copy.resolve("manifest.json"), manifest.replace(recorded,
                "\"cpu_model\" : \"" + MachineFacts.cpuModel() + "\""));
        Outcome here = execute("predict", "--from", copy.toString(), "--users", "1000", "--delay-ms", "50");
        assertThat(here.exit()).isZero();
        assertThat(here.out()).doesNotContain("Calibrated on");
    }

    /** A fan-out run's rows differ only in their calls: --against shows them (published fanout-3: 1/4/8 parallel). */
    @Test
    void againstAFanOutRunEachPointShowsItsCalls() {
        Path run = Path.of("..", "findings", "fanout-3").toAbsolutePath().normalize(); // the module's parent: the lab
        Outcome outcome = execute("predict", "--from", run.toString(), "--against", run.toString());
        assertThat(outcome.exit()).as(outcome.err()).isZero();
        assertThat(outcome.out()).containsPattern("users calls +measured")
                .containsPattern("imperative +100 ms +50 1 ").containsPattern("imperative +100 ms +50 4 par ")
                .containsPattern("imperative +100 ms +50 8 par ");
    }

    @Test
    void aBurstIsPredictedAsItsRequestsOverTheBindingCeilingOfAsManyUsers() throws Exception {
        CalibratedRunFixture.calibrated(dir);
        Outcome outcome = execute("predict", "--from", dir.toString(), "--requests", "10000", "--delay-ms", "50");
        assertThat(outcome.exit()).as(outcome.err()).isZero();
        assertThat(outcome.out()).startsWith("A burst of 10,000 requests at once, predicted from the calibrations in "
                + dir).containsPattern("imperative +[\\d,]+ ms \\(workers; ").containsPattern("reactive +[\\d,]+ ms \\(");
        Outcome json = execute("predict", "--from", dir.toString(), "--requests", "10000", "--delay-ms", "50",
                "--json");
        com.fasterxml.jackson.databind.JsonNode rows = io.threadlab.experiment.collect.Json.MAPPER.readTree(json.out());
        for (com.fasterxml.jackson.databind.JsonNode row : rows) {
            // the binding ceiling is the longest: its time is the prediction
            double longest = 0;
            for (com.fasterxml.jackson.databind.JsonNode ms : row.get("ceilings_ms")) {
                longest = Math.max(longest, ms.asDouble());
            }
            assertThat(row.get("predicted_ms").asDouble()).as(row.toString()).isEqualTo(longest);
            assertThat(row.get("ceilings_ms").get(row.get("binding").asText()).asDouble()).isEqualTo(longest);
            assertThat(row.get("burst_requests").asInt()).isEqualTo(10_000);
        }
        // the workers' ceiling is the pool's waves at least: 10,000 ÷ 200 × the 50 ms wait
        assertThat(rows).filteredOn(r -> r.get("variant").asText().equals("imperative")).singleElement()
                .satisfies(r -> assertThat(r.get("ceilings_ms").get("workers").asDouble()).isGreaterThanOrEqualTo(2500));
        Outcome both = execute("predict", "--from", dir.toString(), "--requests", "10000", "--users", "10");
        assertThat(both.exit()).isEqualTo(2);
        assertThat(both.err()).contains("one or the other");
    }

    @Test
    void aValueThatIsNotANumberIsRefusedNamingTheFlagAsPredictSpellsIt() {
        CalibratedRunFixture.calibrated(dir);
        Outcome list = execute("predict", "--from", dir.toString(), "--users", "1000,2000");
        assertThat(list.exit()).isEqualTo(2);
        // predict takes one point: its users are --users, not run's --levels
        assertThat(list.err()).contains("--users takes integer values, was '1000,2000'").doesNotContain("--levels");
    }

    @Test
    void theTableHasARowPerCalibratedVariantWithItsCeilingsAndSaysWhoseCalibrationItIs() {
        CalibratedRunFixture.calibrated(dir);
        Outcome outcome = execute("predict", "--from", dir.toString(), "--users", "500");
        assertThat(outcome.exit()).isZero();
        assertThat(outcome.err()).isEmpty();
        List<String> lines = outcome.out().lines().toList();
        assertThat(lines.getFirst()).isEqualTo("Predicted from the calibrations in " + dir);
        assertThat(lines).anySatisfy(l -> assertThat(l).startsWith("variant").contains("req/s", "interval", "binding",
                "margin", "p50 ms", "RSS MB", "k6 CPU", "CPU", "workers", "connections", "users", "load"));
        // reactive at 500 users: 7,485.95 req/s by the CPU ± 7 % (CalibratedRunTest works it by hand), 1.31× under
        // what k6 could drive on the 2 cores it shared with it (9,837); p50 66.8 ms; RSS 329 MB; k6 about 0.92 CPU,
        // ±52 % (its calibration's worst window left out)
        assertThat(lines).anySatisfy(l -> assertThat(l.split(" +")).containsExactly("reactive", "500", "10", "ms",
                "0.5", "7,486", "6,937–8,035", "±7", "%", "CPU", "1.31×", "load", "generator", "66.8", "329",
                "0.92", "±52", "%", "|", "7,486", "–", "88,376", "44,188", "9,837"));
        assertThat(outcome.out()).contains("reactive: calibrated on reactive-jvm1 (10 ms, 0.5 CPU, 200 workers, pool"
                + " 1,000) at 700, 300, 150, 10 users");
    }

    @Test
    void anExtrapolationIsPrintedAsOneWithItsWiderError() {
        CalibratedRunFixture.calibrated(dir);
        // a pool that holds every user: past it they would queue for a connection, not the CPU
        Outcome outcome = execute("predict", "--from", dir.toString(), "--users", "2000", "--pool-size", "2000",
                "--variants", "reactive");
        assertThat(outcome.exit()).isZero();
        // ±41 % on the CPU (its curve's 7 % widened beyond 700 users' waiting); the load generator's ceiling, 1.35×
        // above it, lies within the two errors: two close ceilings, the lower predicted
        assertThat(outcome.out()).contains("4,273–10,327  ±41 % extrapolated")
                .contains("1.35× load generator close")
                .contains("  - 2,000 users is beyond the most calibrated on the CPU (700), and 1,921 requests waiting");
    }

    @Test
    void jsonIsOneArrayWithAnObjectPerVariantAndEveryFieldItPromises() throws IOException {
        CalibratedRunFixture.calibrated(dir);
        Outcome outcome = execute("predict", "--from", dir.toString(), "--users", "500", "--delay-ms", "10",
                "--variants", "reactive,imperative", "--json");
        assertThat(outcome.exit()).isZero();
        assertThat(outcome.err()).isEmpty();
        JsonNode array = new ObjectMapper().readTree(outcome.out());
        assertThat(array.isArray()).isTrue();
        assertThat(array).hasSize(2);
        JsonNode reactive = array.get(0);
        assertThat(reactive.path("variant").asText()).isEqualTo("reactive");
        assertThat(array.get(1).path("variant").asText()).isEqualTo("imperative");
        assertThat(reactive.path("at").path("users").asInt()).isEqualTo(500);
        assertThat(reactive.path("at").path("delay_ms").asInt()).isEqualTo(10);
        assertThat(reactive.path("at").path("cpu_quota").asDouble()).isEqualTo(0.5);
        assertThat(reactive.path("predicted_rps").asDouble()).isEqualTo(7485.952);
        assertThat(reactive.path("binding").asText()).isEqualTo("cpu");
        assertThat(reactive.path("interval").path("low").asDouble()).isEqualTo(6936.877);
        assertThat(reactive.path("interval").path("high").asDouble()).isEqualTo(8035.026);
        assertThat(reactive.path("margin").asDouble()).isEqualTo(1.314);
        assertThat(reactive.path("next").asText()).isEqualTo("load");
        assertThat(reactive.path("two_close").asBoolean()).isFalse();
        assertThat(reactive.path("k6_cores").asDouble()).isCloseTo(0.92, within(0.01));
        assertThat(reactive.path("p50_ms").asDouble()).isEqualTo(66.792);
        assertThat(reactive.path("rss_mb").asDouble()).isEqualTo(329.322);
        assertThat(reactive.path("expected_error").asDouble()).isEqualTo(0.073);
        assertThat(reactive.path("extrapolated").isBoolean()).isTrue();
        assertThat(reactive.path("extrapolated").asBoolean()).isFalse();
        assertThat(reactive.path("ceilings").properties()).extracting(java.util.Map.Entry::getKey)
                .containsExactly("cpu", "connections", "users", "load");
        assertThat(reactive.path("ceilings").path("users").asDouble()).isCloseTo(44187.853, within(1e-3));
        assertThat(reactive.path("hold_ms").asDouble()).isEqualTo(11.315);
        JsonNode on = reactive.path("calibrated_on");
        assertThat(on.path("jvm").asText()).isEqualTo("reactive-jvm1");
        assertThat(on.path("users")).extracting(JsonNode::asInt).containsExactly(700, 300, 150, 10);
        assertThat(on.path("delay_ms").asInt()).isEqualTo(10);
        assertThat(on.path("delays_ms")).extracting(JsonNode::asInt).containsExactly(10);
        assertThat(on.path("calls_elasticity_measured").asBoolean()).as("one delay: β not measured").isFalse();
        assertThat(on.path("cpu_quota").asDouble()).isEqualTo(0.5);
        assertThat(on.path("worker_max").asInt()).isEqualTo(200);
        assertThat(on.path("pool_size").asInt()).isEqualTo(1000);
        assertThat(on.path("cpu_ms_per_request").path("300").asDouble()).isEqualTo(0.064);
        assertThat(on.path("in_jvm").path("300").asDouble()).isEqualTo(216.873);
        assertThat(on.path("overhead_ms").asDouble()).isEqualTo(1.315);
        assertThat(on.path("overhead_measured").asBoolean()).isTrue();
        assertThat(reactive.path("notes").isArray()).isTrue();
        assertThat(array.get(1).path("ceilings").has("workers")).as("the imperative variant's workers").isTrue();
    }

    @Test
    void aResultsDirectoryThatIsMissingOrNotOneIsExitCode2NamingIt() {
        Outcome missing = execute("predict", "--from", dir.resolve("no-such-run").toString());
        assertThat(missing.exit()).isEqualTo(2);
        assertThat(missing.err()).isEqualTo("experiment predict: no such results directory: "
                + dir.resolve("no-such-run") + System.lineSeparator());
        Outcome empty = execute("predict", "--from", dir.toString());
        assertThat(empty.exit()).isEqualTo(2);
        assertThat(empty.err()).contains(dir.resolve("manifest.json") + " is missing");
        assertThat(empty.out()).isEmpty();
    }

    @Test
    void aRunWithoutCalibrationIsExitCode2SayingWhichRunsHaveNoneAndWhatToRun() {
        CalibratedRunFixture.beforeCalibration(dir);
        Outcome outcome = execute("predict", "--from", dir.toString());
        assertThat(outcome.exit()).isEqualTo(2);
        assertThat(outcome.err()).startsWith("experiment predict: " + dir + " has no calibration windows (results"
                + " format 1)").contains("./experiment run").doesNotContain("Usage:");
        assertThat(outcome.out()).isEmpty();
    }

    @Test
    void aVariantWithoutCalibrationIsExitCode2NamingItAndTheCalibratedOnes() {
        CalibratedRunFixture.calibrated(dir);
        Outcome outcome = execute("predict", "--from", dir.toString(), "--variants", "reactive,imperative-rest");
        assertThat(outcome.exit()).isEqualTo(2);
        assertThat(outcome.err()).isEqualTo("experiment predict: imperative-rest has no calibration windows in " + dir
                + "; calibrated: imperative, reactive, virtual-thread" + System.lineSeparator());
        assertThat(outcome.out()).isEmpty();
    }

    @Test
    void aDelayPastTheReadTimeoutIsExitCode2() {
        CalibratedRunFixture.calibrated(dir);
        Outcome outcome = execute("predict", "--from", dir.toString(), "--delay-ms", "6000");
        assertThat(outcome.exit()).isEqualTo(2);
        assertThat(outcome.err()).contains("--delay-ms 6000 is not below the client's read timeout");
    }

    @Test
    void aBadNumberIsAUsageErrorNamingTheFlag() {
        CalibratedRunFixture.calibrated(dir);
        for (List<String> bad : List.of(List.of("--users", "0"), List.of("--cpus", "0"), List.of("--cpus", "-0.5"),
                List.of("--worker-max", "0"), List.of("--pool-size", "-1"), List.of("--delay-ms", "-1"))) {
            List<String> args = new java.util.ArrayList<>(List.of("predict", "--from", dir.toString()));
            args.addAll(bad);
            Outcome outcome = execute(args.toArray(String[]::new));
            assertThat(outcome.exit()).as("%s", bad).isEqualTo(2);
            assertThat(outcome.err()).as("%s", bad).startsWith("experiment: " + bad.getFirst() + " must be")
                    .contains("Usage:");
            assertThat(outcome.out()).isEmpty();
        }
        Outcome words = execute("predict", "--from", dir.toString(), "--users", "many");
        assertThat(words.exit()).isEqualTo(2);
        assertThat(words.err()).contains("--users").contains("many");
        Outcome noFrom = execute("predict");
        assertThat(noFrom.exit()).isEqualTo(2);
        assertThat(noFrom.err()).contains("Missing required option: '--from=RESULTS_DIR'");
    }

    @Test
    void helpSaysWhatItDoesAndEveryFlag() {
        Outcome help = execute("predict", "--help");
        assertThat(help.exit()).isZero();
        assertThat(help.out()).contains("--from=RESULTS_DIR", "--users", "--delay-ms", "--cpus", "--worker-max",
                "--pool-size", "--variants", "--json", "first calibrated JVM start", "extrapolated", "Exit codes:",
                "Examples:");
        assertThat(execute("--help").out()).contains("predict");
    }
}
