package io.threadlab.experiment.predict;

import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.FanOutMode;
import io.threadlab.experiment.plan.Point;
import io.threadlab.experiment.plan.Variant;
import io.threadlab.experiment.testing.Windows;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** The capacity model: fitted to calibration windows only, asked about points it has not seen. */
class CapacityModelTest {

    /** How much wider an error grows per e-fold beyond the calibration (30 %). */
    private static final double RULE = CpuCurve.EXTRAPOLATION_PER_EFOLD;

    /**
     * A JVM calibrated at 10 ms: 10 users light (11 ms each, 909 req/s at 0.13 CPU-ms: 0.12 CPU), 100, 300 and 1,000
     * users CPU-bound (0.5 CPU at 0.11, 0.105 and 0.08 CPU-ms). The delay service served each call in 10.4 ms, so
     * 4,545, 4,762 and 6,250 req/s had 47, 50 and 65 requests at the downstream, and 52.7, 250.5 and 935 waiting in the
     * JVM: the CPU curve's axis.
     */
    private static List<WindowResult> calibration(String variant) {
        return List.of(
                Windows.closed(variant, 1000, 6250).cpuMs(0.08).cpuCores(0.5).calibration().build(),
                Windows.closed(variant, 300, 0.5 / 0.105 * 1000).cpuMs(0.105).cpuCores(0.5).calibration().build(),
                Windows.closed(variant, 100, 0.5 / 0.11 * 1000).cpuMs(0.11).cpuCores(0.5).calibration().build(),
                Windows.closed(variant, 10, 10 / 0.011).cpuMs(0.13).meanMs(11).calibration().build());
    }

    private static CapacityModel model(Variant.Threads threads) {
        return CapacityModel.fit("jvm", threads, calibration("reactive")).model().orElseThrow();
    }

    private static Point at(int delay, int users) {
        return Point.of(Axis.CPUS, 0.5).with(Axis.WORKER_MAX, 200).with(Axis.POOL_SIZE, 1000)
                .with(Axis.DELAY_MS, delay).with(Axis.USERS, users);
    }

    /** The CPU per request {@code rps} implies with {@code users} at a 10.4 ms downstream, on the fixture's curve. */
    private static double curveAt(int users, double rps) {
        double waiting = users - rps * 0.0104;
        return 0.105 - 0.025 * Math.log(waiting / 250.476) / Math.log(935 / 250.476);
    }

    @Test
    void theCpuPerRequestIsInterpolatedInLogRequestsWaitingInTheJvmBetweenTheLevelsThatUsedTheirQuota() {
        CapacityModel m = model(Variant.Threads.EVENT_LOOP);
        assertThat(m.users()).containsExactly(100, 300, 1000); // 10 users left the CPU idle: no CPU cost from it
        assertThat(m.inJvm()).satisfiesExactly(q -> assertThat(q).isCloseTo(100 - 500 / 0.11 * 0.0104, within(1e-9)),
                q -> assertThat(q).isCloseTo(300 - 500 / 0.105 * 0.0104, within(1e-9)),
                q -> assertThat(q).isCloseTo(1000 - 6250 * 0.0104, within(1e-9)));
        // 500 users: 5,313 req/s leave 500 - 5,313 x 10.4 ms = 444.7 waiting, ln(444.7 / 250.5) / ln(935 / 250.5) of
        // the way from 300's level to 1,000's: 0.0941 CPU-ms, which is 5,313 req/s again
        Forecast f = m.predict(at(10, 500));
        assertThat(f.binding()).isEqualTo(Ceiling.CPU);
        assertThat(f.rps()).isCloseTo(5313.3, within(0.1));
        assertThat(f.rps()).isCloseTo(0.5 * 1000 / curveAt(500, f.rps()), within(0.01));
        assertThat(f.extrapolated()).isFalse();
        assertThat(f.p50Ms()).isCloseTo(500 / f.rps() * 1000, within(1e-9));
        assertThat(f.notes()).anySatisfy(n -> assertThat(n).contains("445 of the 500 users wait in the JVM for its CPU,"
                + " the rest at the downstream (throughput × 10.4 ms), 55 calls out there: 0.094 CPU-ms a request"));
        // leaving 300 out, the line from 52.7 to 935 waiting says 0.0937 at 250.5, not 0.105
        double leftOut = Math.abs(0.11 - 0.03 * Math.log(250.476 / 52.727) / Math.log(935 / 52.727) - 0.105) / 0.105;
        assertThat(m.interpolationError()).isCloseTo(leftOut, within(1e-4));
        assertThat(f.expectedError()).isEqualTo(m.interpolationError());
        // fewer waiting than any level: the first segment (0.0032 CPU-ms a request dearer per e-fold fewer) continued
        // down to the one request waiting that 30 users leave, 0.1227 CPU-ms; the users bind there anyway
        Forecast light = m.predict(at(10, 30));
        assertThat(light.binding()).isEqualTo(Ceiling.USERS);
        assertThat(light.ceilings().get(Ceiling.CPU)).isCloseTo(500 / (0.11 + 0.005 / Math.log(250.476 / 52.727)
                * Math.log(52.727)), within(0.01)).isCloseTo(4074.2, within(0.1));
        assertThat(light.extrapolated()).isFalse();
        assertThat(light.notes()).noneSatisfy(n -> assertThat(n).contains("fewer than the fewest a level had"));
    }

