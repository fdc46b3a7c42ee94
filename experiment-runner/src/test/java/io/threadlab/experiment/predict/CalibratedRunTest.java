package io.threadlab.experiment.predict;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.threadlab.experiment.collect.RunRecord;
import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.Jvm;
import io.threadlab.experiment.plan.Point;
import io.threadlab.experiment.plan.Variant;
import io.threadlab.experiment.testing.CalibratedRunFixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/**
 * {@code ./experiment predict}'s logic on a real calibrated run ({@link CalibratedRunFixture}): which calibration,
 * which point, the model's answer there, and what it refuses.
 */
class CalibratedRunTest {

    @TempDir
    Path dir;

    /** Each variant once, at {@code whatIf}. */
    private VariantForecast predict(String variant, WhatIf whatIf) throws CannotPredict {
        return CalibratedRun.read(CalibratedRunFixture.calibrated(dir)).predict(List.of(variant), whatIf)
                .forecasts().getFirst();
    }

    /**
     * By hand, from the reactive JVM 1's calibration windows in results.json (10 ms, 0.5 CPU, pool 1,000):
     * <pre>
     * users  cores  mean ms  req/s     delay served ms  waiting in the JVM  CPU ms/request of the window
     *   700  0.503  88.2     7,385.4   11.394           615.85              0.06849280443823613
     *   300  0.497  37.7     7,761.6   10.710           216.87              0.06387421965594138
     *   150  0.502  20.7     7,295.2   10.593            72.72              0.06862876047538201
     *    10  0.125  11.315326885319804 (light: below 0.8 × 0.5 CPU)  10.418
     * </pre>
     * (waiting: the users less the throughput × the delay served). The delay service served each call 0.7787 ms after
     * its 10 ms on average over the four levels. At 500 users the CPU allows 7,485.95 req/s: that many keep 7,485.95 ×
     * 10.7787 ms = 80.69 at the downstream, 419.31 waiting in the JVM, ln(419.31 / 216.87) / ln(615.85 / 216.87) =
     * 0.63170 of the way from 300's level to 700's: 0.063874 + 0.63170 × 0.004619 = 0.066792 ms, and 0.5 × 1000 /
     * 0.066792 = 7,485.95 again. A request holds its connection 11.315 ms (10 ms plus the light level's 1.315 above
     * it): users allow 500 / 0.011315 = 44,188 req/s, the pool 1000 / 0.011315 = 88,376. The CPU binds, 5.903× under
     * the users; p50 = 500 / 7,485.95 = 66.792 ms. Leaving 300 out, 150 → 700 says 0.068559 there, 7.33 % off: the
     * curve's error, above the least claimed (700's window holds a second of a stall, 0.124 CPU-ms a request, which
     * its seconds' median left out). RSS by
     * least squares through (700, 328.914), (300, 329.711), (150, 330.082), (10, 330.258) MB: 329.322 MB at 500.
     */
    @Test
    void reactiveAt500UsersIsWhatItsCalibrationGivesByHand() throws CannotPredict {
        VariantForecast v = predict("reactive", new WhatIf(500, null, null, null, null));
        Forecast f = v.forecast();
        double waiting = 500 - f.rps() * 10.778719912971189 / 1000;
        double cpuMs = 0.06387421965594138 + Math.log(waiting / 216.87328414940356)
                / Math.log(615.8513506926347 / 216.87328414940356) * (0.06849280443823613 - 0.06387421965594138);
        assertThat(waiting).isCloseTo(419.31, within(0.01));
        assertThat(cpuMs).isCloseTo(0.066792, within(1e-6));
        assertThat(f.binding()).isEqualTo(Ceiling.CPU);
        assertThat(f.rps()).isCloseTo(0.5 * 1000 / cpuMs, within(1e-6)).isCloseTo(7485.95, within(0.01));
        assertThat(f.ceilings().get(Ceiling.USERS)).isCloseTo(500 / 0.011315326885319804, within(1e-6));
        assertThat(f.ceilings().get(Ceiling.CONNECTIONS)).isCloseTo(1000 / 0.011315326885319804, within(1e-6));
        assertThat(f.ceilings()).doesNotContainKey(Ceiling.WORKERS); // the event loop holds no worker
        // k6 shared the run's 2 cores: the next ceiling is what it could drive there
        assertThat(f.next()).isEqualTo(Ceiling.LOAD);
        assertThat(f.margin()).isCloseTo(f.ceilings().get(Ceiling.LOAD) / f.rps(), within(1e-9));
        assertThat(f.p50Ms()).isCloseTo(66.792, within(1e-3));
        assertThat(f.expectedError()).isCloseTo(0.068559223179798 / 0.06387421965594138 - 1, within(1e-6));
        assertThat(f.rssMb()).isCloseTo(329.322, within(1e-3));
        assertThat(f.extrapolated()).isFalse();
        assertThat(v.notes()).anySatisfy(n -> assertThat(n).contains("419 of the 500 users wait in the JVM"));
        assertThat(v.calibrated().jvm()).isEqualTo("reactive-jvm1");
        assertThat(v.at()).isEqualTo(Point.of(Axis.CPUS, 0.5).with(Axis.WORKER_MAX, 200).with(Axis.POOL_SIZE, 1000)
                .with(Axis.DELAY_MS, 10).with(Axis.USERS, 500));
    }

