package io.threadlab.experiment.findings;

import io.threadlab.experiment.collect.RunRecord;
import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.plan.Axis;
import io.threadlab.experiment.plan.Point;
import io.threadlab.experiment.plan.WorkKind;
import io.threadlab.experiment.predict.CalibratedRun;
import io.threadlab.experiment.predict.CannotPredict;
import io.threadlab.experiment.predict.Ceiling;
import io.threadlab.experiment.predict.Forecast;
import io.threadlab.experiment.record.Yardstick;
import io.threadlab.experiment.report.HeldOutAgainst;
import io.threadlab.experiment.report.landscape.Outcome;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Forecasts away from the calibrated point: each published run that measured without calibrating (at other delays
 * and users), every closed-model window of it predicted from the calibration of the latest default run published
 * before it on the same Quarkus platform and processor (a database run's from the latest run that calibrated the
 * database), and each run of its own plan that calibrated itself, its windows at points it did not calibrate
 * predicted from that calibration, as {@code ./experiment predict --from <calibration> --against <run>} prints it.
 * The measured numbers come from the run's results.csv, the predictions from the calibration windows.
 */
final class OffCalibrationSection {

    record Row(String variant, String at, String measured, String predicted, String error,
               String interval, String inside, String binds, String asMeasured) {

        /** A held-out point: measured in {@code measured}, predicted from the calibration in {@code calibration}. */
        static Row of(Outcome o, String measured, String calibration) {
            int calls = o.at().getOrFallback(Axis.FAN_OUT);
            return new Row(o.variant(), o.delayMs() + " ms, " + Cite.format(o.users(), 0) + " users" + (calls > 1
                    ? ", " + calls + " calls " + o.at().getOrFallback(Axis.FAN_OUT_MODE).label() : ""),
                    Cite.number(o.measured(), 0, measured), Cite.number(o.predicted(), 0, calibration),
                    Cite.link(String.format(java.util.Locale.ROOT, "%+.0f %%", (o.ratio() - 1) * 100), measured),
                    Cite.number(o.prediction().orElseThrow().low(), 0, calibration) + "–"
                            + Cite.number(o.prediction().orElseThrow().high(), 0, calibration),
                    !o.bounded() ? "no bound" : o.covered() ? "yes" : "no",
                    o.binding().map(Ceiling::label).orElse("–"),
                    o.measuredSoundly() ? o.measuredBinding().map(Ceiling::label).orElse("–") : "not judged");
        }
    }

    /** @param from the default run whose calibration predicted, linked; {@code within}, "5 of 6" linked */
    record Run(String run, String from, String command, List<Row> rows, String within, String covered,
               String named) {
    }

    /**
     * Every held-out point of one kind of work together, against the targets: within the tolerance, inside the
     * interval stated, the binding ceiling named right; "64 of 71 (90 %)", linked to the published runs.
     */
    record Total(String work, String runs, String within, String covered, String named, String namedClear,
                 String namedClose, Range range, Machine machine) {
    }

    /**
     * The points within the tolerance and inside their interval, apart by where they lay: within what the calibration
     * measured, beyond its requests waiting or delays at its quota, or at another quota than its JVM was calibrated at
     * (both extrapolations, their interval widened for the distance); each "64 of 71 (90 %)".
     */
    record Range(String withinInside, String withinBeyond, String withinQuota, String coveredInside,
                 String coveredBeyond, String coveredQuota) {
    }

    /**
     * The points judged within the tolerance, apart by the machine's speed over the window against the speed the
     * forecast was made for ({@link Outcome#machineAsForecast}): kept, changed, or not recorded; and of the points
     * missed, "71 of 92" where the machine kept it (the misses the machine does not explain).
     */
    record Machine(String kept, String changed, String unrecorded, String missesKept) {
    }

    /**
     * The capacity model's targets, each linked to its constant: within the tolerance, inside the interval, the binding
     * ceiling named; and the margin over the binding ceiling at which the next no longer binds nearly with it.
     */
    record Targets(String within, String coverage, String named, String clearMargin) {
    }

