package io.threadlab.experiment.report;

import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.Variant;
import io.threadlab.experiment.predict.CapacityModel;
import io.threadlab.experiment.predict.Ceiling;
import io.threadlab.experiment.report.landscape.GcGap;
import io.threadlab.experiment.report.landscape.MachineGap;
import io.threadlab.experiment.report.landscape.InFlightCost;
import io.threadlab.experiment.report.landscape.Landscape;
import io.threadlab.experiment.report.landscape.Outcome;
import io.threadlab.experiment.report.landscape.SeedTable;
import io.threadlab.experiment.report.landscape.SleepCost;
import io.threadlab.experiment.report.landscape.SleepGap;
import io.threadlab.experiment.report.landscape.SloCapacity;
import io.threadlab.experiment.report.landscape.Winners;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The landscape as its section shows it: every point measured beside what was predicted of it before, how far the
 * predictions missed by ceiling, who wins where, the crossovers, what a request in flight costs, the SLO capacity at
 * each delay, and the seeds' table at its own regime.
 *
 * @param map whether the run spans delays or users enough to draw a landscape (the predictions show anyway)
 */
record LandscapeView(boolean map, List<PointRow> points, List<ErrorRow> errors, List<CalibrationRow> calibrations,
                     List<SleepRow> sleeps, List<WinnerRow> winners, List<String> crossovers,
                     List<String> inFlightHeadings, List<CostRow> inFlight, String inFlightNote, List<SloRow> slo,
                     List<SeedRow> seeds, List<Check> checks) {

    /** What one JVM was calibrated at: the CPU per request at each of its users, and the time above the delay. */
    record CalibrationRow(String jvm, String colour, String delay, String cpuByUsers, String overhead, String error,
                          String fanOut) {
    }

    /** Whether a JVM's cost followed its threads' sleeps, and the line's numbers. */
    record SleepRow(String jvm, String colour, int windows, String fewest, String most, String perSleep,
                    String own, String r, String verdict) {
    }

    /**
     * @param role "held out", "calibrated" (the JVM was calibrated here: no test), or "not predicted"
     */
    record PointRow(String jvm, String colour, int delay, int users, String measured, PredictionCells prediction,
                    String role, String saturation, String little, String note) {
    }

    /**
     * What was predicted of a point before it was measured, and how the measurement fell against it; "–" throughout
     * where nothing was predicted.
     *
     * @param off a held-out point where one ceiling binds and the measurement missed by more than the target
     */
    record PredictionCells(String predicted, String binding, String error, boolean off, String expected,
                           String interval, String inside) {
    }

    /** How far the held-out predictions missed, for one binding ceiling. */
    record ErrorRow(String binding, int points, int oneCeiling, String median, String worst, String within,
                    String worstPoint) {
    }

    record WinnerRow(int delay, int users, String winner, String colour, String margin, String binding,
                     String everyone) {
    }

    record CostRow(String jvm, String colour, int points, String maxInFlight, List<String> perThousand) {
    }

    record SloRow(String jvm, String colour, int delay, String bound, String capacity, String steps) {
    }

    record SeedRow(String theirs, String theirRate, String theirLittle, String jvm, String ours, String explanation) {
    }

    static LandscapeView of(Landscape l, List<WindowResult> rows) {
        return new LandscapeView(l.isMap(), l.outcomes().stream().map(o -> point(o, rows)).toList(),
                errors(l.outcomes()), calibrations(rows), SleepCost.of(rows).stream().map(LandscapeView::sleep)
                .toList(), l.cells().stream().map(LandscapeView::winner).toList(),
                l.crossovers().stream().map(LandscapeView::crossover).toList(),
                List.copyOf(InFlightCost.MEASURES.keySet()), l.inFlight().stream().map(LandscapeView::cost).toList(),
                inFlightNote(l.inFlight(), rows), l.slo().stream().map(LandscapeView::slo).toList(),
                seeds(l.seeds()), LandscapeChecks.of(l, rows));
    }

    /**
     * How to read the lines; that a worker-thread JVM's line is a blend is said only where one's points lie on both
     * sides of its worker maximum, as the blend needs.
     */
    static String inFlightNote(List<InFlightCost> costs, List<WindowResult> rows) {
        String note = "Least-squares lines against the requests in flight (throughput × mean response time), per 1,000"
                + " in flight.";
        List<String> blended = new ArrayList<>();
        for (InFlightCost c : costs) {
            if (Variant.find(c.variant()).map(v -> v.threads() != Variant.Threads.WORKER).orElse(true)) {
                continue;
            }
            List<WindowResult> own = rows.stream().filter(r -> r.jvmName().equals(c.jvm()) && !r.recorded()
                    && r.users() != null).toList();
            double below = own.stream().mapToDouble(InFlightCost::inFlight).min().orElse(Double.NaN);
            Integer workers = own.isEmpty() ? null : own.getFirst().at().get(Axis.WORKER_MAX);
            if (workers != null && below < workers && c.maxInFlight() > workers) {
                blended.add(c.jvm() + " (" + workers + " workers)");
            }
        }
        return blended.isEmpty() ? note : note + " On workers a line is a blend, here for " + String.join(", ", blended)
                + ": each request in flight holds a platform thread up to the worker maximum, and beyond it waits in"
                + " the queue, which holds no thread; so the threads' slope over every point understates the first and"
                + " overstates the rest.";
    }

    static PointRow point(Outcome p, List<WindowResult> rows) {
        List<String> notes = new ArrayList<>();
        if (p.prediction().isPresent() && !p.oneCeilingBinds()) {
            notes.add(String.format(Locale.ROOT, "two ceilings within %.0f %%", (p.prediction().get().margin() - 1)
                    * 100));
        }
        if (p.prediction().map(x -> x.extrapolated()).orElse(false)) {
            notes.add("beyond the calibrated users or delays");
        }
        p.measuredBinding().filter(b -> p.binding().isPresent() && !p.binding().get().equals(b))
                .ifPresent(b -> notes.add("bound by " + b.label() + " as measured, not " + p.binding().get().label()));
        p.headroom().filter(h -> !h.enough()).ifPresent(h -> notes.add(h.describe()));
        Outcome.Readings read = p.readings();
        if (read.countsApart() != null) {
            // with failures the throughput is k6's count, and the errors keep the point from being judged
            notes.add(read.countsApart() + (read.errors() == 0 ? "; its throughput is the delay service's count"
                    : ""));
        }
        if (read.errors() > 0) {
            notes.add(read.errors() + " errors " + read.errorCauses());
        }
        GcGap.explain(p, rows).ifPresent(notes::add);
        MachineGap.explain(p, rows).ifPresent(notes::add);
        SleepGap.explain(p, rows).ifPresent(notes::add);
        String role = p.prediction().isEmpty() ? "not predicted" : p.calibrated() ? "calibrated"
                : p.ownCalibration() ? "held out" : "held out (from " + p.prediction().get().calibratedOn() + ")";
        return new PointRow(p.jvm(), ChartStyle.hex(p.variant()), p.delayMs(), p.users(), rate(p.measured()),
                predicted(p), role, String.format(Locale.ROOT, "%.0f %%", p.readings().saturation() * 100),
                p.readings().littleUsers() == null ? "–"
                        : String.format(Locale.ROOT, "%,.0f", p.readings().littleUsers()), String.join("; ", notes));
    }

    private static PredictionCells predicted(Outcome p) {
        return new PredictionCells(rate(p.predicted()), p.binding().map(Ceiling::label).orElse("–"),
                p.prediction().isEmpty() ? "–" : String.format(Locale.ROOT, "%+.0f %%", (p.ratio() - 1) * 100),
                p.heldOut() && p.oneCeilingBinds() && !p.withinTolerance(),
                p.prediction().map(WindowResult.Prediction::spread).orElse("–"),
                p.prediction().map(x -> rate(x.low()) + "–" + rate(x.high())).orElse("–"),
                p.prediction().isEmpty() ? "–" : !p.bounded() ? "no bound" : p.covered() ? "yes" : "no");
    }

    /**
     * Per binding ceiling, the errors of the held-out points predicted from their own JVM's calibration; the points
     * where one ceiling binds are the target's.
     */
    private static List<ErrorRow> errors(List<Outcome> outcomes) {
        List<ErrorRow> rows = new ArrayList<>();
        for (Ceiling c : Ceiling.values()) {
            List<Outcome> held = outcomes.stream().filter(o -> o.heldOut() && o.ownCalibration()
                    && o.binding().orElse(null) == c).toList();
            if (held.isEmpty()) {
                continue;
            }
            List<Outcome> clear = held.stream().filter(Outcome::oneCeilingBinds).toList();
            double[] errs = held.stream().mapToDouble(Outcome::error).sorted().toArray();
            Outcome worst = held.stream().max(java.util.Comparator.comparingDouble(Outcome::error)).orElseThrow();
            rows.add(new ErrorRow(c.label(), held.size(), clear.size(), pct(Stats.median(errs)),
                    pct(errs[errs.length - 1]), clear.isEmpty() ? "–" : clear.stream()
                    .filter(Outcome::withinTolerance).count() + " of " + clear.size(),
                    String.format(Locale.ROOT, "%s at %d ms, %,d users: predicted %s, measured %s", worst.jvm(),
                            worst.delayMs(), worst.users(), rate(worst.predicted()), rate(worst.measured()))));
        }
        return rows;
    }

    /** Each calibrated JVM's model, fitted as the runner fitted it before its first prediction. */
    private static List<CalibrationRow> calibrations(List<WindowResult> rows) {
        Map<String, List<WindowResult>> byJvm = new LinkedHashMap<>();
        rows.stream().filter(WindowResult::calibration).forEach(r -> byJvm.computeIfAbsent(r.jvmName() + "-jvm"
                + r.jvm(), k -> new ArrayList<>()).add(r));
        List<CalibrationRow> out = new ArrayList<>();
        byJvm.forEach((jvm, windows) -> {
            Variant.Threads threads = Variant.find(windows.getFirst().variant()).map(Variant::threads)
                    .orElse(Variant.Threads.WORKER);
            CapacityModel.Fit fit = CapacityModel.fit(jvm, threads, windows);
            out.add(fit.model().map(m -> new CalibrationRow(jvm, ChartStyle.hex(windows.getFirst().variant()),
                    m.delays().stream().map(String::valueOf).collect(Collectors.joining(" and ")),
                    java.util.stream.IntStream.range(0, m.users().size()).mapToObj(i -> String.format(Locale.ROOT,
                            "%,d%s (%,.0f waiting, %,.0f calls out): %.3f", m.users().get(i), m.delays().size() > 1
                                    ? " × " + m.levelDelays().get(i) + " ms" : "", m.inJvm().get(i),
                            m.inFlight().get(i), m.cpuMsPerRequest().get(i)))
                    .collect(Collectors.joining(", ")) + (m.callsElasticityMeasured() ? String.format(Locale.ROOT,
                    "; %+.0f %% a request per doubling of the calls out%s", (Math.pow(2, m.fittedCallsElasticity())
                            - 1) * 100, m.callsElasticity() == m.fittedCallsElasticity() ? ""
                            : " (not earned: taken as 0)") : ""), String.format(Locale.ROOT, "%.1f ms%s", m.overheadMs(),
                    m.overheadMeasured() ? "" : " (a lower bound: no light level)"),
                    String.format(Locale.ROOT, "±%.0f %%", m.interpolationError() * 100), m.fanOutLevels().isEmpty()
                    ? "–" : m.fanOutLevels().stream().map(f -> String.format(Locale.ROOT, "%d %s at %,d users: %.3f"
                    + " (one call %.3f, +%.3f per further call)", f.calls(), f.mode().label(), f.users(),
                    f.cpuMs(), f.oneCallCpuMs(), f.perFurtherCallMs())).collect(Collectors.joining("; "))))
                    .orElse(new CalibrationRow(jvm, ChartStyle.hex(windows.getFirst().variant()),
                            String.valueOf(windows.getFirst().delayMs()), "–", "–", fit.missing(), "–")));
        });
        return out;
    }

    private static SleepRow sleep(SleepCost s) {
        return new SleepRow(s.jvm(), ChartStyle.hex(s.variant()), s.windows(), String.format(Locale.ROOT,
                "%.2f (%,.0f waiting): %.3f", s.fewest(), s.waitingAtFewest(), s.costAtFewest()),
                String.format(Locale.ROOT, "%.2f (%,.0f waiting): %.3f", s.most(), s.waitingAtMost(), s.costAtMost()),
                rate(s.usPerSleep()), Double.isNaN(s.ownMs()) ? "–" : String.format(Locale.ROOT, "%.3f", s.ownMs()),
                s.rText(), s.text());
    }

    private static WinnerRow winner(Winners.Cell c) {
        Outcome w = c.winner();
        String who = c.clear() ? w.jvm()
                : "tie: " + c.leaders().stream().map(Outcome::jvm).collect(Collectors.joining(" ≈ "))
                + (c.excused().isEmpty() ? "" : c.excused().stream().map(Winners.Excuse::describe)
                .collect(Collectors.joining("; ", " (", ")")));
        return new WinnerRow(c.delayMs(), c.users(), who, ChartStyle.hex(w.variant()), Double.isNaN(c.margin())
                ? "–" : String.format(Locale.ROOT, "%.2f×", c.margin()), w.binding().map(Ceiling::label).orElse("–"),
                c.ranked().stream().map(p -> p.jvm() + " " + rate(p.measured()) + p.binding()
                        .map(b -> " (" + b.label() + ")").orElse("")).collect(Collectors.joining(", ")));
    }

    private static String crossover(Winners.Crossover x) {
        return x.along().equals("users")
                ? String.format(Locale.ROOT, "at %d ms: %s leads up to %d users, %s from %d", x.delayMs(), x.from(),
                x.fromAt(), x.to(), x.toAt())
                : String.format(Locale.ROOT, "at %d users: %s leads up to %d ms, %s from %d ms", x.users(), x.from(),
                x.fromAt(), x.to(), x.toAt());
    }

    private static CostRow cost(InFlightCost c) {
        return new CostRow(c.jvm(), ChartStyle.hex(c.variant()), c.points(),
                String.format(Locale.ROOT, "%,.0f", c.maxInFlight()), c.perThousand().values().stream()
                .map(v -> Double.isNaN(v) ? "–" : String.format(Locale.ROOT, "%,.1f", v)).toList());
    }

    private static SloRow slo(SloCapacity s) {
        String capacity = s.capacity() == null ? "no step met it" : rate(s.capacity()) + " req/s"
                + (s.missedBelow().isEmpty() ? "" : " (missed below it at " + s.missedBelow().stream()
                .map(LandscapeView::rate).collect(Collectors.joining(", ")) + ")");
        return new SloRow(s.jvm(), ChartStyle.hex(s.variant()), s.delayMs(), String.format(Locale.ROOT, "%.0f ms",
                s.boundMs()), capacity, s.steps().stream().map(st -> String.format(Locale.ROOT, "%,d: p99 %s ms%s",
                        st.offeredRate(), st.p99Ms() == null ? "–" : String.format(Locale.ROOT, "%,.0f", st.p99Ms()),
                        st.droppedIterations() > 0 ? ", " + st.droppedIterations() + " dropped" : ""))
                .collect(Collectors.joining("; ")));
    }

    /** The seeds' rows, wherever any of their regime was measured (a map, or a run at 300 ms and 3,000 users). */
    private static List<SeedRow> seeds(SeedTable seeds) {
        if (!seeds.anyMeasured()) {
            return List.of();
        }
        return seeds.rows().stream().map(r -> new SeedRow(r.theirs(), rate(r.theirRate()),
                r.matchingJvm().contains("-w") ? rate(Integer.parseInt(r.matchingJvm().replaceAll(".*-w", ""))
                        / (SeedTable.DELAY_MS / 1000.0)) : "–", r.matchingJvm(),
                r.ours().map(p -> rate(p.measured())).orElse("–"), r.explanation())).toList();
    }

    private static String rate(double v) {
        return Double.isNaN(v) ? "–" : String.format(Locale.ROOT, "%,.0f", v);
    }

    private static String pct(double share) {
        return Double.isNaN(share) ? "–" : String.format(Locale.ROOT, "%.1f %%", share * 100);
    }
}