    /**
     * Past the REST client's pool, users queue for a connection, not for the CPU: a request holds its connection until
     * its answer is read, so at most the pool less the calls at the downstream wait in the JVM. 500 users with a pool
     * of 200 leave 200 - X × 10.4 ms waiting, not 500 - X × 10.4 ms, and each request costs what the curve says there.
     */
    @Test
    void pastTheClientsPoolUsersQueueForAConnectionAndNotForTheCpu() {
        CapacityModel m = model(Variant.Threads.EVENT_LOOP);
        Forecast wide = m.predict(at(10, 500));
        Forecast narrow = m.predict(at(10, 500).with(Axis.POOL_SIZE, 200));
        assertThat(narrow.binding()).isEqualTo(Ceiling.CPU);
        assertThat(narrow.rps()).isLessThan(wide.rps() * 0.9);
        // about 148 wait: between the 100 and 300 users' levels (52.7 and 250.5 waiting)
        double waiting = 200 - narrow.rps() * 0.0104;
        assertThat(waiting).isBetween(52.727, 250.476);
        assertThat(narrow.rps()).isCloseTo(500 / (0.11 - 0.005 * Math.log(waiting / 52.727)
                / Math.log(250.476 / 52.727)), within(0.05));
        assertThat(narrow.notes()).anySatisfy(n -> assertThat(n).containsPattern("^1\\d\\d of the 500 users wait in"
                + " the JVM for its CPU, 300 for a connection of the client's pool \\(a request holds one until its"
                + " answer is read\\), the rest at the downstream"));
        // a calibration window past its pool is read the same way: its users beyond the pool did not wait for the CPU
        WindowResult past = Windows.closed("reactive", 2000, 4000).pool(300).delayServed(50).build();
        assertThat(CapacityModel.inJvm(past)).isCloseTo(300 - 4000 * 0.050, within(1e-9));
        assertThat(CapacityModel.inJvm(Windows.closed("reactive", 2000, 4000).pool(2000).delayServed(50).build()))
                .isCloseTo(2000 - 4000 * 0.050, within(1e-9));
        // in parallel, a request holds one connection per call: a pool of 1,000 holds 250 requests of 4 calls
        WindowResult fanned = Windows.closed("reactive", 500, 1000).fanOut(4, FanOutMode.PARALLEL).delayServed(50)
                .build();
        assertThat(CapacityModel.inJvm(fanned)).isCloseTo(250 - 1000 * 0.050, within(1e-9));
    }

    /**
     * With fewer requests waiting than any level had, the cost continues the curve's first segment, where it falls
     * (fewer waiting, dearer), and the error is widened per e-fold below, as beyond the last level. A default run
     * calibrates at 150, 300 and 700 users and predicts 100, where fewer wait than at 150.
     */
    @Test
    void fewerWaitingThanAnyLevelContinueTheFirstSegmentWithAWidenedError() {
        CapacityModel m = model(Variant.Threads.EVENT_LOOP);
        // 80 users: 4,485.5 req/s leave 80 - 4,485.5 x 10.4 ms = 33.4 waiting, ln(52.7 / 33.4) = 0.458 e-folds below
        // the 100 users' level: 0.11 + 0.458 x 0.0032 = 0.1115 CPU-ms, which is 4,485.5 req/s again
        Forecast f = m.predict(at(10, 80));
        assertThat(f.binding()).isEqualTo(Ceiling.CPU);
        assertThat(f.rps()).isCloseTo(4485.5, within(0.1));
        double efolds = Math.log(52.727 / (80 - f.rps() * 0.0104));
        assertThat(efolds).isCloseTo(0.458, within(0.001));
        assertThat(f.rps()).isCloseTo(500 / (0.11 + 0.005 / Math.log(250.476 / 52.727) * efolds), within(0.05));
        assertThat(f.expectedError()).isCloseTo(m.interpolationError() + RULE * efolds, within(1e-4));
        assertThat(f.extrapolated()).as("not beyond the calibrated users").isFalse();
        assertThat(f.notes().getFirst()).isEqualTo("33 requests waiting in the JVM is fewer than the fewest a level had"
                + " (53 at 100 users): its CPU per request continues the curve's first segment where it falls, the"
                + " error widened by 30 % per e-fold below it");
        // a first segment that does not fall is not continued: the first level's cost, its error widened per e-fold
        // below it as far as the calibrations' own ends left out reach (one e-fold), and no further
        List<WindowResult> rising = List.of(
                Windows.closed("reactive", 300, 0.5 / 0.105 * 1000).cpuMs(0.105).cpuCores(0.5).calibration().build(),
                Windows.closed("reactive", 100, 0.5 / 0.10 * 1000).cpuMs(0.10).cpuCores(0.5).calibration().build());
        CapacityModel flat = CapacityModel.fit("jvm", Variant.Threads.EVENT_LOOP, rising).model().orElseThrow();
        Forecast held = flat.predict(at(10, 80));
        assertThat(held.ceilings().get(Ceiling.CPU)).isCloseTo(5000, within(0.01));
        double below = Math.log((100 - 5000 * 0.0104) / (80 - 5000 * 0.0104));
        assertThat(below).isCloseTo(0.539, within(0.001));
        assertThat(held.expectedError()).isCloseTo(flat.interpolationError() + RULE * below, within(1e-4));
        assertThat(held.notes().getFirst()).endsWith("the curve's first segment does not fall, so its CPU per request"
                + " is the first level's, the error widened by 30 % per e-fold below it, up to 1 e-fold");
        Forecast far = flat.predict(at(10, 54));
        assertThat(Math.log((100 - 5000 * 0.0104) / (54 - 5000 * 0.0104))).as("e-folds below").isGreaterThan(3);
        assertThat(far.ceilings().get(Ceiling.CPU)).isCloseTo(5000, within(0.01));
        assertThat(far.expectedError()).isCloseTo(flat.interpolationError() + RULE, within(1e-4));
    }

