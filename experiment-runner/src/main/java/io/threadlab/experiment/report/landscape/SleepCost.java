package io.threadlab.experiment.report.landscape;

import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.predict.CapacityModel;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Whether a JVM's requests cost less CPU where more of them wait because its threads sleep less. A thread that has
 * nothing left to do blocks (a voluntary context switch), and another thread's call has to wake it: CPU that a
 * thread which finds the next request waiting does not spend. The capacity model's CPU curve falls with the requests
 * waiting in the JVM; this says, from the same run's windows, how much of that fall the sleeps carry.
 * <p>
 * Per JVM, a straight line through its windows where it used at least {@link CapacityModel#LIGHT_SHARE} of its quota
 * (below that its CPU is partly its own idle work): the CPU a request cost (the window's CPU over its requests, as the
 * model takes it) against the times its serving threads slept a request. The line is said to explain the cost's fall
 * only where it can: cost rising with sleeps, a close fit (r at least {@value #MIN_R}), and sleeps that varied (the
 * most at least {@value #MIN_SPREAD}× the fewest). Elsewhere the numbers are given, and that they do not explain it.
 * Recorded twins are left out: the recording's own cost is not the request's.
 *
 * @param windows      the windows the line went through
 * @param fewest       the fewest sleeps a request among them, with that window's requests waiting and cost
 * @param most         the most, likewise
 * @param usPerSleep   the line's slope: CPU-µs a sleep
 * @param ownMs        the line at no sleep: CPU-ms a request's own work
 * @param r            the correlation of cost and sleeps over those windows
 */
public record SleepCost(String jvm, String variant, int windows, double fewest, double waitingAtFewest,
                        double costAtFewest, double most, double waitingAtMost, double costAtMost, double usPerSleep,
                        double ownMs, double r) {

    public static final double MIN_R = 0.8;
    public static final double MIN_SPREAD = 1.5;
    static final int MIN_WINDOWS = 3;

    /** Per JVM with at least {@value #MIN_WINDOWS} busy windows whose sleeps were counted, in the rows' order. */
    public static List<SleepCost> of(List<WindowResult> rows) {
        Map<String, List<WindowResult>> byJvm = new LinkedHashMap<>();
        rows.stream().filter(SleepCost::busy).forEach(r -> byJvm.computeIfAbsent(r.jvmId(), k -> new ArrayList<>())
                .add(r));
        List<SleepCost> out = new ArrayList<>();
        byJvm.forEach((jvm, windows) -> {
            if (windows.size() >= MIN_WINDOWS) {
                out.add(fit(jvm, windows));
            }
        });
        return out;
    }

    static boolean busy(WindowResult r) {
        return r.users() != null && !r.recorded() && r.cpu().sleepsPerRequest() != null
                && r.at().has(Axis.CPUS) && r.cpu().cpuCores() >= CapacityModel.LIGHT_SHARE * r.at().get(Axis.CPUS)
                && Double.isFinite(r.cpu().cpuMsPerRequest()) && r.cpu().cpuMsPerRequest() > 0;
    }

    private static SleepCost fit(String jvm, List<WindowResult> windows) {
        int n = windows.size();
        double[] x = windows.stream().mapToDouble(w -> w.cpu().sleepsPerRequest()).toArray();
        double[] y = windows.stream().mapToDouble(w -> w.cpu().cpuMsPerRequest()).toArray();
        double mx = mean(x);
        double my = mean(y);
        double sxy = 0;
        double sxx = 0;
        double syy = 0;
        for (int i = 0; i < n; i++) {
            sxy += (x[i] - mx) * (y[i] - my);
            sxx += (x[i] - mx) * (x[i] - mx);
            syy += (y[i] - my) * (y[i] - my);
        }
        double slope = sxx == 0 ? Double.NaN : sxy / sxx;
        double r = sxx == 0 || syy == 0 ? Double.NaN : sxy / Math.sqrt(sxx * syy);
        WindowResult fewest = windows.stream().min(Comparator.comparingDouble(w -> w.cpu().sleepsPerRequest()))
                .orElseThrow();
        WindowResult most = windows.stream().max(Comparator.comparingDouble(w -> w.cpu().sleepsPerRequest()))
                .orElseThrow();
        return new SleepCost(jvm, windows.getFirst().variant(), n, fewest.cpu().sleepsPerRequest(),
                CapacityModel.inJvm(fewest), fewest.cpu().cpuMsPerRequest(), most.cpu().sleepsPerRequest(),
                CapacityModel.inJvm(most), most.cpu().cpuMsPerRequest(), slope * 1000, my - slope * mx, r);
    }

    /** Whether the line explains the cost's fall: see the class. */
    public boolean explains() {
        return most >= MIN_SPREAD * fewest && usPerSleep > 0 && r >= MIN_R;
    }

    /** What the line says, and whether it explains the fall, from these numbers alone. */
    public String text() {
        String span = String.format(Locale.ROOT, "%.2f sleeps a request at %.3f CPU-ms with %,.0f waiting in the"
                        + " JVM, %.2f at %.3f with %,.0f (%d windows at %.0f %% of the quota or more, r = %s)",
                most, costAtMost, waitingAtMost, fewest, costAtFewest, waitingAtFewest, windows,
                CapacityModel.LIGHT_SHARE * 100, rText());
        if (explains()) {
            return String.format(Locale.ROOT, "%s: its threads sleep less where more requests wait: %s. Each sleep"
                    + " cost %.0f CPU-µs, a request's own work %.3f CPU-ms.", jvm, span, usPerSleep, ownMs);
        }
        String why = !(most >= MIN_SPREAD * fewest) ? String.format(Locale.ROOT, "its sleeps hardly varied (the most"
                + " less than %.1f× the fewest)", MIN_SPREAD) : !(usPerSleep > 0) ? "its cost did not rise with its"
                + " sleeps" : String.format(Locale.ROOT, "its cost followed its sleeps loosely (r below %.1f)", MIN_R);
        return String.format(Locale.ROOT, "%s: not explained by its sleeps: %s: %s.", jvm, why, span);
    }

    /** The correlation, or a dash where the sleeps or the costs did not vary and there is none. */
    public String rText() {
        return Double.isNaN(r) ? "–" : String.format(Locale.ROOT, "%.2f", r);
    }

    private static double mean(double[] v) {
        double sum = 0;
        for (double d : v) {
            sum += d;
        }
        return sum / v.length;
    }
}
