package io.threadlab.experiment.findings;

import io.threadlab.experiment.collect.WindowResult;
import io.threadlab.experiment.predict.BetaEvidence;
import io.threadlab.experiment.predict.CalibratedRun;
import io.threadlab.experiment.predict.CannotPredict;
import io.threadlab.experiment.predict.CostReadingEvidence;
import io.threadlab.experiment.predict.ExtrapolationEvidence;
import io.threadlab.experiment.predict.Forecast;
import io.threadlab.experiment.predict.LoadCostEvidence;
import io.threadlab.experiment.predict.MachineEvidence;
import io.threadlab.experiment.predict.MachineSpeed;
import io.threadlab.experiment.predict.PauseEvidence;
import io.threadlab.experiment.predict.WindowEvidence;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the published runs say of the capacity model's constants and readings, each beside what the model takes and
 * whether it still holds: the machine's elasticity, β's least error, a cost's least error, how a level reads its
 * cost, the error beyond the calibration, k6's cost, how the collector's pauses grow. A constant a publication moves
 * away from its evidence is said in bold on the page, and fails a test until it follows.
 */
final class ConstantsEvidence {

    /** Each piece of evidence, null where the published runs give none. */
    record Constants(LoadCost loadCost, Machine machine, Beta beta, Twins twins, Reading reading,
                     Extrapolation extrapolation, Pauses pauses) {
    }

    /**
     * How the collector's pauses a request, read from each JVM's calibration as a power of the users (the model's) and
     * as a line in the throughput (its reading before), predicted that JVM's later windows, within the users read and
     * beyond them (root mean square log errors).
     *
     * @param holds whether the power predicts the windows beyond the users read at least as well as the line
     */
    record Pauses(PauseErrors within, PauseErrors beyond, boolean holds) {
    }

    /** "0.412" each: the windows, their JVMs, each reading's error; "none" where no window was predicted. */
    record PauseErrors(String windows, String jvms, String power, String line) {
    }

    /** Every piece of evidence from the published runs. */
    static Constants of(List<PublishedRun> runs) {
        return new Constants(loadCost(runs), machine(runs), beta(runs), twins(runs), reading(runs),
                extrapolation(runs), pauses(runs));
    }

    /** How the collector's pauses grow, from every published run's calibrated JVMs; null where none paused. */
    static Pauses pauses(List<PublishedRun> runs) {
        PauseEvidence evidence = PauseEvidence.of(windows(runs));
        if (evidence.within().windows() + evidence.beyond().windows() == 0) {
            return null;
        }
        return new Pauses(pauseErrors(evidence.within()), pauseErrors(evidence.beyond()), evidence.holds());
    }

    private static PauseErrors pauseErrors(PauseEvidence.Errors e) {
        return e.windows() == 0 ? new PauseErrors("none", "none", "none", "none")
                : new PauseErrors(Cite.number(e.windows(), 0, PublishedRun.FROM_DOCS),
                Cite.number(e.jvms(), 0, PublishedRun.FROM_DOCS), Cite.number(e.power(), 3, PublishedRun.FROM_DOCS),
                Cite.number(e.line(), 3, PublishedRun.FROM_DOCS));
    }

    /** What the published runs say of the machine's term, and the constant the model takes. */
    record Machine(String elasticity, String standardError, String windows, String runs, String constant) {
    }

    /**
     * What the published default runs say of β's least error, and the constant the model takes.
     *
     * @param holds whether the constant lies within two standard errors of the error they earn
     */
    record Beta(String spread, String error, String share, String standardError, String calibrations, String runs,
                String constant, boolean holds) {
    }

    /**
     * What two windows of one JVM at one point differ by (a calibration window and a measured one at the point it
     * calibrated), and the least error the model takes.
     *
     * @param holds whether the constant lies within two standard errors of it
     */
    record Twins(String difference, String standardError, String pairs, String runs, String constant, boolean holds) {
    }

    /**
     * How the rule for points beyond the calibration held where calibrations' end levels were left out: "40 of 44"
     * ends inside the error stated, their share, how far beyond (median e-folds), the runs, the rule.
     *
     * @param holds whether the rule covered at least the coverage target's share
     */
    record Extrapolation(String covered, String ends, String share, String beyond, String runs, String rule,
                         boolean holds) {
    }