    /**
     * The runs, each with its table; every run's points together, per kind of work (apart by whether the machine kept
     * the speed the forecast took it for, within {@code machineShare}); where the CPU bound, what a request
     * cost against the forecast's cost (at the share of the quota that says so); how close a forecast can land here;
     * how the load generator's cost was forecast; what the published runs say of the model's constants and of how a
     * level reads its cost; a request's CPU at two quotas measured one after the other; the targets, each linked to
     * its constant.
     */
    record Section(List<Run> runs, List<Total> totals, List<CostAgreement> costs, String cpuBound, String machineShare,
                   NoiseFloor.Floor floor, LoadGenerator loadGenerator, ConstantsEvidence.Constants constants,
                   QuotaSideBySide.Section quotas, Targets targets) {
    }

    private OffCalibrationSection() {
    }

    /** The section, or null where no published run is held out. */
    static Section of(List<PublishedRun> runs) {
        List<Held> held = runs.stream().flatMap(run -> predictedBy(run, runs).map(from -> held(run, from)).stream())
                .filter(h -> !h.outcomes().isEmpty()).toList();
        if (held.isEmpty()) {
            return null;
        }
        Map<String, List<Held>> byWork = new LinkedHashMap<>();
        held.forEach(h -> byWork.computeIfAbsent(h.work(), k -> new ArrayList<>()).add(h));
        List<Total> totals = byWork.entrySet().stream().map(e -> total(e.getKey(), e.getValue())).toList();
        List<CostAgreement> costs = byWork.entrySet().stream().flatMap(e -> CostAgreement.of(e.getKey(),
                e.getValue().stream().flatMap(h -> h.outcomes().stream()).toList()).stream()).toList();
        return new Section(held.stream().map(Held::shown).toList(), totals, costs,
                Cite.threshold(Outcome.CPU_BOUND_SHARE, "report/landscape/Outcome.java"),
                Cite.threshold(Yardstick.SLOWER_SHARE, "record/Yardstick.java"), NoiseFloor.of(runs),
                LoadGenerator.of(held.stream().flatMap(h -> h.outcomes().stream()).toList(), held.stream()
                        .filter(Held::keptHistogram).flatMap(h -> h.outcomes().stream()).toList()),
                ConstantsEvidence.of(runs),
                QuotaSideBySide.of(runs, held.stream().collect(Collectors.toMap(h -> h.run().name(),
                        Held::outcomes))),
                new Targets(Cite.threshold(Forecast.WITHIN_TARGET, "predict/Forecast.java"),
                        Cite.threshold(Forecast.COVERAGE_TARGET, "predict/Forecast.java"),
                        Cite.threshold(Forecast.NAMED_TARGET, "predict/Forecast.java"),
                        Cite.threshold(Forecast.CLEAR_MARGIN - 1, "predict/Forecast.java")));
    }

    /**
     * One held-out run: the run, what kind of work it measured, its outcomes (and those at another quota than the JVM
     * whose calibration predicted them), its table, and whether the calibration that predicted it kept k6's live
     * latency histogram (its windows read percentiles), as the windows it predicts do.
     */
    private record Held(PublishedRun run, String work, List<Outcome> outcomes, List<Outcome> atOtherQuota, Run shown,
                        boolean keptHistogram) {
    }

    private static Total total(String work, List<Held> runs) {
        List<Outcome> all = runs.stream().flatMap(h -> h.outcomes().stream()).toList();
        return new Total(work, Cite.link(String.valueOf(runs.size()), PublishedRun.FROM_DOCS),
                share(Forecasts.judgedWithin(all), Forecast.WITHIN_TARGET),
                share(Forecasts.covered(all), Forecast.COVERAGE_TARGET),
                share(Forecasts.named(all), Forecast.NAMED_TARGET), share(Forecasts.named(all.stream()
                        .filter(Outcome::oneCeilingBinds).toList()), Forecast.NAMED_TARGET),
                share(Forecasts.named(all.stream().filter(o -> !o.oneCeilingBinds()).toList()),
                        Forecast.NAMED_TARGET),
                range(all, runs.stream().flatMap(h -> h.atOtherQuota().stream()).toList()), machine(all));
    }