    /**
     * At a downstream of 0 ms (the database's query alone) fewer than one call is out at a time, and the levels count
     * at least one (Level#inFlight): the point must too, or its cost is read e-folds below every level's calls and its
     * error widened for an extrapolation no level is away from (database-jpa-2: ±67 % and 448 req/s said for the
     * imperative at its own calibration's delay, where it measured 280).
     */
    @Test
    void aPointAtTheCalibrationsOwnZeroDelayIsNoExtrapolationInTheCallsOut() {
        List<WindowResult> zero = List.of(
                Windows.closed("imperative", 700, 0.5 / 1.76 * 1000).delay(0).cpuMs(1.76).cpuCores(0.5)
                        .calibration().build(),
                Windows.closed("imperative", 300, 0.5 / 1.61 * 1000).delay(0).cpuMs(1.61).cpuCores(0.5)
                        .calibration().build(),
                Windows.closed("imperative", 150, 0.5 / 1.59 * 1000).delay(0).cpuMs(1.59).cpuCores(0.5)
                        .calibration().build());
        CapacityModel m = CapacityModel.fit("jvm", Variant.Threads.WORKER, zero).model().orElseThrow();
        Forecast f = m.predict(at(0, 500));
        assertThat(f.expectedError()).isEqualTo(m.interpolationError());
        assertThat(f.ceilings().get(Ceiling.CPU)).isBetween(0.5 / 1.76 * 1000, 0.5 / 1.59 * 1000);
    }

    /**
     * A second delay whose levels all left the CPU idle (the database pool bound them, as in a run on the database at
     * 10 and 50 ms) taught the curve nothing about calls in flight: the forecast says that, and does not tell the
     * user to calibrate at a second delay, which they did.
     */
    @Test
    void aSecondDelayWhoseLevelsLeftTheCpuIdleIsSaidToTeachNoCostOfCallsInFlight() {
        List<WindowResult> rows = new java.util.ArrayList<>(calibration("reactive"));
        rows.add(Windows.closed("reactive", 900, 390).delay(50).cpuMs(0.5).cpuCores(0.2).calibration().build());
        rows.add(Windows.closed("reactive", 400, 388).delay(50).cpuMs(0.5).cpuCores(0.2).calibration().build());
        CapacityModel m = CapacityModel.fit("jvm", Variant.Threads.EVENT_LOOP, rows).model().orElseThrow();
        assertThat(m.delays()).containsExactly(10, 50);
        assertThat(m.predict(at(20, 500)).notes())
                .anySatisfy(n -> assertThat(n).contains("calibrated at 10 and 50 ms only")
                        .contains("only the levels at 10 ms kept the CPU busy"))
                .noneSatisfy(n -> assertThat(n).contains("calibrate at a second delay"));
        assertThat(model(Variant.Threads.EVENT_LOOP).predict(at(20, 500)).notes())
                .anySatisfy(n -> assertThat(n).contains("calibrate at a second delay: --calibration-delay-ms"));
    }

    /**
     * The same 100 users at a 1 ms downstream leave more of them waiting in the JVM than at 10 ms (93.5 against 52.7:
     * 4,623 req/s × 1.4 ms at the downstream), and each request costs what the curve says there: less. By users alone
     * both points were one.
     */
    @Test
    void theSameUsersAtAShorterDelayWaitMoreInTheJvmAndCostWhatTheCurveSaysThere() {
        CapacityModel m = model(Variant.Threads.EVENT_LOOP);
        Forecast tenMs = m.predict(at(10, 100));
        Forecast oneMs = m.predict(at(1, 100));
        assertThat(tenMs.rps()).isCloseTo(500 / 0.11, within(0.01));
        assertThat(oneMs.rps()).isCloseTo(4622.7, within(0.1)).isGreaterThan(tenMs.rps());
        double waiting = 100 - oneMs.rps() * 0.0014;
        assertThat(oneMs.rps()).isCloseTo(500 / (0.11 - 0.005 * Math.log(waiting / 52.727)
                / Math.log(250.476 / 52.727)), within(0.05));
        assertThat(oneMs.notes()).anySatisfy(n -> assertThat(n).contains("94 of the 100 users wait in the JVM"));
    }