    /**
     * The runner predicts every window of a run before measuring it ({@link Predictions}, fed the calibration windows
     * as they are measured), and predict reads the same calibration from the results: asked at each of the fixture's
     * measured points, predict says what the runner's own path says there, JVM start 2's windows from JVM start 1's
     * calibration as well. The fixture's recorded predictions are an earlier model's (its CPU curve was in users, it is
     * now in the requests waiting in the JVM): the ceilings that held a time, not the CPU, are still what it recorded.
     */
    @Test
    void atEveryMeasuredPointItSaysWhatTheRunnerPredictsBeforeMeasuring() throws IOException, CannotPredict {
        CalibratedRun run = CalibratedRun.read(CalibratedRunFixture.calibrated(dir));
        List<WindowResult> windows = RunRecord.read(dir).results().windows();
        // the runner on the run's machine, k6 on its 2 cores beside the services
        Predictions runner = Predictions.from(windows, 2);
        List<WindowResult> predicted = windows.stream().filter(w -> w.prediction() != null).toList();
        assertThat(predicted).as("the fixture's windows carry the runner's predictions").hasSizeGreaterThan(10)
                .anyMatch(w -> w.jvm() == 2);
        for (WindowResult w : predicted) {
            Point at = w.at();
            VariantForecast v = run.predict(List.of(w.variant()), new WhatIf(at.get(Axis.USERS),
                    at.get(Axis.DELAY_MS), at.get(Axis.CPUS), at.get(Axis.WORKER_MAX), at.get(Axis.POOL_SIZE)))
                    .forecasts().getFirst();
            WindowResult.Prediction now = v.forecast().asRecorded(java.time.Instant.EPOCH);
            WindowResult.Prediction before = runner.before(new Jvm(Variant.find(w.variant()).orElseThrow(), w.jvm(),
                    0), at).orElseThrow().asRecorded(java.time.Instant.EPOCH);
            assertThat(now).as(w.window().id()).isEqualTo(before);
            WindowResult.Prediction recorded = w.prediction();
            assertThat(v.calibrated().jvm()).as(w.window().id()).isEqualTo(recorded.calibratedOn());
            for (String held : List.of("workers", "connections", "users")) {
                assertThat(now.ceilings().get(held)).as(w.window().id() + " " + held)
                        .isEqualTo(recorded.ceilings().get(held));
            }
        }
    }

    @Test
    void withNothingGivenEachVariantIsPredictedAtItsCalibrationsOwnPointAndItsMostUsers() throws CannotPredict {
        CalibratedRun.Answer answer = CalibratedRun.read(CalibratedRunFixture.calibrated(dir)).predict(null,
                WhatIf.CALIBRATIONS_OWN);
        assertThat(answer.forecasts()).extracting(VariantForecast::variant).containsExactly("imperative", "reactive",
                "virtual-thread");
        assertThat(answer.leftOut()).isEmpty();
        for (VariantForecast v : answer.forecasts()) {
            assertThat(v.at().get(Axis.USERS)).isEqualTo(700);
            assertThat(v.at().get(Axis.DELAY_MS)).isEqualTo(10);
            assertThat(v.at().get(Axis.CPUS)).isEqualTo(0.5);
            assertThat(v.forecast().extrapolated()).isFalse();
            assertThat(v.calibrated().users()).containsExactly(700, 300, 150, 10);
        }
    }