    private static Range range(List<Outcome> outcomes, List<Outcome> atOtherQuota) {
        List<Outcome> inside = outcomes.stream().filter(o -> !extrapolated(o) && !atOtherQuota.contains(o)).toList();
        List<Outcome> beyond = outcomes.stream().filter(o -> extrapolated(o) && !atOtherQuota.contains(o)).toList();
        return new Range(share(Forecasts.judgedWithin(inside), Forecast.WITHIN_TARGET),
                share(Forecasts.judgedWithin(beyond), Forecast.WITHIN_TARGET),
                share(Forecasts.judgedWithin(atOtherQuota), Forecast.WITHIN_TARGET),
                share(Forecasts.covered(inside), Forecast.COVERAGE_TARGET),
                share(Forecasts.covered(beyond), Forecast.COVERAGE_TARGET),
                share(Forecasts.covered(atOtherQuota), Forecast.COVERAGE_TARGET));
    }

    private static boolean extrapolated(Outcome outcome) {
        return outcome.prediction().map(WindowResult.Prediction::extrapolated).orElse(false);
    }

    private static Machine machine(List<Outcome> outcomes) {
        List<Outcome> missed = outcomes.stream().filter(o -> o.judged() && !o.withinTolerance()).toList();
        Forecasts missesKept = new Forecasts((int) missed.stream().filter(o -> o.machineAsForecast()
                .orElse(false)).count(), missed.size());
        return new Machine(withinWhereMachine(outcomes, Optional.of(true)),
                withinWhereMachine(outcomes, Optional.of(false)), withinWhereMachine(outcomes, Optional.empty()),
                missesKept.cited(PublishedRun.FROM_DOCS));
    }

    private static String withinWhereMachine(List<Outcome> outcomes, Optional<Boolean> asForecast) {
        return share(Forecasts.judgedWithin(outcomes.stream().filter(o -> o.machineAsForecast().equals(asForecast))
                .toList()), Forecast.WITHIN_TARGET);
    }

    /**
     * "64 of 71 (90 %)", the numbers linked to the published runs, the share never rounded up to the target it falls
     * short of; "none judged" where none was.
     */
    static String share(Forecasts f, double target) {
        return f.judged() == 0 ? "none judged" : f.cited(PublishedRun.FROM_DOCS) + " (" + Cite.link(Cite.percent(
                (double) f.within() / f.judged(), target), PublishedRun.FROM_DOCS) + ")";
    }

    /**
     * The run whose calibration predicts {@code run}'s closed-model windows, where it is held out: a run that
     * calibrated nothing itself (a database run's windows predicted from a database calibration), from the latest
     * calibration before it ({@link #calibratedBefore}); a run of its own plan that calibrated itself, from its own,
     * at the points it did not calibrate ({@link #held}), as a map of a few points that calibrated itself is (its
     * JVMs at another quota than the run's predicted from the run's own: {@link CalibratedRun}). A default run, a
     * regime map and a database calibration measure at their calibrated points: not here.
     */
    private static Optional<PublishedRun> predictedBy(PublishedRun run, List<PublishedRun> runs) {
        if (run.facts().windows().stream().noneMatch(w -> w.users() != null && !w.calibration())) {
            return Optional.empty();
        }
        if (run.facts().windows().stream().anyMatch(WindowResult::calibration)) {
            return run.kind() == Kind.OTHER_RUN || run.kind() == Kind.POINTS ? Optional.of(run) : Optional.empty();
        }
        return run.kind() == Kind.OTHER_RUN || run.kind() == Kind.DATABASE ? calibratedBefore(run, runs)
                : Optional.empty();
    }

