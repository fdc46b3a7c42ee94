package io.threadlab.experiment.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The statistics of a run with few repetitions, nested in few JVM starts.
 *
 * <p>Every quantity the report gives an interval for is positive (throughput, latency, CPU per request, ratios), so
 * intervals are computed on the log scale and never reach zero or below; the point is the median.
 *
 * <p>The JVM start is a level of its own: repetitions inside one JVM share what its JIT happened to compile. The
 * interval of a mean therefore uses the spread between JVM means (degrees of freedom: JVM starts - 1) when that spread
 * is larger than the repetitions inside the JVMs explain; otherwise the JVM effect is estimated as zero (the usual
 * convention for a negative variance component) and the within-JVM spread is used (degrees of freedom: repetitions -
 * JVM starts). With one JVM start the between-JVM variance is not measured at all, and the summary says so.
 *
 * <p>Ratios between two variants compare different JVMs, so they are not paired by JVM: each variant's JVM means (on
 * the log scale) are its sample, and the interval of their difference is Student's two-sample t with the two spreads
 * pooled (degrees of freedom: JVM starts of both - 2). Welch's correction for unequal spreads leaves about one degree
 * of freedom at two JVM starts each (t = 12.7): it decided nothing a default run can afford, however far apart the
 * JVM means. Pooling assumes the JVM start varies by about the same share in every variant (on the log scale it is
 * the machine's noise more than the variant's); the report gives each variant's spread beside it. Where one side has
 * more JVM starts (precision on demand adds them one at a time), the standard error is the larger of the pooled one
 * and Welch's, so that a quiet side's many starts never narrow a noisy side's interval. Pairing JVM start 1 of one
 * variant with JVM start 1 of the other, as this lab once did, spends one degree of freedom per pair. With one JVM
 * start of each (the map, the mistakes), the JVM start's own variance is not measured, and the windows are paired by
 * repetition, as they ran a minute apart in the same rotation. A recorded twin and its plain window ran on the same
 * JVM, one after the other: those are paired.
 */
public final class Stats {

    /** The intervals' confidence: the critical values below are its two-sided ones. */
    public static final double CONFIDENCE = 0.95;