    /**
     * A level at 80 % of its quota or more is on the curve, though it did not saturate it: at 30 users the event loop
     * used 0.42 of its 0.5 CPU at 0.156 CPU-ms with 3 requests waiting, the cost a point with few users waiting pays
     * where the CPU binds (1 ms × 10 users). A level below 80 % is not: its CPU is partly the JVM's own idle work.
     */
    @Test
    void aLevelAtFourFifthsOfItsQuotaIsOnTheCurveALighterOneIsNot() {
        List<WindowResult> rows = new java.util.ArrayList<>(calibration("reactive"));
        rows.add(Windows.closed("reactive", 30, 2700).cpuMs(0.156).cpuCores(0.42).meanMs(11.1).calibration().build());
        CapacityModel m = CapacityModel.fit("jvm", Variant.Threads.EVENT_LOOP, rows).model().orElseThrow();
        assertThat(m.users()).containsExactly(30, 100, 300, 1000);
        assertThat(m.inJvm().getFirst()).isCloseTo(30 - 2700 * 0.0104, within(1e-9));
        // 1 ms x 10 users: 3,509 req/s leave 10 - 3,509 x 1.4 ms = 5.1 waiting, a fifth of the way (in log) from the
        // 30 users' 1.9 to the 100 users' 52.7: 0.1425 CPU-ms
        assertThat(m.predict(at(1, 10)).ceilings().get(Ceiling.CPU)).isCloseTo(3509.5, within(0.1));
        // (the saturated levels alone, their first segment continued down to 4.1 waiting: 0.1182, 4,229.7 req/s)
        assertThat(model(Variant.Threads.EVENT_LOOP).predict(at(1, 10)).ceilings().get(Ceiling.CPU))
                .isCloseTo(4229.7, within(0.1));

        rows.set(rows.size() - 1, Windows.closed("reactive", 30, 2700).cpuMs(0.156).cpuCores(0.38).meanMs(11.1)
                .calibration().build());
        assertThat(CapacityModel.fit("jvm", Variant.Threads.EVENT_LOOP, rows).model().orElseThrow().users())
                .containsExactly(100, 300, 1000);
    }

    @Test
    void aCalibrationWindowWhoseK6CountLaggedIsKeptForItsThroughputIsTheDownstreamsCount() {
        // the 1,000-user window again, its k6 count 12,500 short of the delay service's: more apart than 1,000 users
        // allow, and still a level of the model (a quick run calibrates each level once: leaving it out left CI's
        // miniature imperative JVM with one level and no model)
        List<WindowResult> windows = new java.util.ArrayList<>(calibration("reactive"));
        windows.set(0, Windows.closed("reactive", 1000, 6250).cpuMs(0.08).cpuCores(0.5).served(75_000, 0.01)
                .calibration().build());
        assertThat(windows.getFirst().countsAgree()).isFalse();
        CapacityModel m = CapacityModel.fit("jvm", Variant.Threads.EVENT_LOOP, windows).model().orElseThrow();
        assertThat(m.users()).containsExactly(100, 300, 1000);
    }

    @Test
    void beyondTheCalibratedUsersTheNearestCostIsTakenAndTheErrorWidened() {
        // a pool that holds every user: past it they would queue for a connection, not the CPU
        Forecast f = model(Variant.Threads.EVENT_LOOP).predict(at(10, 4000).with(Axis.POOL_SIZE, 4000));
        assertThat(f.extrapolated()).isTrue();
        assertThat(f.rps()).isCloseTo(0.5 * 1000 / 0.08, within(1e-6));
        // 4,000 - 6,250 x 10.4 ms = 3,935 waiting is ln(3,935 / 935) = 1.437 e-folds beyond 1,000's: 43.1 % wider
        CapacityModel m = model(Variant.Threads.EVENT_LOOP);
        assertThat(f.expectedError()).isCloseTo(m.interpolationError() + RULE * Math.log(3935.0 / 935), within(1e-6));
        assertThat(f.notes()).anyMatch(n -> n.contains("4,000 users is beyond the most calibrated on the CPU (1,000),"
                + " and 3,935 requests waiting in the JVM beyond the most a level had (935)"));
        // the error widens only with both: more users than calibrated, and more of them waiting in the JVM than any
        // level had (more users at a long delay are at the downstream, not in the JVM)
        assertThat(m.cost(400, 60, true).error()).isEqualTo(m.interpolationError());
        assertThat(m.cost(3935, 60, false).error()).isEqualTo(m.interpolationError());
    }