    /**
     * Beyond the most users calibrated, with more requests waiting in the JVM than any level had, the CPU per request
     * is the last level's (700: 0.068493 ms, so 7,300.04 req/s), and the error is widened per e-fold of the requests
     * waiting beyond that level's.
     */
    @Test
    void beyondTheCalibratedUsersItIsPredictedAndMarkedAnExtrapolationWithAWiderError() throws CannotPredict {
        // a pool that holds every user: past it they would queue for a connection, not the CPU
        Forecast f = predict("reactive", new WhatIf(2000, null, null, null, 2000)).forecast();
        assertThat(f.extrapolated()).isTrue();
        assertThat(f.binding()).isEqualTo(Ceiling.CPU);
        assertThat(f.rps()).isCloseTo(500 / 0.06849280443823613, within(1e-6));
        // 30 % per e-fold of requests waiting beyond 700 users' 615.85: 7,300.04 req/s × 10.7787 ms leave 1,921.31 of
        // 2,000 waiting, 0.30 x ln(1,921.31 / 615.85) = 0.3413, on the curve's own error of 0.0733
        assertThat(f.expectedError()).isCloseTo(0.0733473 + CpuCurve.EXTRAPOLATION_PER_EFOLD * Math.log((2000 - f.rps()
                * 0.010778719912971189) / 615.8513506926347), within(1e-6)).isCloseTo(0.4147, within(1e-4));
        assertThat(f.notes()).anyMatch(n -> n.contains("2,000 users is beyond the most calibrated on the CPU (700),"
                + " and 1,921 requests waiting in the JVM beyond the most a level had (616)"));
    }

    /**
     * At 300 ms a request of the imperative variant holds its worker 301.907 ms (its light level took 1.907 ms above
     * the calibration's 10 ms): 200 workers allow 662.45 req/s, far below its CPU's 4,834 at 700 users. The delay is
     * not the calibration's, and the prediction says what it assumes for that.
     */
    @Test
    void anotherDelayIsPredictedAndSaysWhatItAssumes() throws CannotPredict {
        VariantForecast v = predict("imperative", new WhatIf(700, 300, null, null, null));
        assertThat(v.forecast().binding()).isEqualTo(Ceiling.WORKERS);
        assertThat(v.forecast().rps()).isCloseTo(200 / 0.301907289027844, within(1e-6));
        assertThat(v.forecast().holdMs()).isCloseTo(301.907, within(1e-3));
        assertThat(v.notes()).anyMatch(n -> n.startsWith("calibrated at 10 ms only: what more calls in flight cost is"
                + " not measured") && n.contains("at 300 ms a request is taken to cost what the calibration's did at"
                + " as many waiting") && n.contains("1.9 ms measured above it"));
    }

    @Test
    void moreWorkersRaiseTheWorkersCeilingAndAreSaidToBeAnAssumptionAndMeanNothingToTheEventLoop()
            throws CannotPredict {
        WhatIf more = new WhatIf(700, 300, null, 800, null);
        VariantForecast imperative = predict("imperative", more);
        assertThat(imperative.forecast().ceilings().get(Ceiling.WORKERS)).isCloseTo(800 / 0.301907289027844,
                within(1e-6));
        assertThat(imperative.notes()).contains("calibrated with 200 workers: the CPU per request is taken as the same"
                + " with 800");
        VariantForecast reactive = CalibratedRun.read(dir).predict(List.of("reactive"), more).forecasts().getFirst();
        assertThat(reactive.forecast().ceilings()).doesNotContainKey(Ceiling.WORKERS);
        assertThat(reactive.notes()).contains("--worker-max does not apply: reactive does not run requests on workers");
    }

