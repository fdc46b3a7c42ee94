package io.threadlab.experiment.predict;

import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.plan.FanOutMode;

import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A JVM's fan-out calibration: per mode, the window with the most calls (the mean of such windows where a JVM has
 * several), against one call's cost at its users: measured there where the window was light, else the curve's. A
 * request's CPU at N calls is then one call's at the point plus (N - 1) × what each further call added in that window,
 * for the request's own HTTP work is paid once (measured here at 8 parallel calls: 4.2-4.3 × one call's, not 8). What
 * each further call adds is taken against one call's cost in the same state of the quota: measured here, the imperative
 * variant spent 0.339 CPU-ms per request at 10 light users (0.26 of its 0.5 CPU) and 0.194 at 150 saturating ones,
 * while 16 parallel calls at 10 users saturated it at 2.04; against the light 0.339 the calls looked 6 times one call,
 * against the saturated 0.194 they added 0.123 ms each. Beyond the calls calibrated it is an extrapolation, widened as
 * the users' is; a mode without such a window takes N × one call's, an upper bound of the cost, and says so.
 */
public final class FanOutCalibration {

    /**
     * The CPU per request at {@code calls} calls in one mode, with the requests that waited in the JVM and the calls
     * that were out at the downstream then, and one call's cost there as the model takes it.
     */
    public record FanOutLevel(FanOutMode mode, int calls, int users, double inJvm, double inFlight,
                              double cpuMs, double oneCallCpuMs) {

        /** The CPU each call beyond the first adds to a request, in ms. */
        public double perFurtherCallMs() {
            return (cpuMs - oneCallCpuMs) / (calls - 1);
        }
    }

    /** One call's cost as the model takes it, at requests waiting in the JVM and calls out (the model's own). */
    @FunctionalInterface
    interface OneCallCost {
        CpuCurve.Cost cost(double inJvm, double inFlight, boolean outside);
    }

    static final FanOutCalibration NONE = new FanOutCalibration(Map.of());

    private final Map<FanOutMode, FanOutLevel> byMode;

    private FanOutCalibration(Map<FanOutMode, FanOutLevel> byMode) {
        this.byMode = byMode;
    }

    /**
     * From the calibration's fan-out windows, against the one-call levels and the curve of {@code model};
     * {@code saturatedCores}: the CPU at which a level saturates the quota, where one call's cost is the model's.
     */
    static FanOutCalibration of(List<WindowResult> calibration, List<Level> oneCall, double saturatedCores,
                                OneCallCost model) {
        Map<FanOutMode, FanOutLevel> out = new EnumMap<>(FanOutMode.class);
        List<WindowResult> fanning = calibration.stream().filter(r -> Level.calls(r) > 1 && r.users() != null
                && Level.cpuMs(r) > 0 && r.load().requestsPerSecond() > 0).toList();
        for (FanOutMode mode : FanOutMode.values()) {
            fanning.stream().filter(r -> Level.mode(r) == mode).max(Comparator.comparingInt(Level::calls))
                    .ifPresent(most -> {
                        List<WindowResult> same = fanning.stream().filter(r -> Level.mode(r) == mode
                                && Level.calls(r) == Level.calls(most) && r.users().equals(most.users())).toList();
                        boolean saturatedThere = Level.mean(same, r -> r.cpu().cpuCores()) >= saturatedCores;
                        double waiting = Level.mean(same, Level::inJvm);
                        double inFlight = Level.mean(same, Level::inFlight);
                        // light, one call's own measurement at those users, sleeps and all; else the curve's
                        double oneCallMs = oneCall.stream().filter(l -> !saturatedThere && l.users() == most.users())
                                .findFirst().map(Level::cpuMs)
                                .orElseGet(() -> model.cost(waiting, inFlight, false).cpuMs());
                        out.put(mode, new FanOutLevel(mode, Level.calls(most), most.users(), waiting, inFlight,
                                Level.mean(same, Level::cpuMs), oneCallMs));
                    });
        }
        return new FanOutCalibration(out);
    }

    List<FanOutLevel> levels() {
        return List.copyOf(byMode.values());
    }

    /** One call's CPU made a request's: the calibration's line in the calls, or N × one call's without it. */
    double requestCpuMs(double oneCallMs, FanOut fanOut) {
        FanOutLevel calibrated = fanOut.calls() > 1 ? byMode.get(fanOut.mode()) : null;
        return fanOut.calls() == 1 ? oneCallMs : calibrated == null ? fanOut.calls() * oneCallMs
                : oneCallMs + (fanOut.calls() - 1) * calibrated.perFurtherCallMs();
    }

    /**
     * The cost's error where the point fans out, with what the forecast should say of it: beyond the calls
     * calibrated, widened per e-fold of calls; and each further call's cost, taken at the calibration's users and
     * held flat, widened by as much as one call's moved between there and here.
     */
    CpuCurve.Cost widen(CpuCurve.Cost cost, FanOut fanOut, int users, double waiting, OneCallCost model,
                        List<String> notes, double requestCpuMs) {
        if (fanOut.calls() == 1) {
            return cost;
        }
        FanOutLevel calibrated = byMode.get(fanOut.mode());
        if (calibrated == null) {
            notes.add(fanOut.describe(String.format(Locale.ROOT, "the CPU per request taken as %d × one call's (no"
                    + " fan-out calibration in this mode: an upper bound of the cost)", fanOut.calls())));
            return cost;
        }
        double error = cost.error();
        boolean beyond = fanOut.calls() > calibrated.calls();
        if (beyond) {
            error += CpuCurve.EXTRAPOLATION_PER_EFOLD * Math.log((double) fanOut.calls() / calibrated.calls());
        }
        double there = model.cost(calibrated.inJvm(), calibrated.inFlight(), false).cpuMs();
        double drift = Math.abs(cost.cpuMs() / there - 1);
        double widened = drift * (fanOut.calls() - 1) * calibrated.perFurtherCallMs() / requestCpuMs;
        String moved = "";
        if (widened > 0.005) {
            error += widened;
            moved = String.format(Locale.ROOT, "; one call's cost moved %.0f %% between the calibration's %,d users"
                    + " and these %,d, and the further calls' cost is held flat: the error widened by %.0f %%",
                    drift * 100, calibrated.users(), users, widened * 100);
        }
        notes.add(fanOut.describe(String.format(Locale.ROOT, "the CPU per request %.3f ms: one call's %.3f and %.3f"
                + " for each further call, the line through the calibration's %d %s calls at %,d users (%.3f there)%s",
                requestCpuMs, cost.cpuMs(), calibrated.perFurtherCallMs(), calibrated.calls(),
                calibrated.mode().label(), calibrated.users(), calibrated.cpuMs(), beyond ? String.format(Locale.ROOT,
                "; %d calls is beyond the %d calibrated: an extrapolation, its error widened by %.0f %% per e-fold"
                + " of calls (the users' rule: not measured for calls)", fanOut.calls(), calibrated.calls(),
                CpuCurve.EXTRAPOLATION_PER_EFOLD * 100) : "") + moved));
        return new CpuCurve.Cost(cost.cpuMs(), Math.min(1, error), cost.extrapolated() || beyond);
    }
}