    @Test
    void aLongDelayBindsTheWorkersOfAWorkerVariantButNotTheEventLoop() {
        // the light level held each request 1 ms above its 10 ms delay: at 300 ms a request holds 301 ms
        Forecast workers = model(Variant.Threads.WORKER).predict(at(300, 1000));
        assertThat(workers.binding()).isEqualTo(Ceiling.WORKERS);
        assertThat(workers.rps()).isCloseTo(200 / 0.301, within(0.5));
        assertThat(workers.holdMs()).isCloseTo(301, within(1e-9));
        Forecast loop = model(Variant.Threads.EVENT_LOOP).predict(at(300, 800));
        assertThat(loop.ceilings()).doesNotContainKey(Ceiling.WORKERS);
        assertThat(loop.binding()).isEqualTo(Ceiling.USERS);
        assertThat(loop.rps()).isCloseTo(800 / 0.301, within(1.0));
        Forecast pool = model(Variant.Threads.EVENT_LOOP).predict(at(300, 3000).with(Axis.POOL_SIZE, 300));
        assertThat(pool.binding()).isEqualTo(Ceiling.CONNECTIONS);
        assertThat(pool.rps()).isCloseTo(300 / 0.301, within(1.0));
        assertThat(pool.margin()).isGreaterThan(Forecast.CLEAR_MARGIN);
    }

    /**
     * A calibration level at 300 ms with 1,000 users queued for the 200 workers with the CPU nearly idle, and served
     * 600 req/s where 200 workers each held 301 ms allow 664.5: the workers' forecasts carry that 9.7 % miss as their
     * error, not a window's 5 %; the event loop, which has no workers, does not.
     */
    @Test
    void aPoolsCeilingCarriesTheErrorItsQueuedLevelsEarned() {
        List<WindowResult> queued = new java.util.ArrayList<>(calibration("imperative"));
        queued.add(Windows.closed("imperative", 1000, 600).delay(300).cpuMs(0.13).cpuCores(0.08).calibration().build());
        Forecast workers = CapacityModel.fit("jvm", Variant.Threads.WORKER, queued).model().orElseThrow()
                .predict(at(300, 1000));
        assertThat(workers.binding()).isEqualTo(Ceiling.WORKERS);
        assertThat(workers.expectedError()).isCloseTo(1 - 600 / (200 / 0.301), within(1e-9));
        assertThat(model(Variant.Threads.WORKER).predict(at(300, 1000)).expectedError())
                .as("no level queued for the workers").isEqualTo(CapacityModel.LEAST_ERROR);
        Forecast loop = CapacityModel.fit("jvm", Variant.Threads.EVENT_LOOP, queued).model().orElseThrow()
                .predict(at(300, 800));
        assertThat(loop.binding()).isEqualTo(Ceiling.USERS);
        assertThat(loop.expectedError()).isEqualTo(CapacityModel.LEAST_ERROR);
    }

    @Test
    void theSlotCeilingsLoseTheCollectorsPausesAtTheirThroughputTheCpuCeilingDoesNot() {
        // the same calibration, each level paused in proportion to its throughput: 3 % of its time per 1,000 req/s
        List<WindowResult> paused = calibration("imperative").stream().map(w -> Windows.closed("imperative",
                w.users(), w.load().requestsPerSecond()).cpuMs(w.cpu().cpuMsPerRequest()).cpuCores(w.cpu().cpuCores())
                .meanMs(w.load().meanMs()).gcPauses(0.03 * w.load().requestsPerSecond() / 1000 * 10, 0)
                .calibration().build()).toList();
        CapacityModel withPauses = CapacityModel.fit("jvm", Variant.Threads.WORKER, paused).model().orElseThrow();
        CapacityModel without = CapacityModel.fit("jvm", Variant.Threads.WORKER, calibration("imperative")).model()
                .orElseThrow();
        // 200 workers each held 301 ms allow 664.5 req/s; paused 3 % per 1,000 req/s, x = 664.5 × (1 - 0.00003 x)
        Forecast workers = withPauses.predict(at(300, 1000));
        double c = 200 / 0.301;
        assertThat(workers.binding()).isEqualTo(Ceiling.WORKERS);
        assertThat(workers.rps()).isCloseTo(c / (1 + 0.00003 * c), within(0.01));
        assertThat(workers.rps()).isCloseTo(c * (1 - 0.00003 * workers.rps()), within(0.01));
        assertThat(workers.notes()).anySatisfy(n -> assertThat(n).startsWith("the collector pauses the JVM about"
                + " 2.0 % of the time at 651 req/s").contains("the workers are held through them"));
        assertThat(without.predict(at(300, 1000)).rps()).isCloseTo(c, within(0.01));
        assertThat(without.predict(at(300, 1000)).notes()).noneSatisfy(n -> assertThat(n).contains("collector"));
        // where the CPU binds, the pauses are already in the CPU a request cost: the same ceiling either way
        assertThat(withPauses.predict(at(10, 500)).ceilings().get(Ceiling.CPU))
                .isCloseTo(without.predict(at(10, 500)).ceilings().get(Ceiling.CPU), within(1e-9));
    }