    /** Two-sided 95 % Student t critical values for 1..30 degrees of freedom. */
    private static final double[] T975 = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
            2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060,
            2.056, 2.052, 2.048, 2.045, 2.042};

    private Stats() {
    }

    /** One measured value and the JVM start it came from. */
    public record Observation(double value, int jvm) {
    }

    /** How an interval was computed, in words for the report. */
    public enum Method {
        BETWEEN_JVMS("between JVM starts"),
        POOLED("between the JVM starts of each (Student's t, spreads pooled)"),
        WITHIN_JVMS("within JVM starts (no excess spread between them)"),
        ONE_JVM("one JVM start: its own variance not measured"),
        NONE("no interval");

        private final String words;

        Method(String words) {
            this.words = words;
        }

        public String words() {
            return words;
        }
    }

    /**
     * A cell: median, 95 % interval of the (geometric) mean, coefficient of variation, and how the interval was made.
     * {@code jvmSpread} is the largest JVM mean over the smallest, minus one (NaN with one JVM start).
     */
    public record Summary(int n, int jvms, double median, double mean, double low, double high, double cv,
                          double jvmSpread, Method method) {
        public boolean hasInterval() {
            return !Double.isNaN(low);
        }

        /** Half the interval's width relative to the mean: what the "within 10 %" targets compare. */
        public double relativeHalfWidth() {
            return hasInterval() ? (high - low) / 2 / mean : Double.NaN;
        }
    }

    public static Summary summarise(List<Observation> observations) {
        List<Observation> valid = observations.stream()
                .filter(o -> !Double.isNaN(o.value()) && o.value() > 0).toList();
        int n = valid.size();
        if (n == 0) {
            return new Summary(0, 0, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN,
                    Method.NONE);
        }
        double[] raw = valid.stream().mapToDouble(Observation::value).toArray();
        double median = median(raw);
        double cv = n < 2 ? Double.NaN : sd(raw, mean(raw)) / mean(raw);
        LogInterval log = logInterval(valid.stream().map(o -> new Observation(Math.log(o.value()), o.jvm())).toList());
        Map<Integer, List<Double>> byJvm = groups(valid);
        double spread = Double.NaN;
        if (byJvm.size() > 1) {
            double[] means = byJvm.values().stream().mapToDouble(v -> Stats.mean(v.stream().mapToDouble(d -> d).toArray()))
                    .toArray();
            spread = Arrays.stream(means).max().orElseThrow() / Arrays.stream(means).min().orElseThrow() - 1;
        }
        return new Summary(n, byJvm.size(), median, Math.exp(log.mean()), Math.exp(log.low()), Math.exp(log.high()),
                cv, spread, log.method());
    }

    /** A ratio a / b with its 95 % interval; within noise when the interval contains 1. */
    public record Ratio(double ratio, double low, double high, int pairs, Method method) {
        public boolean withinNoise() {
            return Double.isNaN(low) || (low <= 1 && high >= 1);
        }

        public double relativeHalfWidth() {
            return Double.isNaN(low) ? Double.NaN : (high - low) / 2 / ratio;
        }
    }

    /**
     * {@code a / b} from each side's windows, each with its JVM start: the pooled two-sample t interval of the JVM
     * means' difference on the log scale where both sides have two JVM starts or more; none where only one side has; with one JVM start
     * on each side, the windows paired by repetition ({@code pairs}).
     */
    public static Ratio betweenJvms(List<Observation> a, List<Observation> b, List<Pair> pairs) {
        Side sideA = Side.of(a);
        Side sideB = Side.of(b);
        if (sideA == null || sideB == null) {
            return new Ratio(Double.NaN, Double.NaN, Double.NaN, 0, Method.NONE);
        }
        if (sideA.jvms() == 1 && sideB.jvms() == 1) {
            return pairedRatio(pairs);
        }
        double log = sideA.logMean() - sideB.logMean();
        int compared = sideA.jvms() * sideB.jvms();
        if (sideA.jvms() < 2 || sideB.jvms() < 2) {
            return new Ratio(Math.exp(log), Double.NaN, Double.NaN, compared, Method.ONE_JVM);
        }
        // each side's variance of one JVM mean, pooled by degrees of freedom
        double pooled = (sideA.df() * sideA.perJvm() + sideB.df() * sideB.perJvm()) / (sideA.df() + sideB.df());
        double v = Math.max(pooled * (1.0 / sideA.jvms() + 1.0 / sideB.jvms()), sideA.variance() + sideB.variance());
        double half = tCritical((int) Math.round(sideA.df() + sideB.df())) * Math.sqrt(v);
        return new Ratio(Math.exp(log), Math.exp(log - half), Math.exp(log + half), compared, Method.POOLED);
    }

    /**
     * One side of a ratio between variants, on the log scale: the mean of its JVM means, and the variance of that
     * mean with its degrees of freedom. The variance of a JVM mean is what the JVM means' spread says, but never less
     * than what the windows inside each JVM say it must be (their spread over the windows per JVM): two JVM means that
     * happen to agree do not make the mean exact.
     */
    private record Side(int jvms, double logMean, double variance, double df) {
        /** The variance of one JVM mean, the quantity the two sides pool. */
        double perJvm() {
            return variance * jvms;
        }

        static Side of(List<Observation> observations) {
            Map<Integer, List<Double>> byJvm = new java.util.TreeMap<>();
            observations.stream().filter(o -> !Double.isNaN(o.value()) && o.value() > 0)
                    .forEach(o -> byJvm.computeIfAbsent(o.jvm(), k -> new ArrayList<>()).add(Math.log(o.value())));
            if (byJvm.isEmpty()) {
                return null;
            }
            int jvms = byJvm.size();
            int n = byJvm.values().stream().mapToInt(List::size).sum();
            double[] means = byJvm.values().stream().mapToDouble(v -> Stats.mean(v.stream().mapToDouble(d -> d).toArray()))
                    .toArray();
            double grand = Stats.mean(means);
            if (jvms < 2) {
                return new Side(jvms, grand, Double.NaN, 0);
            }
            double between = Math.pow(sd(means, grand), 2);
            double within = 0;
            for (List<Double> v : byJvm.values()) {
                double m = Stats.mean(v.stream().mapToDouble(d -> d).toArray());
                within += v.stream().mapToDouble(d -> (d - m) * (d - m)).sum();
            }
            if (n > jvms && between < within / (n - jvms) / ((double) n / jvms)) {
                return new Side(jvms, grand, within / (n - jvms) / n, n - jvms);
            }
            return new Side(jvms, grand, between / jvms, jvms - 1);
        }
    }

    /** Two windows measured in the same repetition; {@code jvm} is the JVM start index both used. */
    public record Pair(double a, double b, int jvm) {
    }

    public static Ratio pairedRatio(List<Pair> pairs) {
        List<Observation> logs = new ArrayList<>();
        for (Pair p : pairs) {
            if (p.a() > 0 && p.b() > 0 && !Double.isNaN(p.a()) && !Double.isNaN(p.b())) {
                logs.add(new Observation(Math.log(p.a() / p.b()), p.jvm()));
            }
        }
        if (logs.isEmpty()) {
            return new Ratio(Double.NaN, Double.NaN, Double.NaN, 0, Method.NONE);
        }
        LogInterval log = logInterval(logs);
        return new Ratio(Math.exp(log.mean()), Math.exp(log.low()), Math.exp(log.high()), logs.size(), log.method());
    }

    private record LogInterval(double mean, double low, double high, Method method) {
    }

    /** Interval of the mean of values that live on the log scale, with the JVM start as a level. */
    private static LogInterval logInterval(List<Observation> values) {
        Map<Integer, List<Double>> byJvm = groups(values);
        int n = values.size();
        int jvms = byJvm.size();
        double[] groupMeans = byJvm.values().stream().mapToDouble(v -> mean(v.stream().mapToDouble(d -> d)
                .toArray())).toArray();
        double grand = mean(groupMeans);
        if (n < 2) {
            return new LogInterval(grand, Double.NaN, Double.NaN, Method.NONE);
        }
        double within = 0;
        for (Map.Entry<Integer, List<Double>> g : byJvm.entrySet()) {
            double m = mean(g.getValue().stream().mapToDouble(d -> d).toArray());
            within += g.getValue().stream().mapToDouble(d -> (d - m) * (d - m)).sum();
        }
        int withinDf = n - jvms;
        double withinVariance = withinDf > 0 ? within / withinDf : Double.NaN;
        double se;
        int df;
        Method method;
        // the mean of the JVM means weighs each JVM equally: with n_j windows each, its variance is
        // within * sum(1/n_j) / J^2 (within / n when they are balanced)
        double inverseSizes = byJvm.values().stream().mapToDouble(v -> 1.0 / v.size()).sum();
        double withinSe = Math.sqrt(withinVariance * inverseSizes / ((double) jvms * jvms));
        if (jvms == 1) {
            se = withinSe;
            df = n - 1;
            method = Method.ONE_JVM;
        } else {
            double between = Math.pow(sd(groupMeans, grand), 2); // variance of the JVM means
            double perJvm = (double) n / jvms;
            if (withinDf > 0 && between <= withinVariance / perJvm) {
                se = withinSe;
                df = withinDf;
                method = Method.WITHIN_JVMS;
            } else {
                se = Math.sqrt(between / jvms);
                df = jvms - 1;
                method = Method.BETWEEN_JVMS;
            }
        }
        double half = tCritical(df) * se;
        return new LogInterval(grand, grand - half, grand + half, method);
    }

    private static Map<Integer, List<Double>> groups(List<Observation> values) {
        Map<Integer, List<Double>> byJvm = new LinkedHashMap<>();
        values.forEach(o -> byJvm.computeIfAbsent(o.jvm(), k -> new ArrayList<>()).add(o.value()));
        return byJvm;
    }

    static double mean(double[] v) {
        return Arrays.stream(v).average().orElse(Double.NaN);
    }

    static double sd(double[] v, double mean) {
        if (v.length < 2) {
            return 0;
        }
        double ss = Arrays.stream(v).map(x -> (x - mean) * (x - mean)).sum();
        return Math.sqrt(ss / (v.length - 1));
    }

    public static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }

    /** 97.5 % quantile of Student's t; beyond the table, the value at the start of each band (never too small). */
    static double tCritical(int df) {
        if (df < 1) {
            return Double.NaN;
        }
        if (df <= 30) {
            return T975[df - 1];
        }
        return df <= 40 ? 2.040 : df <= 60 ? 2.020 : df <= 120 ? 2.000 : 1.980;
    }

    /** Least-squares change across a series (in time order), relative to its mean: a trend across repetitions. */
    public static double trend(List<Double> inTimeOrder) {
        int n = inTimeOrder.size();
        if (n < 2) {
            return Double.NaN;
        }
        double mx = (n - 1) / 2.0;
        double my = inTimeOrder.stream().mapToDouble(d -> d).average().orElseThrow();
        double num = 0;
        double den = 0;
        for (int i = 0; i < n; i++) {
            num += (i - mx) * (inTimeOrder.get(i) - my);
            den += (i - mx) * (i - mx);
        }
        return num / den * (n - 1) / my;
    }

    /** True when every value is above the one before it: a cell still warming up looks like this. */
    public static boolean onlyRises(List<Double> inTimeOrder) {
        if (inTimeOrder.size() < 3) {
            return false;
        }
        for (int i = 1; i < inTimeOrder.size(); i++) {
            if (inTimeOrder.get(i) <= inTimeOrder.get(i - 1)) {
                return false;
            }
        }
        return true;
    }
}
