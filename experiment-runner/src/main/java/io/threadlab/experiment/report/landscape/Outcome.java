package io.threadlab.experiment.report.landscape;

import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.Headroom;
import io.threadlab.experiment.plan.Point;
import io.threadlab.experiment.predict.Ceiling;
import io.threadlab.experiment.predict.Forecast;
import io.threadlab.experiment.record.Yardstick;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * One closed-model point of one JVM, as measured and as predicted before it was measured: the prediction its window
 * carries (none where the JVM was not calibrated), whether the point is one of its JVM's calibration points (then it
 * is no test of the model), and the checks of the measurement itself: the saturation check (the CPU the JVM used
 * over its quota: 1 where the CPU binds, whatever the model said), Little's law (users = throughput × mean response
 * time) and the load generator's headroom.
 *
 * @param at         the point: the JVM's axes and the window's
 * @param calibrated the JVM was calibrated at these users and this delay: the point is in sample
 * @param headroom   the load generator's, by the one rule; empty where the run did not record its machine's CPUs
 * @param readings   what else was read of the window, to judge the measurement by
 */
public record Outcome(String jvm, String jvmId, String variant, Point at, double measured,
                      Optional<WindowResult.Prediction> prediction, boolean calibrated, Optional<Headroom> headroom,
                      Readings readings) {

    /**
     * What was read of the window beside its throughput: each a check of the measurement, or an explanation of a
     * prediction it missed.
     *
     * @param saturation  the CPU the JVM used over its quota
     * @param littleUsers throughput × mean response time: the users Little's law says were busy (null: unknown)
     * @param inFlight    requests sent and not yet answered at the window's end (null: unknown)
     * @param gcShare     the share of the window the JVM was paused for its collector (null: not read)
     * @param promotedMbPerSecond what its young collections promoted to the old generation a second (null: not read)
     * @param countsApart k6's count and the downstream's, where they were farther apart than correct counts can be
     *                    ({@link WindowResult#countsAgree}); null where they agreed or there was no second count
     * @param yardstickUs the machine's own speed over the window: CPU-µs of the runner's fixed piece of work (null:
     *                    not timed)
     */
    public record Readings(double saturation, Double littleUsers, Long inFlight, long errors,
                           Map<String, Long> errorCauses, double p99Ms, Double gcShare, Double promotedMbPerSecond,
                           String countsApart, Double yardstickUs) {
    }

    /** Little's law is flagged when the busy users differ from the users by more than this. */
    public static final double LITTLE_TOLERANCE = 0.10;
    /** A point whose JVM used at least this share of its quota was bound by its CPU, whatever was predicted. */
    public static final double CPU_BOUND_SHARE = 0.9;

    /** A window of the run as an outcome; {@code calibrated} says whether its JVM was calibrated at its point. */
    public static Outcome of(WindowResult w, boolean calibrated, double machineCores, boolean loadAlone) {
        Double little = w.load().meanMs() == null ? null : w.load().requestsPerSecond() * w.load().meanMs() / 1000;
        return new Outcome(w.jvmName(), w.jvmId(), w.variant(), w.at(), w.load().requestsPerSecond(),
                Optional.ofNullable(w.prediction()), calibrated,
                machineCores <= 0 ? Optional.empty() : Optional.of(w.headroom(machineCores, loadAlone)),
                new Readings(w.cpu().cpuCores() / w.at().get(Axis.CPUS), little, w.load().inFlight(),
                        w.load().errors(), w.load().errorCauses(),
                        w.load().p99Ms() == null ? Double.NaN : w.load().p99Ms(),
                        w.gc() == null ? null : w.gc().pauseShare(w.load().windowSeconds()),
                        w.gc() == null ? null : w.gc().promotedMbPerSecond(w.load().windowSeconds()),
                        Boolean.FALSE.equals(w.countsAgree()) ? w.countsDescribed() : null,
                        w.instruments().yardstickUs()));
    }

    /**
     * Whether what was measured here can be held against a prediction: no request failed and k6 had its headroom.
     * k6's count lagging the downstream's does not exclude a point: its throughput is the downstream's count.
     */
    public boolean measuredSoundly() {
        return readings.errors() == 0 && headroom.map(Headroom::enough).orElse(false);
    }

    public int users() {
        return at.get(Axis.USERS);
    }

    public int delayMs() {
        return at.get(Axis.DELAY_MS);
    }

    public Integer workerMax() {
        return at.get(Axis.WORKER_MAX);
    }

    /** Predicted before it was measured, and not one of its JVM's calibration points: a test of the model. */
    public boolean heldOut() {
        return prediction.isPresent() && !calibrated;
    }

    /**
     * Predicted from its own JVM's calibration (the model's test), not from another JVM start's (which adds the JVM
     * start's own variance to the model's error).
     */
    public boolean ownCalibration() {
        return prediction.map(p -> p.calibratedOn() == null || p.calibratedOn().equals(jvmId)).orElse(false);
    }

    /**
     * The JVM whose calibration the prediction was read from: its own, or, for a later JVM start, its variant's first
     * (where the prediction does not say, its own).
     */
    public String calibratingJvmId() {
        return prediction.map(WindowResult.Prediction::calibratedOn).orElse(jvmId);
    }

    /** The ceiling the prediction named; empty without a prediction. */
    public Optional<Ceiling> binding() {
        return prediction.map(p -> Ceiling.valueOf(p.binding().toUpperCase(Locale.ROOT)));
    }

    public double predicted() {
        return prediction.map(WindowResult.Prediction::predictedRps).orElse(Double.NaN);
    }

    /** Measured over predicted (NaN without a prediction). */
    public double ratio() {
        return measured / predicted();
    }

    /** The relative error of the prediction: |measured ÷ predicted − 1|. */
    public double error() {
        return Math.abs(ratio() - 1);
    }

    /** One ceiling binds: the next is at least {@link Forecast#CLEAR_MARGIN} above it. */
    public boolean oneCeilingBinds() {
        return prediction.map(p -> p.margin() >= Forecast.CLEAR_MARGIN).orElse(false);
    }

    /**
     * The ceiling that bound the point, as measured: the CPU where the JVM used its quota ({@link #CPU_BOUND_SHARE});
     * else the predicted ceiling (other than the CPU) nearest the measured throughput, where it lies within the
     * model's tolerance of it; else none can be named from the measurement.
     */
    public Optional<Ceiling> measuredBinding() {
        if (readings.saturation() >= CPU_BOUND_SHARE) {
            return Optional.of(Ceiling.CPU);
        }
        return prediction.flatMap(p -> p.ceilings().entrySet().stream()
                .filter(e -> !e.getKey().equals("cpu") && e.getValue() > 0)
                .min(java.util.Comparator.comparingDouble(e -> Math.abs(Math.log(measured / e.getValue()))))
                .filter(e -> Math.abs(measured / e.getValue() - 1) <= Forecast.TOLERANCE)
                .map(e -> Ceiling.valueOf(e.getKey().toUpperCase(Locale.ROOT))));
    }

    /**
     * Whether the interval stated before it bounds the throughput from below: one whose error reached 100 % (a point
     * far beyond its calibration) reaches down to nothing, and no measurement could fall outside it. Such a point is
     * not counted for or against the interval's coverage.
     */
    public boolean bounded() {
        return prediction.map(p -> p.low() > 0).orElse(false);
    }

    /** Whether the measurement fell inside the interval stated before it (false without a prediction). */
    public boolean covered() {
        return prediction.map(p -> p.covers(measured)).orElse(false);
    }

    /**
     * Held out, one ceiling binding, measured soundly (no errors, k6 in its headroom): a point a prediction is judged
     * on.
     */
    public boolean judged() {
        return heldOut() && oneCeilingBinds() && measuredSoundly();
    }

    public boolean withinTolerance() {
        return error() <= Forecast.TOLERANCE;
    }

    /**
     * Where Little's law fails, whether the users were busy all the same: nearly every one of them had a request in
     * flight at the window's end, unanswered, which the mean response time (of the answered) does not count.
     */
    public boolean heldUnanswered() {
        return readings.inFlight() != null && readings.inFlight() >= (1 - LITTLE_TOLERANCE) * users();
    }

    /**
     * Whether the machine ran at the speed the forecast was made for: the runner's fixed piece of work took within
     * {@link Yardstick#SLOWER_SHARE} of the CPU over the window that it took in the windows before it, which the
     * forecast read the machine's speed from. Empty where the forecast did not record that speed (made before the
     * runner did) or the window was not timed. A forecast cannot know the machine's next minute: where the machine
     * kept its speed, what is missed is the model's.
     */
    public Optional<Boolean> machineAsForecast() {
        Double us = readings.yardstickUs();
        return prediction.map(WindowResult.Prediction::predictedMachineUs).filter(assumed -> us != null)
                .map(assumed -> Math.abs(us / assumed - 1) <= Yardstick.SLOWER_SHARE);
    }

    public Boolean littleHolds() {
        return readings.littleUsers() == null ? null
                : Math.abs(readings.littleUsers() / users() - 1) <= LITTLE_TOLERANCE;
    }
}