    @Test
    void anotherQuotaScalesTheCpuCeilingAndSaysSo() {
        Forecast f = model(Variant.Threads.EVENT_LOOP).predict(at(10, 500).with(Axis.CPUS, 0.25));
        // half the throughput leaves more waiting in the JVM (472 against 445 at 0.5 CPU): each costs a little less
        assertThat(f.rps()).isCloseTo(2689.0, within(0.1));
        assertThat(f.rps()).isCloseTo(250 / curveAt(500, f.rps()), within(0.01));
        assertThat(f.notes()).anyMatch(n -> n.contains("calibrated at 0.5 CPU") && n.contains("an extrapolation"));
        // no longer measured: marked, and its error widened by 30 % per e-fold of quota over the same point's at 0.5
        Forecast calibrated = model(Variant.Threads.EVENT_LOOP).predict(at(10, 500));
        assertThat(calibrated.extrapolated()).isFalse();
        assertThat(f.extrapolated()).isTrue();
        assertThat(f.expectedError()).isGreaterThanOrEqualTo(calibrated.expectedError() + 0.30 * Math.log(2) - 1e-9);
    }

    @Test
    void withoutALightLevelTheHoldTimeIsALowerBoundAndSaidToBe() {
        List<WindowResult> busy = calibration("reactive").subList(0, 3);
        CapacityModel m = CapacityModel.fit("jvm", Variant.Threads.WORKER, busy).model().orElseThrow();
        assertThat(m.overheadMeasured()).isFalse();
        // the delay service served 10.4 ms: 0.4 ms late, plus the fewest users' 0.11 CPU-ms at 0.5 CPU = 0.22 ms
        assertThat(m.overheadMs()).isCloseTo(0.4 + 0.11 / 0.5, within(1e-6));
        assertThat(m.predict(at(300, 1000)).notes()).anyMatch(n -> n.contains("lower bound"));
    }

    @Test
    void withoutASaturatingLevelTheCpuCeilingIsABoundAndSaidToBe() {
        CapacityModel m = CapacityModel.fit("jvm", Variant.Threads.EVENT_LOOP, List.of(
                Windows.closed("reactive", 50, 4000).cpuMs(0.09).calibration().build(),
                Windows.closed("reactive", 10, 900).cpuMs(0.12).meanMs(11).calibration().build())).model().orElseThrow();
        assertThat(m.saturated()).isFalse();
        assertThat(m.users()).containsExactly(50);
        assertThat(m.predict(at(10, 1000)).notes()).anyMatch(n -> n.contains("no calibration level saturated"));
    }

    @Test
    void oneCalibratedLevelIsNoModelAndSaysWhatIsMissing() {
        CapacityModel.Fit fit = CapacityModel.fit("reactive-jvm1", Variant.Threads.EVENT_LOOP,
                calibration("reactive").subList(0, 1));
        assertThat(fit.model()).isEmpty();
        assertThat(fit.missing()).contains("reactive-jvm1").contains("needs two");
        assertThat(CapacityModel.fit("x", Variant.Threads.EVENT_LOOP, List.of()).missing())
                .contains("no calibration windows");
    }

    @Test
    void aPredictionNeedsTheUsersAndTheDelay() {
        assertThatThrownBy(() -> model(Variant.Threads.EVENT_LOOP).predict(Point.of(Axis.DELAY_MS, 10)))
                .hasMessageContaining("--users");
    }

    @Test
    void theMemoryIsALineInTheUsers() {
        List<WindowResult> rows = List.of(
                Windows.closed("virtual-thread", 1000, 6000).cpuMs(0.08).rss(400).calibration().build(),
                Windows.closed("virtual-thread", 100, 5000).cpuMs(0.10).rss(310).calibration().build());
        Forecast f = CapacityModel.fit("vt", Variant.Threads.VIRTUAL, rows).model().orElseThrow().predict(at(10, 2000));
        assertThat(f.rssMb()).isCloseTo(500, within(1e-6)); // 0.1 MB per user over 300 MB
    }