    /**
     * What k6 spent in the runs' measured windows over what its JVM's calibration says at their throughput, with the
     * histogram's cost the model adds ({@code histogram}, linked to its constant).
     *
     * @param holds whether a factor of 1 lies within two standard errors of it: the calibration's k6 holds there
     */
    record LoadCost(String factor, String standardError, String windows, String runs, String histogram,
                    boolean holds) {
    }

    /**
     * How a calibration level reads its windows' CPU per request, from every published calibration: each kind of work's
     * levels left out and predicted from the others, their error read from the window's whole and from the median of
     * its seconds ({@link CostReadingEvidence}), then all together.
     *
     * @param holds whether the window's whole, which the model takes, predicts them at least as well over all
     */
    record Reading(List<ReadingErrors> kinds, ReadingErrors all, boolean holds) {
    }

    /** One kind of work's levels left out, of how many calibrated JVMs, and their errors read each way. */
    record ReadingErrors(String work, String levels, String calibrations, String whole, String median) {
    }

    private ConstantsEvidence() {
    }

    /** k6's calibrated cost in its runs' own windows, from every published run; null where fewer than two say. */
    static LoadCost loadCost(List<PublishedRun> runs) {
        LoadCostEvidence evidence = LoadCostEvidence.of(windows(runs));
        if (Double.isNaN(evidence.factor())) {
            return null;
        }
        return new LoadCost(Cite.link(Cite.times(evidence.factor()), PublishedRun.FROM_DOCS),
                Cite.number(evidence.standardError(), 3, PublishedRun.FROM_DOCS),
                Cite.number(evidence.windows(), 0, PublishedRun.FROM_DOCS),
                Cite.number(evidence.runs(), 0, PublishedRun.FROM_DOCS),
                Cite.link(Cite.times(LoadCostEvidence.histogram()), Cite.SOURCE + "predict/LoadCost.java"),
                evidence.holds());
    }

    /** Every published default run's calibration ends left out; null where none has four busy levels. */
    static Extrapolation extrapolation(List<PublishedRun> runs) {
        ExtrapolationEvidence evidence = extrapolationEvidence(runs);
        if (evidence.ends() == 0) {
            return null;
        }
        return new Extrapolation(Cite.number(evidence.covered(), 0, PublishedRun.FROM_DOCS),
                Cite.number(evidence.ends(), 0, PublishedRun.FROM_DOCS),
                Cite.link(Cite.percent(evidence.share(), Forecast.COVERAGE_TARGET), PublishedRun.FROM_DOCS),
                Cite.number(evidence.beyond(), 2, PublishedRun.FROM_DOCS),
                Cite.number(evidence.runs(), 0, PublishedRun.FROM_DOCS),
                Cite.link(Cite.percent(ExtrapolationEvidence.rule()), Cite.SOURCE + "predict/CpuCurve.java"),
                evidence.holds());
    }

    /** How a level reads its cost, from every published calibration; null where none left a level out. */
    static Reading reading(List<PublishedRun> runs) {
        CostReadingEvidence evidence = CostReadingEvidence.of(windows(runs));
        if (evidence.all().levels() == 0) {
            return null;
        }
        return new Reading(evidence.kinds().stream().map(ConstantsEvidence::readingErrors).toList(),
                readingErrors(evidence.all()), evidence.holds());
    }

    private static ReadingErrors readingErrors(CostReadingEvidence.Errors e) {
        return new ReadingErrors(e.work(), Cite.number(e.levels(), 0, PublishedRun.FROM_DOCS),
                Cite.number(e.calibrations(), 0, PublishedRun.FROM_DOCS),
                Cite.number(e.whole(), 3, PublishedRun.FROM_DOCS), Cite.number(e.median(), 3, PublishedRun.FROM_DOCS));
    }

    /**
     * The pairs of windows of one JVM at one point in every published run, k6 in its room in both; null where there
     * are none.
     */
    static Twins twins(List<PublishedRun> runs) {
        WindowEvidence evidence = WindowEvidence.of(windowsK6LeftRoom(runs));
        if (Double.isNaN(evidence.difference())) {
            return null;
        }
        return new Twins(Cite.number(evidence.difference(), 3, PublishedRun.FROM_DOCS),
                Cite.number(evidence.standardError(), 3, PublishedRun.FROM_DOCS),
                Cite.number(evidence.pairs(), 0, PublishedRun.FROM_DOCS),
                Cite.number(evidence.runs(), 0, PublishedRun.FROM_DOCS),
                Cite.link(Cite.format(WindowEvidence.leastError(), 2), Cite.SOURCE + "predict/CpuCurve.java"),
                evidence.holds(WindowEvidence.leastError()));
    }