    /**
     * The run whose calibration predicts it: the latest published before it on the same Quarkus platform, the same
     * JVM flags (heap and collector: on another collector a request costs another CPU) and the same processor (on this
     * machine's AMD EPYC a request cost about 1.3 times what it cost on its Intel Xeon: {@link HeldOutAgainst}) that
     * calibrated its kind of work, a default run for the delay service's.
     */
    private static Optional<PublishedRun> calibratedBefore(PublishedRun run, List<PublishedRun> runs) {
        String started = String.valueOf(run.facts().manifest().startedAt());
        Point kind = kind(run);
        return runs.stream().filter(r -> r.platform().equals(run.platform()))
                .filter(r -> r.facts().manifest().jvmFlags().equals(run.facts().manifest().jvmFlags()))
                .filter(r -> r.processor().equals(run.processor()))
                .filter(r -> kind.equals(Point.NONE) ? r.kind() == Kind.DEFAULT_RUN : r.facts().windows().stream()
                        .anyMatch(w -> w.calibration() && WorkKind.of(w.at()).equals(kind)))
                .filter(r -> String.valueOf(r.facts().manifest().startedAt()).compareTo(started) < 0)
                .max(Comparator.comparing(r -> String.valueOf(r.facts().manifest().startedAt())));
    }

    /** The kind of work a held-out run measured: its first closed-model window's. */
    private static Point kind(PublishedRun run) {
        return run.facts().windows().stream().filter(w -> w.users() != null).findFirst()
                .map(w -> WorkKind.of(w.at())).orElse(Point.NONE);
    }

    private static Held held(PublishedRun run, PublishedRun from) {
        HeldOutAgainst held;
        try {
            held = HeldOutAgainst.of(CalibratedRun.read(from.facts().dir(), kind(run)),
                    RunRecord.read(run.facts().dir()));
        } catch (CannotPredict | IOException e) {
            throw new UncheckedIOException("findings: " + run.name() + " predicted from " + from.name() + ": "
                    + e.getMessage(), e instanceof IOException io ? io : new IOException(e));
        }
        String measured = run.results();
        String calibration = from.results();
        // a run predicted from its own calibration is held out only where it did not calibrate
        List<Outcome> outcomes = held.outcomes().stream().filter(o -> run.facts().windows().stream()
                .noneMatch(w -> w.calibration() && w.variant().equals(o.variant()) && w.at().equals(o.at()))).toList();
        List<Row> rows = outcomes.stream().map(o -> Row.of(o, measured, calibration)).toList();
        Map<String, Double> calibratedQuota = from.facts().windows().stream().filter(WindowResult::calibration)
                .collect(Collectors.toMap(WindowResult::jvmId, w -> w.at().get(Axis.CPUS), (a, b) -> a));
        List<Outcome> atOtherQuota = outcomes.stream().filter(o -> !Objects.equals(calibratedQuota.get(
                o.calibratingJvmId()), o.at().get(Axis.CPUS))).toList();
        return new Held(run, WorkKind.words(kind(run)), outcomes, atOtherQuota, new Run(
                Cite.link(run.name(), run.report()), Cite.link(from.name(), from.report()),
                "./experiment predict --from findings/" + from.name() + " --against findings/" + run.name()
                        + (kind(run).has(Axis.DOWNSTREAM) ? " --downstream " + kind(run).get(Axis.DOWNSTREAM).label()
                        : "") + (kind(run).has(Axis.DB_ACCESS) ? " --db-access " + Axis.DB_ACCESS.json(kind(run)
                        .get(Axis.DB_ACCESS)) : ""), rows,
                Forecasts.within(outcomes, measured), Forecasts.covered(outcomes).cited(measured),
                Forecasts.named(outcomes).cited(measured)), keptHistogram(from));
    }

    /** Whether every calibration window of a run read percentiles: its k6 kept the live histogram. */
    private static boolean keptHistogram(PublishedRun run) {
        List<WindowResult> calibration = run.facts().windows().stream().filter(WindowResult::calibration).toList();
        return !calibration.isEmpty() && calibration.stream().allMatch(w -> w.load().keptHistogram());
    }
}
