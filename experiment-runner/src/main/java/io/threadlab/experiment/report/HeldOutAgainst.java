package io.threadlab.experiment.report;

import io.threadlab.experiment.collect.RunRecord;
import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.FanOutMode;
import io.threadlab.experiment.plan.Point;
import io.threadlab.experiment.predict.CalibratedRun;
import io.threadlab.experiment.predict.Ceiling;
import io.threadlab.experiment.predict.Forecast;
import io.threadlab.experiment.predict.RecentMachine;
import io.threadlab.experiment.report.landscape.LoadForecasts;
import io.threadlab.experiment.report.landscape.Outcome;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code ./experiment predict --from A --against B}: every closed-model window of run B predicted from run A's
 * calibration, as if A's JVM had been asked before B measured it, and how the predictions fared: within the model's
 * tolerance, inside the interval they stated, and the binding ceiling named right. Another run is another JVM start:
 * the CPU ceiling's error takes in how far A's own starts differed ({@code JvmStarts}), as it should for any
 * deployment a calibration is asked about. Each window is predicted
 * for the machine's speed in the windows B measured before it ({@link RecentMachine}), as the runner predicts its own;
 * where A and B ran on different processors, at A's own speed, and the table says so: the runner's fixed piece of
 * work does not carry a request's CPU from one processor to another. On this machine's AMD EPYC the default runs'
 * requests cost about 1.3 times what they cost on its Intel Xeon while the piece ran in two thirds of the time;
 * database-jdbc-4 (Intel) predicted an AMD run's CPU-bound windows 10-44 % too high.
 */
public final class HeldOutAgainst {

    private final List<Outcome> outcomes;
    /** "calibrated on X, measured on Y" where the two runs' processors differ; null where they agree or are unknown. */
    private final String processors;

    private HeldOutAgainst(List<Outcome> outcomes, String processors) {
        this.outcomes = outcomes;
        this.processors = processors;
    }

    public static HeldOutAgainst of(CalibratedRun from, RunRecord other) {
        // the other run's machine: where its k6 ran decides its headroom
        double cores = other.manifest().lab() == null ? 0 : other.manifest().lab().machineCores();
        Object same = other.manifest().placement() == null ? null : other.manifest().placement().get("same_machine");
        boolean loadAlone = Boolean.FALSE.equals(same);
        Instant now = Instant.now();
        List<Outcome> outcomes = new ArrayList<>();
        RecentMachine machine = new RecentMachine(); // as the runner predicts: for the windows measured before
        String measuredOn = other.manifest().lab() == null ? null : other.manifest().lab().cpuModel();
        boolean another = from.processor() != null && measuredOn != null && !from.processor().equals(measuredOn);
        for (WindowResult w : other.results().windows()) {
            Double before = another ? null : machine.speed();
            machine.measured(w.instruments().yardstickUs());
            if (w.calibration() || w.recorded() || w.users() == null) {
                continue;
            }
            from.forAnotherRun(w.variant(), w.at(), before).ifPresent(f -> outcomes.add(Outcome.of(withPrediction(w, f,
                    now), false, cores, loadAlone)));
        }
        return new HeldOutAgainst(outcomes, another ? "calibrated on " + from.processor() + ", measured on "
                + measuredOn : null);
    }

    /** "calibrated on X, measured on Y" where the two runs ran on different processors. */
    public Optional<String> processors() {
        return Optional.ofNullable(processors);
    }

    private static WindowResult withPrediction(WindowResult w, Forecast f, Instant now) {
        return new WindowResult(w.window(), w.at(), w.load(), w.cpu(), w.memory(), w.instruments(), w.compiler(),
                w.gc(), w.threadGroups(), f.asRecorded(now));
    }

    public List<Outcome> outcomes() {
        return outcomes;
    }

    /** The table and the three verdicts, as the console prints them. */
    public String describe() {
        // a run that fans out tells its points apart by their calls too
        boolean fanning = outcomes.stream().anyMatch(o -> o.at().getOrFallback(Axis.FAN_OUT) > 1);
        StringBuilder out = new StringBuilder(processors().map(p -> "Another processor: " + p + ". The runner's"
                + " fixed piece of work does not carry a request's CPU from one processor to another, so each window"
                + " is predicted at the calibration's own speed; a miss here is the processor's as much as the model's."
                + " Calibrate on the machine you ask about.\n\n").orElse(""));
        out.append(String.format(Locale.ROOT, "%-16s %7s %7s " + (fanning ? "%-9s " : "%s")
                + "%9s %9s %7s %17s %8s %-12s %-12s%n", "variant", "delay", "users", fanning ? "calls" : "", "measured",
                "predicted", "error", "interval", "inside", "binds", "as measured"));
        for (Outcome o : outcomes) {
            out.append(String.format(Locale.ROOT, "%-16s %4d ms %7s " + (fanning ? "%-9s " : "%s")
                            + "%9s %9s %+6.0f%% %17s %8s %-12s %-12s%s%n", o.jvm(), o.delayMs(),
                    String.format(Locale.ROOT, "%,d", o.users()), fanning ? calls(o.at()) : "", rate(o.measured()),
                    rate(o.predicted()), (o.ratio() - 1) * 100, rate(o.prediction().orElseThrow().low()) + "–"
                            + rate(o.prediction().orElseThrow().high()), !o.bounded() ? "no bound" : o.covered() ? "yes" : "no",
                    o.binding().map(Ceiling::label).orElse("–"), o.measuredBinding().map(Ceiling::label).orElse("–"),
                    o.measuredSoundly() ? "" : "  (not judged: " + (o.readings().errors() > 0
                            ? o.readings().errors() + " errors"
                            : o.headroom().map(h -> h.describe()).orElse("k6 not read")) + ")"));
        }
        out.append('\n');
        List<Outcome> judged = outcomes.stream().filter(Outcome::judged).toList();
        long within = judged.stream().filter(Outcome::withinTolerance).count();
        out.append(judged.isEmpty() ? "Within " + pct(Forecast.TOLERANCE) + ": no point where one ceiling binds,"
                + " measured soundly\n" : String.format(Locale.ROOT, "Within %s of the prediction, where one ceiling"
                + " binds: %d of %d points (%s)%n", pct(Forecast.TOLERANCE), within, judged.size(),
                pct((double) within / judged.size())));
        out.append(LandscapeChecks.covered(outcomes)).append('\n');
        out.append(LandscapeChecks.named(outcomes)).append('\n');
        LoadForecasts k6 = LoadForecasts.of(outcomes);
        if (k6 != null) {
            out.append(k6.describe()).append('\n');
        }
        return out.toString();
    }

    /** "1", or "8 par" / "8 seq": a point's calls per request and how they are made. */
    private static String calls(Point at) {
        int n = at.getOrFallback(Axis.FAN_OUT);
        return n == 1 ? "1" : n + (at.getOrFallback(Axis.FAN_OUT_MODE) == FanOutMode.SEQUENTIAL ? " seq" : " par");
    }

    private static String rate(double rps) {
        return String.format(Locale.ROOT, "%,.0f", rps);
    }

    private static String pct(double share) {
        return String.format(Locale.ROOT, "%.0f %%", share * 100);
    }
}