    /** predict --fan-out 8: the same hold, each request holding 1 + 8 workers in parallel, 8 in turn. */
    @Test
    void fanOutIsPredictedFromTheOneCallCalibration() throws CannotPredict {
        VariantForecast parallel = predict("imperative", new WhatIf(700, 300, null, null, null, null, null, 8,
                null));
        assertThat(parallel.forecast().ceilings().get(Ceiling.WORKERS)).isCloseTo(200 / (9 * 0.301907289027844),
                within(1e-6));
        assertThat(parallel.notes()).anySatisfy(n -> assertThat(n).startsWith("8 calls per request in parallel"));
        // 700 users for 200 workers: beyond the queue's model, the unqueued bound, said
        assertThat(parallel.notes()).anySatisfy(n -> assertThat(n).contains("the pool can stall"));
        VariantForecast inTurn = CalibratedRun.read(dir).predict(List.of("imperative"), new WhatIf(700, 300, null,
                null, null, null, null, 8, io.threadlab.experiment.plan.FanOutMode.SEQUENTIAL)).forecasts().getFirst();
        assertThat(inTurn.forecast().ceilings().get(Ceiling.WORKERS)).isCloseTo(200 / (8 * 0.301907289027844),
                within(1e-6));
        assertThat(inTurn.forecast().holdMs()).isCloseTo(8 * 301.907, within(1e-2));
    }

    /** Where an earlier runner calibrated later JVM starts too, the first one's calibration predicts, as today. */
    @Test
    void theFirstJvmStartsCalibrationPredictsWhateverComesFirstInTheFile() throws CannotPredict {
        CalibratedRunFixture.calibrated(dir, results -> {
            ArrayNode windows = (ArrayNode) results.get("windows");
            List<JsonNode> second = new java.util.ArrayList<>();
            for (JsonNode w : windows) {
                if (w.path("window").path("role").asText().equals("calibration")
                        && w.path("window").path("variant").asText().equals("reactive")) {
                    ObjectNode copy = w.deepCopy();
                    ((ObjectNode) copy.get("window")).put("jvm", 2).put("id", copy.path("window").path("id")
                            .asText().replace("-cal1", "-cal2"));
                    ((ObjectNode) copy.get("cpu")).put("cpu_ms_per_request", 1.0);
                    second.add(copy);
                }
            }
            for (int i = second.size() - 1; i >= 0; i--) {
                windows.insert(0, second.get(i)); // JVM 2's first in the file, every level costing 1 CPU-ms
            }
        });
        VariantForecast v = CalibratedRun.read(dir).predict(List.of("reactive"), new WhatIf(500, null, null, null,
                null)).forecasts().getFirst();
        assertThat(v.calibrated().jvm()).isEqualTo("reactive-jvm1");
        assertThat(v.forecast().rps()).isCloseTo(7485.95, within(0.01));
    }

    @Test
    void aVariantWhoseCalibrationFitsNoModelIsLeftOutByDefaultAndRefusedWhenAskedFor() throws CannotPredict {
        CalibratedRunFixture.calibrated(dir, results -> {
            ArrayNode windows = (ArrayNode) results.get("windows");
            for (int i = windows.size() - 1; i >= 0; i--) {
                JsonNode w = windows.get(i).path("window");
                if (w.path("role").asText().equals("calibration") && w.path("variant").asText().equals("reactive")
                        && !w.path("id").asText().contains("-700-")) {
                    windows.remove(i); // one level left: no curve of the CPU per request
                }
            }
        });
        CalibratedRun run = CalibratedRun.read(dir);
        CalibratedRun.Answer answer = run.predict(null, WhatIf.CALIBRATIONS_OWN);
        assertThat(answer.forecasts()).extracting(VariantForecast::variant).containsExactly("imperative",
                "virtual-thread");
        assertThat(answer.leftOut()).singleElement().asString().startsWith("reactive: its calibration in " + dir
                + " fits no model (reactive-jvm1: calibration windows at 1 number of users");
        assertThatThrownBy(() -> run.predict(List.of("reactive"), WhatIf.CALIBRATIONS_OWN))
                .isInstanceOf(CannotPredict.class).hasMessageContaining("reactive: its calibration in")
                .hasMessageContaining("the model needs two");
    }