    /**
     * Fan-out from first principles, on the one-call calibration (a call holds 10 + 1 ms of overhead: 101 ms at
     * 100 ms): connections pool ÷ (N × hold), a worker request's workers (1 + N) in parallel and one for N holds in
     * turn, the users' ceiling one hold in parallel and N sequentially, the CPU N × one call's.
     */
    @Test
    void fanOutDividesEachCeilingByWhatOneRequestHolds() {
        CapacityModel workers = model(Variant.Threads.WORKER);
        Point parallel = at(100, 100).with(Axis.FAN_OUT, 8).with(Axis.FAN_OUT_MODE, FanOutMode.PARALLEL);
        Forecast p = workers.predict(parallel);
        assertThat(p.ceilings().get(Ceiling.CONNECTIONS)).isCloseTo(1000 / (8 * 0.101), within(1e-6));
        // 900 workers asked of 200: every task waits W = 0.101 × 700 ÷ 300 for one (FanOut#workersCeiling)
        assertThat(p.ceilings().get(Ceiling.WORKERS)).isCloseTo(100 / (2 * 0.101 * 7 / 3 + 0.101), within(1e-6));
        assertThat(p.notes()).anySatisfy(n -> assertThat(n).contains("ask for 900 workers of 200;")
                .contains("each waits about 236 ms"));
        assertThat(p.ceilings().get(Ceiling.USERS)).isCloseTo(100 / 0.101, within(1e-6));
        // 565 req/s leave 100 - 565 x 100.4 ms = 43 waiting, fewer than the 100 users' level's 52.7: its cost there
        double cpu = p.ceilings().get(Ceiling.CPU);
        assertThat(cpu).isCloseTo(0.5 * 1000 / (8 * firstSegment(100 - cpu * 0.1004)), within(1e-3))
                .isCloseTo(564.9, within(0.1));
        assertThat(p.binding()).isEqualTo(Ceiling.WORKERS); // 175 req/s
        assertThat(p.holdMs()).isCloseTo(101, within(1e-9));
        assertThat(p.notes()).anySatisfy(n -> assertThat(n).contains("8 calls per request in parallel")
                .contains("its p50 is a call's p91.7"));

        // light load responds in about one delay in parallel, N delays in turn
        Forecast light = workers.predict(at(100, 10).with(Axis.FAN_OUT, 8));
        assertThat(light.binding()).isEqualTo(Ceiling.USERS);
        assertThat(light.p50Ms()).isCloseTo(101, within(1e-6)).isLessThan(1.5 * 100);
        Forecast inTurn = workers.predict(at(100, 10).with(Axis.FAN_OUT, 8)
                .with(Axis.FAN_OUT_MODE, FanOutMode.SEQUENTIAL));
        assertThat(inTurn.ceilings().get(Ceiling.WORKERS)).isCloseTo(200 / (8 * 0.101), within(1e-6));
        assertThat(inTurn.ceilings().get(Ceiling.CONNECTIONS)).isCloseTo(1000 / (8 * 0.101), within(1e-6));
        assertThat(inTurn.p50Ms()).isCloseTo(808, within(1e-6));

        // the event loop holds no worker: no such ceiling; one call is the model it always was
        Forecast loop = model(Variant.Threads.EVENT_LOOP).predict(parallel);
        assertThat(loop.ceilings()).doesNotContainKey(Ceiling.WORKERS);
        assertThat(model(Variant.Threads.EVENT_LOOP).predict(at(100, 100).with(Axis.FAN_OUT, 1)))
                .isEqualTo(model(Variant.Threads.EVENT_LOOP).predict(at(100, 100)));
    }

    /**
     * With a fan-out calibration window (8 parallel calls at 100 users, saturating: 0.44 CPU-ms against one call's
     * 0.108 at its requests waiting), the CPU per request at N calls is one call's at the point's requests waiting plus
     * (N - 1) × what each further call added there (0.44 less one call's 0.108 at the 88 that waited in that window,
     * over 7). Sequential has no such window: it keeps N × one call's and says so. Beyond 8 calls the line goes on,
     * called an extrapolation with a widened error.
     */
    @Test
    void aFanOutCalibrationMakesTheCpuPerRequestALineInTheCalls() {
        List<WindowResult> rows = new java.util.ArrayList<>(calibration("reactive"));
        rows.add(Windows.closed("reactive", 100, 0.5 / 0.44 * 1000).cpuMs(0.44).cpuCores(0.5)
                .fanOut(8, FanOutMode.PARALLEL).calibration().build());
        CapacityModel m = CapacityModel.fit("jvm", Variant.Threads.EVENT_LOOP, rows).model().orElseThrow();
        // the fan-out window is no level of the one-call curve
        assertThat(m.users()).containsExactly(100, 300, 1000);
        assertThat(m.cpuMsPerRequest()).containsExactly(0.11, 0.105, 0.08);
        assertThat(m.fanOutLevels()).singleElement().satisfies(f -> {
            assertThat(f.calls()).isEqualTo(8);
            assertThat(f.users()).isEqualTo(100);
            // 1,136 req/s left 100 - 1,136 x 10.4 ms = 88.2 waiting, where one call costs 0.1083 on the curve
            assertThat(f.inJvm()).isCloseTo(100 - 500 / 0.44 * 0.0104, within(1e-9));
            assertThat(f.oneCallCpuMs()).isCloseTo(0.10835, within(1e-5));
            assertThat(f.perFurtherCallMs()).isCloseTo((0.44 - f.oneCallCpuMs()) / 7, within(1e-12));
        });

        Forecast four = m.predict(at(10, 100).with(Axis.FAN_OUT, 4).with(Axis.FAN_OUT_MODE, FanOutMode.PARALLEL));
        // 4 calls at 100 users: 79 waiting, one call 0.1087, each further one 0.0474
        assertThat(four.ceilings().get(Ceiling.CPU)).isCloseTo(1993.4, within(0.1));
        assertThat(four.extrapolated()).isFalse();
        assertThat(four.notes()).anySatisfy(n -> assertThat(n).contains("one call's 0.109 and 0.047 for each"
                + " further call, the line through the calibration's 8 parallel calls at 100 users (0.440 there)"));
        // at 300 users one call costs 300's, each further call the same
        assertThat(m.predict(at(10, 300).with(Axis.FAN_OUT, 8).with(Axis.POOL_SIZE, 100_000)).ceilings()
                .get(Ceiling.CPU))
                .isCloseTo(1152.1, within(0.1));
        // ... which is held flat while one call's moved: the error widens by that move times the further calls' share
        // (at 1,000 users one call costs 0.08, 26 % less than at the calibration's 88 waiting; further calls are 0.332
        // of 0.412)
        Forecast far = m.predict(at(10, 1000).with(Axis.FAN_OUT, 8).with(Axis.POOL_SIZE, 100_000));
        // (and, its calls in flight beyond those of the levels its cost is read from, by the rule for that as well)
        assertThat(far.expectedError()).isGreaterThan(m.interpolationError() + (1 - 0.08 / 0.10835) * (0.44 - 0.10835)
                / (0.08 + 0.44 - 0.10835));
        assertThat(far.notes()).anySatisfy(n -> assertThat(n).contains("one call's cost moved 26 % between the"
                + " calibration's 100 users and these 1,000", "the error widened by 21 %"));
        // at the calibration's own users one call's cost did not move: the error is the one-call curve's there (its
        // 4 × 10.4 ms of calls out a request, about 83, read from the 100-user level's 47: widened by the rule)
        double cpu = four.ceilings().get(Ceiling.CPU);
        assertThat(four.expectedError()).as("at the calibration's own users nothing moved")
                .isEqualTo(m.curve().at(100 - cpu * 0.0104, cpu * 0.0104 * 4, false).error())
                .isGreaterThan(m.interpolationError());

        Forecast sixteen = m.predict(at(10, 100).with(Axis.FAN_OUT, 16).with(Axis.FAN_OUT_MODE,
                FanOutMode.PARALLEL).with(Axis.POOL_SIZE, 100_000));
        assertThat(sixteen.ceilings().get(Ceiling.CPU)).isCloseTo(610.6, within(0.1));
        assertThat(sixteen.binding()).isEqualTo(Ceiling.CPU);
        assertThat(sixteen.extrapolated()).isTrue();
        // beyond the calls calibrated (16 over 8), and its 102 calls in flight beyond the 47-48 of the levels its cost
        // is read from (the 100- and 300-user levels, around its waiting), past half a factor of 2
        double cpu16 = sixteen.ceilings().get(Ceiling.CPU);
        double waiting = 100 - cpu16 * 0.0104;
        assertThat(m.inJvm().get(0)).isLessThan(waiting);
        assertThat(m.inJvm().get(1)).isGreaterThan(waiting);
        double t = Math.log(waiting / m.inJvm().get(0)) / Math.log(m.inJvm().get(1) / m.inJvm().get(0));
        double readFrom = (1 - t) * Math.log(m.inFlight().get(0)) + t * Math.log(m.inFlight().get(1));
        assertThat(sixteen.expectedError()).isCloseTo(m.interpolationError() + RULE * Math.log(2)
                + RULE * (Math.log(cpu16 * 16 * 0.0104) - readFrom - Math.log(2) / 2), within(1e-9));

        Forecast inTurn = m.predict(at(10, 100).with(Axis.FAN_OUT, 4).with(Axis.FAN_OUT_MODE,
                FanOutMode.SEQUENTIAL));
        assertThat(inTurn.ceilings().get(Ceiling.CPU)).isCloseTo(0.5 * 1000 / (4 * 0.11), within(1e-6));
        assertThat(inTurn.notes()).anySatisfy(n -> assertThat(n).contains("no fan-out calibration in this mode"));
    }

