package io.threadlab.experiment.report;

import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.Downstream;
import io.threadlab.experiment.plan.Point;
import io.threadlab.experiment.plan.Variant;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Comparator;

/**
 * The headline ratios: at every delay and number of users, the throughput of each variant that answers the
 * question over the worker-thread model's (the imperative variant), from each side's JVM starts. What precision on
 * demand decides, and what the report leads with.
 */
public final class HeadlineRatios {

    /** One headline ratio: variant / baseline at a point (its window axes), and the JVM means behind it. */
    public record Ratio(String variant, String baseline, Point at, Stats.Ratio ratio,
                        List<Double> variantJvmMeans, List<Double> baselineJvmMeans) {

        public int delayMs() {
            return at.get(Axis.DELAY_MS);
        }

        public int users() {
            return at.get(Axis.USERS);
        }

        /** "10 ms, 100 users", with the database named where it is what the requests wait on. */
        public String where() {
            return at.describe();
        }

        public boolean decided() {
            return !Double.isNaN(ratio.low()) && (ratio.low() > 1 || ratio.high() < 1);
        }

        public boolean within(double halfWidth) {
            return ratio.relativeHalfWidth() <= halfWidth;
        }

        public Precision.Direction direction() {
            return Precision.direction(variantJvmMeans, baselineJvmMeans);
        }

        /**
         * The side whose next JVM start narrows this ratio's interval most: the one with the larger variance of its
         * mean (spread of its JVM means² ÷ their number), or the one with a single JVM start, whose spread is not
         * measured at all.
         */
        public String sideToAdd() {
            return contribution(variantJvmMeans) >= contribution(baselineJvmMeans) ? variant : baseline;
        }

        private static double contribution(List<Double> jvmMeans) {
            if (jvmMeans.size() < 2) {
                return Double.POSITIVE_INFINITY;
            }
            double[] logs = jvmMeans.stream().mapToDouble(Math::log).toArray();
            double sd = Stats.sd(logs, Stats.mean(logs));
            return sd * sd / logs.length;
        }
    }

    private HeadlineRatios() {
    }

    public static List<Ratio> of(List<WindowResult> rows) {
        String baseline = Variant.model(Variant.Threads.WORKER).label();
        List<WindowResult> plain = rows.stream().filter(r -> !r.recorded() && !r.calibration() && r.users() != null)
                .toList();
        List<String> variants = plain.stream().map(WindowResult::variant).distinct()
                .filter(v -> Variant.find(v).map(Variant::answersTheQuestion).orElse(false))
                .filter(v -> !v.equals(baseline)).toList();
        List<Ratio> ratios = new ArrayList<>();
        List<Point> cells = plain.stream().map(WindowResult::cell).distinct()
                .sorted(Comparator.comparing((Point p) -> p.has(Axis.DOWNSTREAM) ? p.get(Axis.DOWNSTREAM)
                        : Downstream.HTTP).thenComparing(p -> p.get(Axis.DELAY_MS)).thenComparing(p -> p.get(Axis.USERS)))
                .toList();
        for (Point at : cells) {
            List<WindowResult> base = cell(plain, baseline, at);
            if (base.isEmpty()) {
                continue;
            }
            for (String variant : variants) {
                List<WindowResult> mine = cell(plain, variant, at);
                if (!mine.isEmpty()) {
                    ratios.add(new Ratio(variant, baseline, at, Ratios.between(mine, base, Metric.THROUGHPUT),
                            jvmMeans(mine), jvmMeans(base)));
                }
            }
        }
        return ratios;
    }

    private static List<WindowResult> cell(List<WindowResult> rows, String variant, Point at) {
        return rows.stream().filter(r -> r.variant().equals(variant) && r.cell().equals(at)
                && r.jvmName().equals(variant)).toList();
    }

    /** The mean throughput of each JVM start, in start order. */
    static List<Double> jvmMeans(List<WindowResult> rows) {
        java.util.Map<Integer, List<Double>> byJvm = new java.util.TreeMap<>();
        rows.forEach(r -> byJvm.computeIfAbsent(r.jvm(), j -> new ArrayList<>()).add(r.load().requestsPerSecond()));
        return byJvm.values().stream().map(v -> v.stream().mapToDouble(d -> d).average().orElse(Double.NaN))
                .filter(Objects::nonNull).toList();
    }
}
