package io.threadlab.experiment.predict;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.Point;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One variant's prediction as {@code ./experiment predict --json} prints it, an element of one JSON array. Names
 * follow results.json's: {@code at} is a point as its windows write it, ceilings are named in lower case as a
 * window's {@code prediction} names them, and numbers are rounded to three decimals as there.
 *
 * @param at            the point predicted: cpu_quota, worker_max, pool_size, delay_ms, users
 * @param binds         which ceiling binds, and how clearly (written in place: binding, margin, next, two_close)
 * @param p50Ms         users ÷ predicted_rps: the closed model's response time
 * @param rssMb         null when the calibration had no two numbers of users to draw the line through
 * @param expectedError the relative error to expect of predicted_rps
 * @param extrapolated  the CPU binds beyond the calibrated users: expected_error is widened by the last trend
 * @param holdMs        how long a request holds a worker or a connection, as the model takes it
 * @param interval      where predicted_rps should land: ± expected_error
 * @param k6Cores       k6's CPU at predicted_rps (null: the calibration did not read it)
 * @param k6Error       the relative error of k6_cores its calibration earned, widened past its users (null: not
 *                      forecast, or not earned: fewer than three windows read k6)
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonPropertyOrder({"variant", "at", "predicted_rps", "interval", "binds", "p50_ms", "rss_mb", "expected_error",
        "extrapolated", "ceilings", "k6_cores", "k6_error", "hold_ms", "calibrated_on", "notes"})
public record ForecastJson(String variant, Point at, double predictedRps, Interval interval, @JsonUnwrapped Binds binds,
                           double p50Ms, Double rssMb, double expectedError, boolean extrapolated,
                           Map<String, Double> ceilings, Double k6Cores, Double k6Error, double holdMs,
                           CalibratedOn calibratedOn, List<String> notes) {

    /** Where the throughput should land. */
    public record Interval(double low, double high) {
    }

    /**
     * Which ceiling binds, and how clearly: written among the prediction's own fields, as they always were
     * ({@code @JsonUnwrapped}).
     *
     * @param binding  the binding ceiling's name
     * @param margin   the next ceiling over the binding one (below {@link Forecast#CLEAR_MARGIN} two ceilings bind
     *                 nearly together)
     * @param next     the next ceiling's name
     * @param twoClose the next ceiling lies within the two ceilings' errors of the binding one: either may bind
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Binds(String binding, double margin, String next, boolean twoClose) {
    }

    /**
     * Whose calibration made the prediction, and what the model took from it.
     *
     * @param jvm              the calibrated JVM ({@code imperative-jvm1}: the variant's first JVM start)
     * @param users            every number of users it was calibrated at, most first
     * @param delayMs          the first calibration delay; {@code delaysMs} every one
     * @param cpuMsPerRequest  by level (users, and "@delay" where there are several): the CPU curve's levels (those
     *                         that used at least the model's busy share of the quota)
     * @param inJvm            by level: the requests that waited in the JVM at each of those levels
     * @param inFlight         by level: the calls that were out at the downstream
     * @param callsElasticity  what the calls in flight add to a request's CPU per e-fold, on a log scale (0: not
     *                         measured, one delay; or not earned, the fitted one in the notes)
     * @param curveError       the curve's own error: the worst level predicted from the others
     * @param overheadMs       what a request took above the delay where nothing queued
     * @param overheadMeasured false: no level was light, and overhead_ms is a lower bound
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record CalibratedOn(String jvm, List<Integer> users, int delayMs, List<Integer> delaysMs, Double cpuQuota,
                               Integer workerMax, Integer poolSize, Map<String, Double> cpuMsPerRequest,
                               Map<String, Double> inJvm, Map<String, Double> inFlight, double callsElasticity,
                               boolean callsElasticityMeasured, double curveError, double overheadMs,
                               boolean overheadMeasured) {
    }

    public static ForecastJson of(VariantForecast v) {
        Forecast f = v.forecast();
        CapacityModel m = v.model();
        Calibrated c = v.calibrated();
        Map<String, Double> ceilings = new LinkedHashMap<>();
        f.ceilings().forEach((ceiling, rps) -> ceilings.put(name(ceiling), round(rps)));
        Map<String, Double> cpuMs = new LinkedHashMap<>();
        Map<String, Double> waiting = new LinkedHashMap<>();
        Map<String, Double> inFlight = new LinkedHashMap<>();
        boolean several = m.delays().size() > 1;
        for (int i = 0; i < m.users().size(); i++) {
            String level = m.users().get(i) + (several ? "@" + m.levelDelays().get(i) : "");
            cpuMs.put(level, round(m.cpuMsPerRequest().get(i)));
            waiting.put(level, round(m.inJvm().get(i)));
            inFlight.put(level, round(m.inFlight().get(i)));
        }
        Point setup = c.setup();
        return new ForecastJson(v.variant(), v.at(), round(f.rps()), new Interval(round(f.low()), round(f.high())),
                new Binds(name(f.binding()), round(f.margin()), name(f.next()), f.twoClose()), round(f.p50Ms()),
                f.rssMb() == null ? null : round(f.rssMb()), round(f.expectedError()), f.extrapolated(), ceilings,
                Double.isNaN(f.k6Cores()) ? null : round(f.k6Cores()),
                Double.isNaN(f.k6Cores()) || Double.isNaN(f.k6Error()) ? null : round(f.k6Error()),
                round(f.holdMs()),
                new CalibratedOn(c.jvm(), c.users(), c.delayMs(), m.delays(), setup.get(Axis.CPUS),
                setup.get(Axis.WORKER_MAX), setup.get(Axis.POOL_SIZE), cpuMs, waiting, inFlight,
                round(m.callsElasticity()), m.callsElasticityMeasured(), round(m.interpolationError()),
                round(m.overheadMs()), m.overheadMeasured()), v.notes());
    }

    static String name(Ceiling ceiling) {
        return ceiling.name().toLowerCase(Locale.ROOT);
    }

    private static double round(double v) {
        return Math.round(v * 1000) / 1000.0;
    }
}
