package io.threadlab.experiment.predict;

import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.ExperimentPlan;
import io.threadlab.experiment.plan.FanOutMode;
import io.threadlab.experiment.plan.Point;
import io.threadlab.experiment.plan.Variant;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The point a prediction is asked for: each value given, or (null) the calibration's own. The users default to the
 * most the calibration measured: the heaviest load the model has seen, and so the variant's capacity where the CPU
 * binds, without an extrapolation.
 */
public record WhatIf(Integer users, Integer delayMs, Double cpus, Integer workerMax, Integer poolSize,
                     Integer dbPoolSize, Double dbCpus, Integer fanOut, FanOutMode fanOutMode) {

    public static final WhatIf CALIBRATIONS_OWN = new WhatIf(null, null, null, null, null, null, null);

    /** A point on the delay service's side: the database's knobs the calibration's. */
    public WhatIf(Integer users, Integer delayMs, Double cpus, Integer workerMax, Integer poolSize) {
        this(users, delayMs, cpus, workerMax, poolSize, null, null);
    }

    /** One call per request, as the calibration's. */
    public WhatIf(Integer users, Integer delayMs, Double cpus, Integer workerMax, Integer poolSize,
                  Integer dbPoolSize, Double dbCpus) {
        this(users, delayMs, cpus, workerMax, poolSize, dbPoolSize, dbCpus, null, null);
    }

    /** Refuses a number no JVM or load could have, naming the flag: each axis says what it accepts. */
    public WhatIf {
        checked(Axis.USERS, users);
        checked(Axis.WORKER_MAX, workerMax);
        checked(Axis.POOL_SIZE, poolSize);
        checked(Axis.DB_POOL_SIZE, dbPoolSize);
        checked(Axis.FAN_OUT, fanOut);
        checked(Axis.DB_CPUS, dbCpus);
        checked(Axis.DELAY_MS, delayMs);
        checked(Axis.CPUS, cpus);
        if (fanOutMode != null && (fanOut == null || fanOut == 1)) {
            throw new IllegalArgumentException("--fan-out-mode needs --fan-out above 1: one call is one call in either"
                    + " mode");
        }
    }

    private static <T extends Comparable<T>> void checked(Axis<T> axis, T value) {
        if (value != null) {
            axis.check(List.of(value), axis.flag().pointName());
        }
    }

    /** The point for {@code calibrated}'s model: its setup and delay, its most users, overridden where given. */
    public Point at(Calibrated calibrated) {
        Point setup = calibrated.setup();
        return setup.with(Axis.CPUS, cpus != null ? cpus : setup.get(Axis.CPUS))
                .with(Axis.WORKER_MAX, workerMax != null ? workerMax : setup.get(Axis.WORKER_MAX))
                .with(Axis.POOL_SIZE, poolSize != null ? poolSize : setup.get(Axis.POOL_SIZE))
                .with(Axis.DB_POOL_SIZE, dbPoolSize != null ? dbPoolSize : setup.get(Axis.DB_POOL_SIZE))
                .with(Axis.DB_CPUS, dbCpus != null ? dbCpus : setup.get(Axis.DB_CPUS))
                .with(Axis.DELAY_MS, delayMs != null ? delayMs : calibrated.delayMs())
                .with(Axis.FAN_OUT, fanOut != null && fanOut > 1 ? fanOut : null)
                .with(Axis.FAN_OUT_MODE, fanOut != null && fanOut > 1
                        ? (fanOutMode != null ? fanOutMode : FanOutMode.PARALLEL) : null)
                .with(Axis.USERS, users != null ? users : calibrated.users().getFirst());
    }

    /**
     * What the prediction at {@code at} assumes beyond its calibration that {@link CapacityModel#predict} does not
     * already say (it names another quota, another delay and users beyond the calibrated ones).
     */
    public List<String> notes(Calibrated calibrated, Point at) {
        List<String> notes = new ArrayList<>();
        Integer calibratedWorkers = calibrated.setup().get(Axis.WORKER_MAX);
        if (workerMax != null && !workerMax.equals(calibratedWorkers)) {
            notes.add(calibrated.threads() == Variant.Threads.WORKER
                    ? String.format(Locale.ROOT, "calibrated with %,d workers: the CPU per request is taken as the"
                    + " same with %,d", calibratedWorkers, workerMax)
                    : "--worker-max does not apply: " + calibrated.variant() + " does not run requests on workers");
        }
        Integer calibratedPool = calibrated.setup().get(Axis.POOL_SIZE);
        if (poolSize != null && !poolSize.equals(calibratedPool)) {
            notes.add(String.format(Locale.ROOT, "calibrated with a pool of %,d: the CPU per request is taken as the"
                    + " same with %,d", calibratedPool, poolSize));
        }
        if ((dbPoolSize != null || dbCpus != null) && !calibrated.setup().has(Axis.DB_POOL_SIZE)) {
            notes.add("--db-pool-size and --db-cpus do not apply: this calibration waited on the delay service"
                    + " (--downstream db asks the database's)");
        }
        Integer pool = poolSize != null ? poolSize : calibrated.setup().get(Axis.POOL_SIZE);
        if (fanOut != null && pool != null && fanOut > pool) {
            notes.add(String.format(Locale.ROOT, "--fan-out %d is more calls than the pool of %,d holds: the services"
                    + " refuse such a request (400)", fanOut, pool));
        }
        if (fanOut != null && fanOut > 1 && calibrated.setup().has(Axis.DB_POOL_SIZE)) {
            notes.add("--fan-out calls the delay service: this calibration waited on the database");
        }
        if (!calibrated.known()) {
            notes.add(calibrated.variant() + " is not a variant this runner knows: taken to run on workers");
        }
        return notes;
    }
}