    /** The fixture's curve below its first level (52.7 waiting): the first segment continued. */
    private static double firstSegment(double waiting) {
        return 0.11 + 0.005 / Math.log(250.476 / 52.727) * Math.log(52.727 / waiting);
    }

    /**
     * What a further call adds is taken against one call's cost in the same state of the quota: a fan-out window that
     * saturated its quota at 10 users, where one call left the CPU idle (0.13 CPU-ms, light), is set against the
     * saturated curve's cost there (its first segment continued down to the window's 7.4 waiting), not the light 0.13.
     */
    @Test
    void aSaturatedFanOutWindowIsSetAgainstTheSaturatedOneCallCost() {
        List<WindowResult> rows = new java.util.ArrayList<>(calibration("imperative"));
        rows.add(Windows.closed("imperative", 10, 250).cpuMs(2.0).cpuCores(0.5).fanOut(16, FanOutMode.PARALLEL)
                .calibration().build());
        CapacityModel m = CapacityModel.fit("jvm", Variant.Threads.WORKER, rows).model().orElseThrow();
        assertThat(m.fanOutLevels()).singleElement().satisfies(f -> {
            double oneCall = firstSegment(10 - 250 * 0.0104);
            assertThat(f.oneCallCpuMs()).isCloseTo(oneCall, within(1e-6)).isCloseTo(0.1163, within(1e-4));
            assertThat(f.perFurtherCallMs()).isCloseTo((2.0 - oneCall) / 15, within(1e-6));
        });
        // the same window light (0.3 CPU): set against one call's light level at its users
        List<WindowResult> light = new java.util.ArrayList<>(calibration("imperative"));
        light.add(Windows.closed("imperative", 10, 150).cpuMs(2.0).cpuCores(0.3).fanOut(16, FanOutMode.PARALLEL)
                .calibration().build());
        assertThat(CapacityModel.fit("jvm", Variant.Threads.WORKER, light).model().orElseThrow().fanOutLevels())
                .singleElement().satisfies(f -> assertThat(f.oneCallCpuMs()).isEqualTo(0.13));
    }
}