    @Test
    void aDirectoryWithoutCalibrationIsRefusedSayingWhichRunsHaveNoneAndWhatToDo() {
        CalibratedRunFixture.beforeCalibration(dir);
        assertThatThrownBy(() -> CalibratedRun.read(dir)).isInstanceOf(CannotPredict.class)
                .hasMessageStartingWith(dir + " has no calibration windows (results format 1): runs written before"
                        + " the runner calibrated each JVM (results formats 1 and 2) have none")
                .hasMessageContaining("--no-calibration, nor --mistakes runs without --calibration-levels")
                .hasMessageContaining("./experiment run (it calibrates each variant's first JVM start at"
                        + " " + io.threadlab.experiment.plan.Defaults.CALIBRATION_LEVELS + " users)");
    }

    @Test
    void aMissingOrUnreadableDirectoryAndAnUncalibratedVariantAreNamed() {
        assertThatThrownBy(() -> CalibratedRun.read(dir.resolve("nothing"))).isInstanceOf(CannotPredict.class)
                .hasMessage("no such results directory: " + dir.resolve("nothing"));
        assertThatThrownBy(() -> CalibratedRun.read(dir)).isInstanceOf(CannotPredict.class)
                .hasMessage(dir.resolve("manifest.json") + " is missing: not a results directory of ./experiment run");
        CalibratedRunFixture.calibrated(dir);
        assertThatThrownBy(() -> CalibratedRun.read(dir).predict(List.of("imperative-rest"), WhatIf.CALIBRATIONS_OWN))
                .isInstanceOf(CannotPredict.class).hasMessage("imperative-rest has no calibration windows in " + dir
                        + "; calibrated: imperative, reactive, virtual-thread");
    }

    /** The manifest's read timeout is 5,000 ms: a delay there is every call timing out, which the model never saw. */
    @Test
    void aDelayAtTheClientsReadTimeoutIsRefusedAndOneBelowItIsNot() throws CannotPredict {
        CalibratedRun run = CalibratedRun.read(CalibratedRunFixture.calibrated(dir));
        assertThatThrownBy(() -> run.predict(null, new WhatIf(null, 5000, null, null, null)))
                .isInstanceOf(CannotPredict.class).hasMessage(String.format(Locale.ROOT, "--delay-ms 5000 is not"
                        + " below the client's read timeout in %s (5000 ms): every call would time out, and the"
                        + " model predicts answered requests only", dir));
        assertThat(run.predict(null, new WhatIf(null, 4999, null, null, null)).forecasts()).hasSize(3);
    }

    @Test
    void numbersNoJvmOrLoadCouldHaveAreRefusedNamingTheFlag() {
        Map<String, Runnable> bad = Map.of(
                "--users must be 1 or more, was 0", () -> new WhatIf(0, null, null, null, null),
                "--worker-max must be 1 or more, was -1", () -> new WhatIf(null, null, null, -1, null),
                "--pool-size must be 1 or more, was 0", () -> new WhatIf(null, null, null, null, 0),
                "--delay-ms must be delays from 0 to 60000 ms, was -5", () -> new WhatIf(null, -5, null, null, null),
                "--cpus must be a quota above 0 and at most 64 (e.g. 0.5), was 0.0", () -> new WhatIf(null, null, 0.0, null, null),
                "--cpus must be a quota above 0 and at most 64 (e.g. 0.5), was NaN", () -> new WhatIf(null, null, Double.NaN, null,
                        null));
        bad.forEach((message, make) -> assertThatThrownBy(make::run).isInstanceOf(IllegalArgumentException.class)
                .hasMessage(message));
        new WhatIf(1, 0, 0.01, 1, 1); // the least of each is a point
        assertThatThrownBy(() -> new WhatIf(null, null, null, null, null, null, null, 0, null))
                .hasMessage("--fan-out must be numbers of calls from 1 to 64 (the services' lab.fanout.max-calls),"
                        + " was 0");
        assertThatThrownBy(() -> new WhatIf(null, null, null, null, null, null, null, 65, null))
                .hasMessageContaining("was 65");
        assertThatThrownBy(() -> new WhatIf(null, null, null, null, null, null, null, null,
                io.threadlab.experiment.plan.FanOutMode.SEQUENTIAL)).hasMessageContaining("needs --fan-out above 1");
    }
}
