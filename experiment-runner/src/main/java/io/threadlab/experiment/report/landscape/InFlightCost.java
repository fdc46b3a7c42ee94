package io.threadlab.experiment.report.landscape;

import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.predict.Line;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * What a request in flight costs each variant: RSS, heap in use, live heap after GC, platform and OS threads, each
 * as a straight line against the requests in flight (Little's law: throughput × mean response time; where the mean
 * was not recorded, the users), fitted by least squares over the plain closed-model windows. Where thousands wait —
 * virtual threads parked, Unis pending, requests queued for a worker — the slope is the price of one more.
 *
 * @param perThousand per measure, its growth per 1,000 requests in flight (NaN: too few points)
 * @param atZero      per measure, the line's value with nothing in flight
 */
public record InFlightCost(String jvm, String variant, int points, double maxInFlight,
                           Map<String, Double> perThousand, Map<String, Double> atZero) {

    /** The measures, as the report names them, and where each is in a window. */
    public static final Map<String, Function<WindowResult, Double>> MEASURES = measures();

    private static Map<String, Function<WindowResult, Double>> measures() {
        Map<String, Function<WindowResult, Double>> m = new LinkedHashMap<>();
        m.put("RSS (MB)", r -> r.memory().rssMb());
        m.put("heap used (MB)", r -> r.memory().heapUsedMb());
        m.put("live after GC (MB)", r -> r.memory().heapLiveMb());
        m.put("platform threads", r -> r.memory().liveThreads());
        m.put("OS threads", r -> (double) r.memory().threads());
        return m;
    }

    /** One line per JVM with at least three points spanning a tenfold range of requests in flight. */
    public static List<InFlightCost> of(List<WindowResult> rows) {
        Map<String, List<WindowResult>> byJvm = new LinkedHashMap<>();
        rows.stream().filter(r -> !r.recorded() && r.users() != null)
                .forEach(r -> byJvm.computeIfAbsent(r.jvmName(), k -> new ArrayList<>()).add(r));
        List<InFlightCost> costs = new ArrayList<>();
        byJvm.forEach((jvm, windows) -> {
            double[] x = windows.stream().mapToDouble(InFlightCost::inFlight).toArray();
            double min = java.util.Arrays.stream(x).min().orElse(0);
            double max = java.util.Arrays.stream(x).max().orElse(0);
            if (windows.size() < 3 || max < 10 * Math.max(min, 1)) {
                return;
            }
            Map<String, Double> slopes = new LinkedHashMap<>();
            Map<String, Double> intercepts = new LinkedHashMap<>();
            MEASURES.forEach((name, measure) -> {
                double[] fit = fit(windows, measure);
                slopes.put(name, fit[0] * 1000);
                intercepts.put(name, fit[1]);
            });
            costs.add(new InFlightCost(jvm, windows.getFirst().variant(), windows.size(), max, slopes, intercepts));
        });
        return costs;
    }

    /** Requests in flight in a window: throughput × mean response time, else its users. */
    public static double inFlight(WindowResult r) {
        return r.load().meanMs() != null ? r.load().requestsPerSecond() * r.load().meanMs() / 1000 : r.users();
    }

    /** Least squares {slope, intercept} of a measure against requests in flight, over the windows that have it. */
    static double[] fit(List<WindowResult> windows, Function<WindowResult, Double> measure) {
        List<double[]> xy = new ArrayList<>();
        for (WindowResult r : windows) {
            Double y = measure.apply(r);
            if (y != null && !y.isNaN()) {
                xy.add(new double[] {inFlight(r), y});
            }
        }
        return xy.size() < 3 ? new double[] {Double.NaN, Double.NaN} : Line.fit(xy);
    }
}
