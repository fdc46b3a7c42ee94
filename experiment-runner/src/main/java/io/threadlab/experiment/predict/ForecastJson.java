package io.threadlab.experiment.predict;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
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
 * @param margin        the next ceiling over the binding one (below {@link Forecast#CLEAR_MARGIN} two ceilings bind
 *                      nearly together)
 * @param next          the next ceiling's name
 * @param p50Ms         users ÷ predicted_rps: the closed model's response time
 * @param rssMb         null when the calibration had no two numbers of users to draw the line through
 * @param expectedError the relative error to expect of predicted_rps
 * @param extrapolated  the CPU binds beyond the calibrated users: expected_error is widened by the last trend
 * @param holdMs        how long a request holds a worker or a connection, as the model takes it
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonPropertyOrder({"variant", "at", "predicted_rps", "binding", "margin", "next", "p50_ms", "rss_mb",
        "expected_error", "extrapolated", "ceilings", "hold_ms", "calibrated_on", "notes"})
public record ForecastJson(String variant, Point at, double predictedRps, String binding, double margin, String next,
                           double p50Ms, Double rssMb, double expectedError, boolean extrapolated,
                           Map<String, Double> ceilings, double holdMs, CalibratedOn calibratedOn,
                           List<String> notes) {

    /**
     * Whose calibration made the prediction, and what the model took from it.
     *
     * @param jvm              the calibrated JVM ({@code imperative-jvm1}: the variant's first JVM start)
     * @param users            every number of users it was calibrated at, most first
     * @param cpuMsPerRequest  by users: the CPU curve's levels (those that used at least 80 % of the quota)
     * @param inJvm            by users: the requests that waited in the JVM at each of those levels, the curve's axis
     * @param overheadMs       what a request took above the delay where nothing queued
     * @param overheadMeasured false: no level was light, and overhead_ms is a lower bound
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record CalibratedOn(String jvm, List<Integer> users, int delayMs, Double cpuQuota, Integer workerMax,
                               Integer poolSize, Map<String, Double> cpuMsPerRequest, Map<String, Double> inJvm,
                               double overheadMs,
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
        for (int i = 0; i < m.users().size(); i++) {
            cpuMs.put(String.valueOf(m.users().get(i)), round(m.cpuMsPerRequest().get(i)));
            waiting.put(String.valueOf(m.users().get(i)), round(m.inJvm().get(i)));
        }
        Point setup = c.setup();
        return new ForecastJson(v.variant(), v.at(), round(f.rps()), name(f.binding()), round(f.margin()),
                name(f.next()), round(f.p50Ms()),
                f.rssMb() == null ? null : round(f.rssMb()), round(f.expectedError()), f.extrapolated(), ceilings,
                round(f.holdMs()), new CalibratedOn(c.jvm(), c.users(), c.delayMs(), setup.get(Axis.CPUS),
                setup.get(Axis.WORKER_MAX), setup.get(Axis.POOL_SIZE), cpuMs, waiting, round(m.overheadMs()),
                m.overheadMeasured()), v.notes());
    }

    static String name(Ceiling ceiling) {
        return ceiling.name().toLowerCase(Locale.ROOT);
    }

    private static double round(double v) {
        return Math.round(v * 1000) / 1000.0;
    }
}