    /** Every published run's windows, by its name. */
    static Map<String, List<WindowResult>> windows(List<PublishedRun> runs) {
        Map<String, List<WindowResult>> windows = new LinkedHashMap<>();
        runs.forEach(r -> windows.put(r.name(), r.facts().windows()));
        return windows;
    }

    /** Every published run's windows whose k6 did not crowd its room, by its name. */
    static Map<String, List<WindowResult>> windowsK6LeftRoom(List<PublishedRun> runs) {
        Map<String, List<WindowResult>> windows = new LinkedHashMap<>();
        runs.forEach(r -> windows.put(r.name(), r.facts().windowsK6LeftRoom()));
        return windows;
    }

    /** Every published default run's calibration ends, each left out and predicted from the others. */
    static ExtrapolationEvidence extrapolationEvidence(List<PublishedRun> runs) {
        List<ExtrapolationEvidence.End> ends = new ArrayList<>();
        calibrations(runs).forEach((run, calibrations) -> ends.addAll(ExtrapolationEvidence.of(run.name(),
                calibrations)));
        return ExtrapolationEvidence.of(ends);
    }

    /** Every published default run's fitted β, where its calibration measured one. */
    static BetaEvidence betaEvidence(List<PublishedRun> runs) {
        List<BetaEvidence.Estimate> estimates = new ArrayList<>();
        calibrations(runs).forEach((run, calibrations) -> estimates.addAll(BetaEvidence.of(run.name(),
                run.platform(), calibrations)));
        return BetaEvidence.of(estimates);
    }

    /** The calibrations of every published default run that has them, in the runs' order. */
    private static Map<PublishedRun, CalibratedRun> calibrations(List<PublishedRun> runs) {
        Map<PublishedRun, CalibratedRun> calibrations = new LinkedHashMap<>();
        for (PublishedRun run : runs) {
            if (run.kind() != Kind.DEFAULT_RUN) {
                continue;
            }
            try {
                calibrations.put(run, CalibratedRun.read(run.facts().dir()));
            } catch (CannotPredict e) {
                // a default run written before the runner calibrated (results format 1 or 2) has no calibration
            }
        }
        return calibrations;
    }

    /** β's least error, from every published default run that measured β; null where they leave no spread. */
    static Beta beta(List<PublishedRun> runs) {
        BetaEvidence evidence = betaEvidence(runs);
        if (Double.isNaN(evidence.spread())) {
            return null;
        }
        return new Beta(Cite.number(evidence.spread(), 3, PublishedRun.FROM_DOCS),
                Cite.number(evidence.error(), 3, PublishedRun.FROM_DOCS),
                Cite.link("90 %", Cite.SOURCE + "predict/BetaEvidence.java"),
                Cite.number(evidence.standardError(), 3, PublishedRun.FROM_DOCS),
                Cite.number(evidence.calibrations(), 0, PublishedRun.FROM_DOCS),
                Cite.number(evidence.runs(), 0, PublishedRun.FROM_DOCS),
                Cite.link(Cite.format(BetaEvidence.leastError(), 3), Cite.SOURCE + "predict/CpuCurve.java"),
                evidence.holds(BetaEvidence.leastError()));
    }

    /** The machine's term, from every published run's windows; null where they measure none. */
    static Machine machine(List<PublishedRun> runs) {
        MachineEvidence evidence = MachineEvidence.of(windows(runs));
        if (Double.isNaN(evidence.elasticity())) {
            return null;
        }
        return new Machine(Cite.number(evidence.elasticity(), 2, PublishedRun.FROM_DOCS),
                Cite.number(evidence.standardError(), 2, PublishedRun.FROM_DOCS),
                Cite.number(evidence.windows(), 0, PublishedRun.FROM_DOCS),
                Cite.number(evidence.runs(), 0, PublishedRun.FROM_DOCS),
                Cite.link(Cite.format(MachineSpeed.ELASTICITY, 2), Cite.SOURCE + "predict/MachineSpeed.java"));
    }
}
